import { test as base, expect, type Page } from '@playwright/test';
import { startAppServer, type AppServer } from './app-server.ts';
import { E2E_DEMO_DATA_DIR, E2E_WEB_DIST } from './global-setup.ts';
import { startSmtpCatcher, type SmtpCatcher } from '../../../../tools/test-support/smtp-catcher.ts';
import { startAuthEmulator } from '../../../../tools/firebase-emulator/auth-emulator.mjs';

type WorkerFixtures = {
  /** ID_TOKEN_TTL of this worker's server; a spec that needs short tokens sets it with `test.use`. */
  idTokenTtlSeconds: number | undefined;
  /** The identity provider of this worker's server; `firebase` starts the Firebase Auth emulator for it. */
  authProvider: 'builtin' | 'firebase';
  /** host:port of that emulator (firebase only). */
  firebaseEmulatorHost: string | undefined;
  smtp: SmtpCatcher;
  appServer: AppServer;
};

type TestFixtures = {
  /** Uncaught errors in the page fail the journey: a broken screen must not pass because it looked right. */
  pageErrors: string[];
};

export const test = base.extend<TestFixtures, WorkerFixtures>({
  idTokenTtlSeconds: [undefined, { scope: 'worker', option: true }],
  authProvider: ['builtin', { scope: 'worker', option: true }],

  firebaseEmulatorHost: [
    async ({ authProvider }, use) => {
      if (authProvider !== 'firebase') return use(undefined);
      const emulator = await startAuthEmulator({ projectId: 'demo-sf-e2e' });
      try {
        await use(emulator.host);
      } finally {
        await emulator.stop();
      }
    },
    { scope: 'worker', timeout: 180_000 },
  ],

  smtp: [
    // Playwright reads a fixture's dependencies from its first parameter's destructuring: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const catcher = await startSmtpCatcher();
      await use(catcher);
      await catcher.close();
    },
    { scope: 'worker' },
  ],

  appServer: [
    async ({ smtp, idTokenTtlSeconds, firebaseEmulatorHost }, use) => {
      const webDist = process.env[E2E_WEB_DIST];
      if (!webDist) throw new Error(`${E2E_WEB_DIST} is not set: run the journeys through playwright.config.ts (its global setup builds the web app)`);
      const extraEnv = firebaseEmulatorHost
        ? { AUTH_PROVIDER: 'firebase', FIREBASE_PROJECT_ID: 'demo-sf-e2e', FIREBASE_AUTH_EMULATOR_HOST: firebaseEmulatorHost }
        : undefined;
      // Every server starts on a copy of the first start's data, Firebase's too: the demo's accounts are
      // rows of our database whatever the provider (nothing is created in the emulator at start; the
      // journey makes its Firebase user itself, and the first sign-in links the two). Its own first
      // start took 22 s of the 36 s before the Firebase journey could begin (13 s for the emulator).
      const copyOfDataDir = process.env[E2E_DEMO_DATA_DIR];
      const server = await startAppServer({ smtpUrl: smtp.url, webDist, idTokenTtlSeconds, extraEnv, copyOfDataDir });
      try {
        await use(server);
      } finally {
        await server.stop();
      }
    },
    { scope: 'worker', timeout: 180_000 },
  ],

  baseURL: async ({ appServer }, use) => {
    await use(appServer.url);
  },

  pageErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(`${error.name}: ${error.message}`));
      await use(errors);
      expect(errors, 'uncaught errors in the page').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Loads the app in English from the first paint (S13 reads `language` at start-up), unless already chosen. */
export async function preferEnglish(page: Page): Promise<void> {
  await page.addInitScript(() => {
    if (!window.localStorage.getItem('language')) window.localStorage.setItem('language', 'en');
  });
}

import { randomUUID } from 'node:crypto';
import { cert, deleteApp, initializeApp, type App as FirebaseApp, type Credential } from 'firebase-admin/app';
import { getAuth, type Auth } from 'firebase-admin/auth';
import type { Env } from '../../config/env.ts';
import type { Account } from '../accounts.ts';

/**
 * Our accounts' password column for accounts whose password Firebase keeps: no argon2 hash, so the
 * built-in provider can never accept a password for them (a reset under it sets a real one).
 */
export const FIREBASE_MANAGED_PASSWORD = '!firebase';

export type FirebaseAdmin = {
  auth: Auth;
  /** The `role` custom claim follows our database (the other claims of the user are kept). */
  syncClaims(account: Pick<Account, 'firebaseUid' | 'role'>): Promise<void>;
  close(): Promise<void>;
};

function credentialOf(env: Env): Credential | undefined {
  if (env.FIREBASE_AUTH_EMULATOR_HOST) return undefined;
  const key = env.FIREBASE_SERVICE_ACCOUNT;
  // Without FIREBASE_SERVICE_ACCOUNT the SDK reads GOOGLE_APPLICATION_CREDENTIALS itself (env.ts checked one is set).
  if (!key) return undefined;
  return cert(key.trimStart().startsWith('{') ? (JSON.parse(key) as object) : key);
}

/**
 * The Admin SDK for one app instance (a named Firebase app, so that tests and the CLI can hold several).
 * With FIREBASE_AUTH_EMULATOR_HOST the SDK talks to the emulator; it reads that variable from the
 * process environment itself, so it is copied there from our validated settings.
 */
export function createFirebaseAdmin(env: Env): FirebaseAdmin {
  // eslint-disable-next-line no-restricted-syntax -- written, not read: the Admin SDK reads it there.
  if (env.FIREBASE_AUTH_EMULATOR_HOST) process.env['FIREBASE_AUTH_EMULATOR_HOST'] = env.FIREBASE_AUTH_EMULATOR_HOST;
  const credential = credentialOf(env);
  const app: FirebaseApp = initializeApp(
    { projectId: env.FIREBASE_PROJECT_ID, ...(credential ? { credential } : {}) },
    `sf-${randomUUID()}`,
  );
  const auth = getAuth(app);
  return {
    auth,
    async syncClaims(account) {
      if (!account.firebaseUid) return;
      const user = await auth.getUser(account.firebaseUid);
      const { role: _previous, ...others } = user.customClaims ?? {};
      await auth.setCustomUserClaims(account.firebaseUid, account.role ? { ...others, role: account.role } : others);
    },
    close: () => deleteApp(app),
  };
}

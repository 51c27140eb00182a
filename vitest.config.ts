import { configDefaults, defineConfig } from 'vitest/config';

/**
 * One `vitest run` for every unit, component and API test. The API suite runs twice: on the embedded
 * PostgreSQL (PGlite) and on a real PostgreSQL server that its global setup starts.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'contract',
          include: ['packages/contract/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'api-pglite',
          include: ['apps/api/src/**/*.test.ts', 'apps/api/test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'apps/api/test/firebase/**'],
          environment: 'node',
          env: { TEST_DB: 'pglite' },
          globalSetup: ['apps/api/test/pglite-global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'api-postgres',
          include: ['apps/api/src/**/*.test.ts', 'apps/api/test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'apps/api/test/firebase/**'],
          environment: 'node',
          env: { TEST_DB: 'postgres' },
          globalSetup: ['apps/api/test/postgres-global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // AUTH_PROVIDER=firebase against the Firebase Auth emulator, which the global setup starts once
        // (tools/firebase-emulator; `npm run firebase:install` first). On PostgreSQL: the provider's SQL
        // is the same on both, and one database keeps the emulator's run short.
        test: {
          name: 'api-firebase',
          include: ['apps/api/test/firebase/**/*.test.ts'],
          environment: 'node',
          env: { TEST_DB: 'postgres' },
          globalSetup: ['apps/api/test/postgres-global-setup.ts', 'apps/api/test/firebase/emulator-global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      'apps/web/vitest.config.ts',
    ],
  },
});

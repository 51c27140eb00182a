import { configDefaults, defineConfig } from 'vitest/config';

/**
 * One `vitest run` for every unit, component and API test. The API suite runs twice: on the embedded
 * PostgreSQL (PGlite) and on a real PostgreSQL server that its global setup starts.
 */
export default defineConfig({
  test: {
    // Vitest's default on two cores is one worker (cores − 1). The API files spend much of their time
    // waiting on PostgreSQL (a separate process) and argon2 (native threads): two files at a time keep
    // both cores busy.
    maxWorkers: 2,
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
          exclude: [...configDefaults.exclude, 'apps/api/test/firebase/**', 'apps/api/test/cluster/**'],
          environment: 'node',
          env: { TEST_DB: 'pglite' },
          // The files of a worker share one module graph: the app's modules are imported once per
          // worker instead of once per file (a third of each file's time). Each file still builds its
          // own app on its own fresh database (test/helper.ts); nothing in the API keeps state in a module.
          isolate: false,
          globalSetup: ['apps/api/test/pglite-global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'api-postgres',
          include: ['apps/api/src/**/*.test.ts', 'apps/api/test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'apps/api/test/firebase/**', 'apps/api/test/cluster/**'],
          environment: 'node',
          env: { TEST_DB: 'postgres' },
          isolate: false, // as api-pglite
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

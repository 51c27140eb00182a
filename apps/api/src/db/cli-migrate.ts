import { loadEnv } from '../config/env.ts';
import { openDatabaseFromEnv } from './client.ts';
import { prepareDataDir } from '../lib/data-dir.ts';

/** `npm run db:migrate`: applies the pending migrations to the configured database, then exits. */
const env = loadEnv();
await prepareDataDir(env.dataDir);
const database = await openDatabaseFromEnv(env, { poolSize: 1 });
try {
  await database.migrate();
  console.log(`migrations applied (${database.kind}${database.kind === 'pglite' ? `, ${env.dataDir}` : ''})`);
} finally {
  await database.close();
}

import { loadEnv } from '../config/env.ts';
import { openDatabaseFromEnv } from './client.ts';

/** `npm run db:migrate`: applies the pending migrations to the configured database, then exits. */
const env = loadEnv();
const database = await openDatabaseFromEnv(env, { poolSize: 1 });
try {
  await database.migrate();
  console.log(`migrations applied (${database.kind}${database.kind === 'pglite' ? `, ${env.dataDir}` : ''})`);
} finally {
  await database.close();
}

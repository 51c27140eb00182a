import { loadEnv } from '../config/env.ts';
import { openDatabaseFromEnv } from '../db/client.ts';
import { runLedgerVerify } from '../modules/ledger/ledger.verify.ts';

/**
 * `npm run ledger:verify`: proves on the configured database (DATABASE_URL, else DATA_DIR's PGlite)
 * that every stored balance equals the sum of its entries; exits 1 when it does not.
 */
const env = loadEnv();
const database = await openDatabaseFromEnv(env, { poolSize: 1 });
try {
  await database.migrate();
  process.exitCode = await runLedgerVerify(database.db, (line) => console.log(line));
} finally {
  await database.close();
}

import { loadEnv } from '../config/env.ts';
import { openDatabaseFromEnv } from '../db/client.ts';
import { runLedgerVerify } from '../modules/ledger/ledger.verify.ts';

/**
 * `npm run ledger:verify`: proves on the configured database (DATABASE_URL, else DATA_DIR's PGlite)
 * that every stored figure equals its sources (balances, lots, day sums, dashboard rollups, tiers,
 * reward stock, consents), printing each check's time; exits 1 naming the first differences.
 */
const env = loadEnv();
const database = await openDatabaseFromEnv(env, { poolSize: 1 });
try {
  await database.migrate();
  process.exitCode = await runLedgerVerify(database.db, (line) => console.log(line), { timeZone: env.BUSINESS_TIME_ZONE, isTimed: true });
} finally {
  await database.close();
}

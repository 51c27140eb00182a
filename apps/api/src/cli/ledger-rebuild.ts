import { loadEnv } from '../config/env.ts';
import { openDatabaseFromEnv } from '../db/client.ts';
import { checkIntegrity } from '../modules/ledger/ledger-integrity.service.ts';
import { rebuildDerivedFigures } from '../modules/ledger/ledger.rebuild.ts';

/**
 * `npm run ledger:rebuild`: recomputes on the configured database (DATABASE_URL, else DATA_DIR's
 * PGlite) every figure derived from its sources — tiers, consents' current state, reward stock, the
 * members' day sums, the dashboard's rollups — then runs the checks of `ledger:verify` and records
 * their outcome (the dashboard's "Integrità dei dati" notice goes once they pass). Idempotent; safe
 * while the API runs (decision record 030). Exits 1 if a check still fails (the ledger's own figures:
 * balances, lots… are never overwritten).
 */
const env = loadEnv();
const database = await openDatabaseFromEnv(env, { poolSize: 1 });
try {
  await database.migrate();
  const report = await rebuildDerivedFigures(database.db, { timeZone: env.BUSINESS_TIME_ZONE, log: (line) => console.log(line) });
  console.log(
    `ledger:rebuild done in ${report.seconds.toFixed(1)} s: ${report.tiers} tier(s), ${report.consents} customer(s)' consents, ` +
      `${report.rewardStock} reward stock(s) corrected; members' day sums and dashboard rollups recomputed`,
  );
  const check = await checkIntegrity(database.db, { timeZone: env.BUSINESS_TIME_ZONE, now: new Date() });
  if (check.failing.length === 0) {
    console.log('ledger:verify after the rebuild: OK');
  } else {
    console.log(`ledger:verify after the rebuild still fails: ${check.failing.join(', ')} (run npm run ledger:verify for the details)`);
    process.exitCode = 1;
  }
} finally {
  await database.close();
}

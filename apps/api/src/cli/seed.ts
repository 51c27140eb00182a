import { loadEnv } from '../config/env.ts';
import { openDatabaseFromEnv } from '../db/client.ts';
import { prepareDataDir } from '../lib/data-dir.ts';
import { seedDemoData } from '../db/seed.ts';
import { seedLoyaltyDemo } from '../db/seed-loyalty.ts';
import { seedLedgerDemo } from '../modules/ledger/ledger.seed.ts';
import { seedRewardsDemo } from '../modules/rewards/rewards.seed.ts';
import { seedPrivacyDemo } from '../modules/privacy/privacy.seed.ts';

/**
 * `npm run db:seed`: loads the demo data into an EMPTY database (no staff account yet); on a database
 * that has accounts it changes nothing and says so.
 */
const env = loadEnv();
await prepareDataDir(env.dataDir);
const database = await openDatabaseFromEnv(env, { poolSize: 1 });
try {
  await database.migrate();
  // Under the start-up lock, like the server's own seeding: never beside a starting server's.
  await database.withStartupLock(async () => {
    const isSeeded = await seedDemoData(database.db);
    console.log(isSeeded ? 'demo data loaded' : 'the database already has accounts: demo data not loaded');
    const isLoyaltySeeded = await seedLoyaltyDemo(database.db);
    console.log(isLoyaltySeeded ? 'demo merchants, programs and customers loaded' : 'the database already has merchants: demo anagrafiche not loaded');
    const entries = isLoyaltySeeded
      ? await seedLedgerDemo(database.db, { timeZone: env.BUSINESS_TIME_ZONE, targetEntries: env.DEMO_LEDGER_ENTRIES })
      : 0;
    console.log(entries > 0 ? `demo ledger loaded: ${entries} entries` : 'demo ledger not loaded (only with freshly loaded demo anagrafiche)');
    const rewards = isLoyaltySeeded ? await seedRewardsDemo(database.db, { timeZone: env.BUSINESS_TIME_ZONE }) : 0;
    console.log(rewards > 0 ? `demo rewards loaded: ${rewards}` : 'demo rewards not loaded');
    const requests = isLoyaltySeeded ? await seedPrivacyDemo(database.db) : 0;
    console.log(requests > 0 ? `demo privacy requests loaded: ${requests}` : 'demo privacy requests not loaded (only with freshly loaded demo anagrafiche)');
  });
} finally {
  await database.close();
}

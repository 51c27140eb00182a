import { loadEnv } from '../config/env.ts';
import { openDatabaseFromEnv } from './client.ts';
import { seedDemoData } from './seed.ts';
import { seedLoyaltyDemo } from './seed-loyalty.ts';

/**
 * `npm run db:seed`: loads the demo data into an EMPTY database (no staff account yet); on a database
 * that has accounts it changes nothing and says so.
 */
const env = loadEnv();
const database = await openDatabaseFromEnv(env, { poolSize: 1 });
try {
  await database.migrate();
  const isSeeded = await seedDemoData(database.db);
  console.log(isSeeded ? 'demo data loaded' : 'the database already has accounts: demo data not loaded');
  const isLoyaltySeeded = await seedLoyaltyDemo(database.db);
  console.log(isLoyaltySeeded ? 'demo merchants, programs and customers loaded' : 'the database already has merchants: demo anagrafiche not loaded');
} finally {
  await database.close();
}

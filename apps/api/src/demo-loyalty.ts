import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './db/client.ts';
import { seedLoyaltyDemo } from './db/seed-loyalty.ts';
import { seedLedgerDemo } from './modules/ledger/ledger.seed.ts';
import { seedRewardsDemo } from './modules/rewards/rewards.seed.ts';
import { seedPrivacyDemo } from './modules/privacy/privacy.seed.ts';

/**
 * The loyalty demo of `npm start`, in the order it loads: merchants, programs and customers (once,
 * into a database that has none), their ledger (~60,000 entries over 18 months), rewards with vouchers
 * and redemptions and pending proofs, a few GDPR requests. One function for the server and for the
 * test that holds the demo dashboard to the ledger. Answers whether it loaded anything.
 */
export async function loadLoyaltyDemo(
  db: Database,
  options: { log?: FastifyBaseLogger; timeZone: string; ledgerEntries: number; now?: Date },
): Promise<boolean> {
  const now = options.now ? { now: options.now } : {};
  const log = options.log ? { log: options.log } : {};
  if (!(await seedLoyaltyDemo(db, { ...log, ...now }))) return false;
  if (options.ledgerEntries > 0) await seedLedgerDemo(db, { ...log, ...now, timeZone: options.timeZone, targetEntries: options.ledgerEntries });
  await seedRewardsDemo(db, { ...log, ...now, timeZone: options.timeZone });
  await seedPrivacyDemo(db, { ...log, ...now });
  return true;
}

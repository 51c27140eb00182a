import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './db/client.ts';
import { seedLoyaltyDemo } from './db/seed-loyalty.ts';
import { seedLedgerDemo } from './modules/ledger/ledger.seed.ts';
import { seedRewardsDemo } from './modules/rewards/rewards.seed.ts';
import { seedPrivacyDemo } from './modules/privacy/privacy.seed.ts';
import { payBirthdayBonuses, payReferralBonuses } from './modules/bonuses/bonuses.service.ts';

/**
 * The loyalty demo of `npm start`, in the order it loads: merchants, programs and customers (once,
 * into a database that has none), their ledger (~60,000 entries over 18 months), rewards with vouchers
 * and redemptions and pending proofs, a few GDPR requests, and the automatic bonuses then due (the
 * referees' first purchases, this month's birthdays). One function for the server and for the test
 * that holds the demo dashboard to the ledger. Answers whether it loaded anything.
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
  // The history has referees who bought and members with a birthday this month, and no bonus paid:
  // the bonus jobs would pay a few hundred of them on the first tick after the server starts
  // listening, holding the embedded database for seconds (measured: 21 s on a loaded machine) while
  // the first visitor waits. Paid here, through the same service, before the server listens.
  const deps = { db, timeZone: options.timeZone, clock: { now: () => options.now ?? new Date() } };
  const referrals = await payReferralBonuses(deps);
  const birthdays = await payBirthdayBonuses(deps);
  options.log?.info({ referrals: referrals.entries, birthdays: birthdays.entries }, 'demo bonuses due paid');
  return true;
}

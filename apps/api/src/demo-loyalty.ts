import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './db/client.ts';
import { DEMO_ADMIN_EMAIL } from './db/seed.ts';
import { seedLoyaltyDemo } from './db/seed-loyalty.ts';
import { findAccountByEmail } from './identity/accounts.ts';
import { seedLedgerDemo, type DemoOperator } from './modules/ledger/ledger.seed.ts';
import { seedRewardsDemo } from './modules/rewards/rewards.seed.ts';
import { seedPrivacyDemo } from './modules/privacy/privacy.seed.ts';
import { payBirthdayBonuses, payReferralBonuses } from './modules/bonuses/bonuses.service.ts';

/**
 * The loyalty demo of `npm start`, in the order it loads: merchants, programs and customers (once,
 * into a database that has none), their ledger (~60,000 entries over 18 months, the referral and
 * birthday bonuses paid on their days among them), rewards with vouchers and redemptions and pending
 * proofs, a few GDPR requests, and any automatic bonus still due. One function for the server and for the test
 * that holds the demo dashboard to the ledger. Answers whether it loaded anything.
 */
export async function loadLoyaltyDemo(
  db: Database,
  options: { log?: FastifyBaseLogger; timeZone: string; ledgerEntries: number; now?: Date },
): Promise<boolean> {
  const now = options.now ? { now: options.now } : {};
  const log = options.log ? { log: options.log } : {};
  if (!(await seedLoyaltyDemo(db, { ...log, ...now }))) return false;
  // What a person does at the back-office (adjustments, redemptions, reversals) is the demo admin's,
  // by id as a real movement is, so that Movimenti names them; the till's and the jobs' are not a person's.
  const admin = await findAccountByEmail(db, DEMO_ADMIN_EMAIL);
  const operator: DemoOperator | undefined = admin ? { id: admin.id, label: admin.email } : undefined;
  const by = operator ? { operator } : {};
  if (options.ledgerEntries > 0) await seedLedgerDemo(db, { ...log, ...now, ...by, timeZone: options.timeZone, targetEntries: options.ledgerEntries });
  await seedRewardsDemo(db, { ...log, ...now, ...by, timeZone: options.timeZone });
  await seedPrivacyDemo(db, { ...log, ...now });
  // The ledger's history already holds the bonuses the jobs would have paid over it (on their days,
  // with their marks). Whatever is still due (none, or a referee who bought in the last minutes) is
  // paid here through the same service, before the server listens: on the first job tick after it
  // listens, a few hundred of them held the embedded database for seconds (21 s measured on a loaded
  // machine) while the first visitor waited.
  const deps = { db, timeZone: options.timeZone, clock: { now: () => options.now ?? new Date() } };
  const referrals = await payReferralBonuses(deps);
  const birthdays = await payBirthdayBonuses(deps);
  options.log?.info({ referrals: referrals.entries, birthdays: birthdays.entries }, 'demo bonuses due paid');
  return true;
}

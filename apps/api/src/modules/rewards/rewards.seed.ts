import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { localDate, startOfLocalDay } from '../../lib/business-days.ts';
import { SYSTEM_ACTOR } from '../../lib/audit.ts';
import { submitProof } from '../social-proofs/social-proofs.service.ts';
import { redeemReward, type RewardsActor } from './rewards.service.ts';
import { generateVouchers } from './vouchers.service.ts';

/**
 * Demo rewards for `npm start`, once, on the demo programs: a few rewards per program (one with 20
 * codes waiting, one with little stock), some redemptions through the real service (so the ledger
 * stays consistent and `npm run ledger:verify` passes) and a queue of pending social-action proofs.
 *
 * The redemptions are dated over the ledger demo's 18 months, not all today (a spike on the dashboard
 * and at the top of Movimenti). The service redeems at its clock's time and appends to the member's
 * history, so a redemption at an instant T is true to the ledger only for a member with no movement
 * after T: its balance, lots and tier at T are then the ones stored now (a lot that expired after T
 * would have an expiry entry after T). Each redemption is aimed at a time spread over the window and
 * given to the member whose last movement is closest before it (or, when nobody who can afford it had
 * stopped moving by then, the first to stop after it, an hour after their last movement); at most two
 * fall on a day, and none today.
 */
/** The window of the ledger demo's history (ledger.seed.ts: 18 months of 30 days before now). */
const HISTORY_MS = 18 * 30 * 86_400_000;
/** Redemptions aimed per reward over the window. */
const REDEMPTIONS_PER_REWARD = 3;
const HOUR_MS = 3_600_000;

export async function seedRewardsDemo(
  db: Database,
  options: { now?: Date; timeZone: string; log?: FastifyBaseLogger; operator?: { id: string | null; label: string } },
): Promise<number> {
  const rows = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  if ((await rows<{ n: number }>(sql`select count(*)::int as n from rewards`))[0]!.n > 0) return 0;
  const programs = await rows<{ id: string; type: 'points' | 'stamps'; merchant_id: string | null }>(
    sql`select p.id, p.type, (select pm.merchant_id from program_merchants pm where pm.program_id = p.id order by pm.merchant_id limit 1) as merchant_id
        from programs p where p.status = 'active' order by p.name limit 3`,
  );
  if (programs.length === 0) return 0;
  const now = options.now ?? new Date();
  const clock: Clock = { now: () => now };
  const deps = { db, clock, timeZone: options.timeZone };
  const system: RewardsActor = { id: null, label: 'demo', audit: SYSTEM_ACTOR };
  const caller = { actor: system.audit, userId: randomUUID(), language: 'it' as const };
  // A redemption is made at the back-office by a staff member (POST /api/admin/redemptions): the demo
  // admin's, by id, as Movimenti names a real one's; the system only when there is no account.
  const redeemer: RewardsActor = options.operator?.id
    ? { id: options.operator.id, label: options.operator.label, audit: { id: options.operator.id, email: options.operator.label } }
    : system;
  // The window's last business day, 180 days on (a `date` column).
  const until = localDate(new Date(now.getTime() + 180 * 86_400_000), options.timeZone);
  // The rewards exist from the history's start, so that a redemption never predates its reward.
  const since = new Date(now.getTime() - HISTORY_MS);
  const todayStart = startOfLocalDay(localDate(now, options.timeZone), options.timeZone);
  const created: { id: string; programId: string; cost: number; isStamps: boolean; hasCodes: boolean }[] = [];
  let rewards = 0;

  for (const program of programs) {
    const isStamps = program.type === 'stamps';
    const catalogue = isStamps
      ? [{ name: 'Caffè omaggio', cost: 10, stock: null }, { name: 'Cornetto e cappuccino', cost: 15, stock: 50 }]
      : [
          { name: 'Buono sconto 5 €', cost: 200, stock: null },
          { name: 'Aperitivo per due', cost: 400, stock: 30 },
          { name: 'Cena degustazione', cost: 1500, stock: 5 },
        ];
    for (const [index, item] of catalogue.entries()) {
      const [reward] = await rows<{ id: string }>(
        sql`insert into rewards (program_id, name, description, cost, stock, valid_until, limit_per_customer, status, created_at, updated_at)
            values (${program.id}, ${item.name}, ${'Premio dimostrativo'}, ${item.cost}, ${item.stock}, ${until}, ${index === 2 ? 1 : null}, 'active', ${since}, ${since})
            returning id`,
      );
      rewards += 1;
      created.push({ id: reward!.id, programId: program.id, cost: item.cost, isStamps, hasCodes: index === 0 });
    }
    // Pending proofs, so that Approvazioni has a queue.
    const customers = await rows<{ id: string }>(sql`select id from customers where status = 'active' order by card_number limit 6`);
    const kinds = ['review', 'share', 'checkIn'] as const;
    for (const [index, customer] of customers.entries()) {
      await submitProof(deps, { label: 'app', audit: system.audit, channel: 'app' }, {
        customerId: customer.id,
        programId: program.id,
        ...(program.merchant_id ? { merchantId: program.merchant_id } : {}),
        kind: kinds[index % kinds.length]!,
        url: `https://www.instagram.com/p/demo${index + 1}`,
      });
    }
  }
  // The redemptions, in the order of their aimed times: the rewards take turns, so that each one's
  // are a third of the window apart and the window's every stretch has some.
  const slots = created.length * REDEMPTIONS_PER_REWARD;
  const perDay = new Map<string, number>();
  let redemptions = 0;
  for (let slot = 0; slot < slots; slot += 1) {
    const reward = created[slot % created.length]!;
    const aimed = new Date(since.getTime() + ((slot + 0.5) / slots) * (todayStart.getTime() - since.getTime()));
    // Members who can afford it then (nothing of theirs moved since), and have not had this reward yet.
    const members = await rows<{ customer_id: string; last: Date | string }>(
      sql`select m.customer_id, l.last from memberships m join customers c on c.id = m.customer_id
          cross join lateral (select max(e.created_at) as last from ledger_entries e where e.membership_id = m.id) l
          where m.program_id = ${reward.programId} and c.status = 'active' and l.last is not null
            and ${reward.isStamps ? sql`m.stamps` : sql`m.balance`} >= ${reward.cost}
            and l.last < ${new Date(todayStart.getTime() - HOUR_MS)}
            and not exists (select 1 from vouchers v where v.reward_id = ${reward.id} and v.customer_id = m.customer_id)
          order by (l.last < ${aimed}) desc,
            case when l.last < ${aimed} then -extract(epoch from l.last) else extract(epoch from l.last) end,
            m.customer_id
          limit 50`,
    );
    // At most two on a day: a few reward redemptions among the day's other movements, never a spike.
    const chosen = members
      .map((member) => {
        const last = new Date(member.last);
        const at = last < aimed ? aimed : new Date(last.getTime() + HOUR_MS);
        return { customerId: member.customer_id, at, day: localDate(at, options.timeZone) };
      })
      .find((candidate) => (perDay.get(candidate.day) ?? 0) < 2);
    if (!chosen) continue;
    const then = { ...deps, clock: { now: () => chosen.at } };
    await redeemReward(then, redeemer, { customerId: chosen.customerId, rewardId: reward.id }, `demo-${randomUUID()}`, { scope: 'demo-seed' });
    perDay.set(chosen.day, (perDay.get(chosen.day) ?? 0) + 1);
    redemptions += 1;
  }
  // Codes waiting at a till, generated now (after the redemptions, which drew their own codes then).
  for (const reward of created.filter((item) => item.hasCodes)) await generateVouchers(deps, caller, reward.id, 20);
  options.log?.info({ rewards, redemptions }, 'demo rewards, vouchers and proofs loaded');
  return rewards;
}

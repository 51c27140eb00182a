import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { localDate } from '../../lib/business-days.ts';
import { submitProof } from '../social-proofs/social-proofs.service.ts';
import { redeemReward, type RewardsActor } from './rewards.service.ts';
import { generateVouchers } from './vouchers.service.ts';

/**
 * Demo rewards for `npm start`, once, on the demo programs: a few rewards per program (one with 20
 * codes waiting, one with little stock), some redemptions through the real service (so the ledger
 * stays consistent and `npm run ledger:verify` passes) and a queue of pending social-action proofs.
 */
export async function seedRewardsDemo(db: Database, options: { now?: Date; timeZone: string; log?: FastifyBaseLogger }): Promise<number> {
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
  const system: RewardsActor = { id: null, label: 'demo', audit: { id: null, email: 'system' } };
  const caller = { actor: system.audit, userId: randomUUID(), language: 'it' as const };
  // The window's last business day, 180 days on (a `date` column).
  const until = localDate(new Date(now.getTime() + 180 * 86_400_000), options.timeZone);
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
            values (${program.id}, ${item.name}, ${'Premio dimostrativo'}, ${item.cost}, ${item.stock}, ${until}, ${index === 2 ? 1 : null}, 'active', ${now}, ${now})
            returning id`,
      );
      rewards += 1;
      if (index === 0) await generateVouchers(deps, caller, reward!.id, 20);
      // A few redemptions by the members who can afford it.
      const members = await rows<{ customer_id: string }>(
        sql`select m.customer_id from memberships m join customers c on c.id = m.customer_id
            where m.program_id = ${program.id} and c.status = 'active' and ${isStamps ? sql`m.stamps` : sql`m.balance`} >= ${item.cost}
            order by m.customer_id limit 3`,
      );
      for (const member of members) {
        await redeemReward(deps, system, { customerId: member.customer_id, rewardId: reward!.id }, `demo-${randomUUID()}`, { scope: 'demo-seed' });
      }
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
  options.log?.info({ rewards }, 'demo rewards, vouchers and proofs loaded');
  return rewards;
}

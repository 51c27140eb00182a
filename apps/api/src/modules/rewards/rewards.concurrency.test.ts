import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../db/client.ts';
import { systemClock } from '../../lib/clock.ts';
import type { Caller, ServiceDeps } from '../../lib/caller.ts';
import type { AppError } from '../../lib/errors.ts';
import { createTemplateDatabase, testDatabaseKind } from '../../../test/helper.ts';
import { createLedgerFixture, type LedgerFixture } from '../../../test/ledger-fixtures.ts';
import { createEntry } from '../ledger/ledger.service.ts';
import { verifyLedger } from '../ledger/ledger.verify.ts';
import { decideProofs, submitProof } from '../social-proofs/social-proofs.service.ts';
import { redeemReward, type RewardsActor } from './rewards.service.ts';
import { useVoucher } from './voucher-use.service.ts';

const POOL = 20;

/**
 * Redemptions, voucher uses and approvals racing each other on a pool of 20 connections.
 *
 * Real PostgreSQL only: PGlite runs one transaction at a time in one connection, so nothing here
 * would actually run concurrently there and the test would prove nothing.
 */
describe.skipIf(testDatabaseKind === 'pglite')('rewards and approvals under concurrent requests (real PostgreSQL)', () => {
  let handle: DatabaseHandle;
  let drop = async () => undefined as void;
  let fx: LedgerFixture;
  let deps: ServiceDeps;
  const actor: RewardsActor = { id: null, label: 'concurrency-test', audit: { id: null, email: 'concurrency-test' } };
  const caller: Caller = { actor: { id: null, email: 'concurrency-test' }, userId: randomUUID(), language: 'en' };

  const rows = async <T>(query: ReturnType<typeof sql>) => ((await handle.db.execute(query)) as unknown as { rows: T[] }).rows;

  beforeAll(async () => {
    const database = await createTemplateDatabase('rew');
    handle = await openDatabase({ url: database.url, poolSize: POOL });
    drop = async () => {
      await handle.close();
      await database.drop();
    };
    fx = await createLedgerFixture(handle.db, { customers: 50 });
    deps = { db: handle.db, clock: systemClock, timeZone: 'Europe/Rome' };
  });
  afterAll(async () => drop());

  it('50 parallel redemptions of a reward with stock 10: exactly 10 vouchers, stock 0, points taken exactly 10 times', { timeout: 300_000 }, async () => {
    // One rich member redeeming 50 times at once, and 49 others once each: both the stock and the
    // membership lock are contended.
    const [rewardId] = (
      await rows<{ id: string }>(
        sql`insert into rewards (program_id, name, cost, stock, status) values (${fx.pointsProgramId}, 'Cena per due', 100, 10, 'active') returning id`,
      )
    ).map((r) => r.id);
    for (const customerId of fx.customerIds) {
      await createEntry(deps, actor, { customerId, programId: fx.pointsProgramId, kind: 'purchase', amountCents: 100_000 }, randomUUID());
    }
    const customers = [...fx.customerIds.slice(0, 25), ...Array.from({ length: 25 }, () => fx.customerIds[0]!)];
    const outcomes = await Promise.allSettled(customers.map((customerId) => redeemReward(deps, actor, { customerId, rewardId: rewardId! }, randomUUID())));
    const succeeded = outcomes.filter((o) => o.status === 'fulfilled');
    const refusals = outcomes.flatMap((o) => (o.status === 'rejected' ? [(o.reason as AppError).code ?? String(o.reason)] : []));
    expect(succeeded).toHaveLength(10);
    expect(new Set(refusals)).toEqual(new Set(['out_of_stock']));

    const [reward] = await rows<{ stock: number }>(sql`select stock from rewards where id = ${rewardId}`);
    expect(reward!.stock).toBe(0);
    const [vouchers] = await rows<{ n: number; codes: number }>(
      sql`select count(*)::int as n, count(distinct code)::int as codes from vouchers where reward_id = ${rewardId} and status = 'issued'`,
    );
    expect(vouchers).toEqual({ n: 10, codes: 10 });
    const [redeems] = await rows<{ n: number; points: number }>(
      sql`select count(*)::int as n, coalesce(sum(points), 0)::int as points from ledger_entries where source = 'reward'`,
    );
    expect(redeems).toEqual({ n: 10, points: -1000 });
    expect(await verifyLedger(handle.db)).toEqual([]);
  });

  it('10 parallel redemptions by one customer of a reward limited to 2 per customer: exactly 2', { timeout: 120_000 }, async () => {
    const [rewardId] = (
      await rows<{ id: string }>(
        sql`insert into rewards (program_id, name, cost, limit_per_customer, status) values (${fx.pointsProgramId}, 'Due a testa', 5, 2, 'active') returning id`,
      )
    ).map((r) => r.id);
    const customerId = fx.customerIds[20]!;
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => redeemReward(deps, actor, { customerId, rewardId: rewardId! }, randomUUID())));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(2);
    const refusals = outcomes.flatMap((o) => (o.status === 'rejected' ? [(o.reason as AppError).code] : []));
    expect(new Set(refusals)).toEqual(new Set(['reward_limit_reached']));
  });

  it('20 parallel uses of one voucher: exactly one succeeds, the others get voucher_used', { timeout: 120_000 }, async () => {
    const [rewardId] = (
      await rows<{ id: string }>(sql`insert into rewards (program_id, name, cost, status) values (${fx.pointsProgramId}, 'Caffè', 1, 'active') returning id`)
    ).map((r) => r.id);
    const { body } = await redeemReward(deps, actor, { customerId: fx.customerIds[30]!, rewardId: rewardId! }, randomUUID());
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, () => useVoucher(deps, actor, { code: body.voucher.code, merchantId: fx.merchantId })),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refusals = outcomes.flatMap((o) => (o.status === 'rejected' ? [(o.reason as AppError).code] : []));
    expect(refusals).toEqual(Array.from({ length: 19 }, () => 'voucher_used'));
    const [audits] = await rows<{ n: number }>(sql`select count(*)::int as n from audit_log where action = 'voucher.use'`);
    expect(audits!.n).toBe(1);
  });

  it('20 parallel approvals of the same proof: one ledger entry', { timeout: 120_000 }, async () => {
    const bonuses = {
      referrer: { points: 0, capPerMonth: 0 },
      referee: { points: 0, capPerMonth: 0 },
      share: { points: 25, capPerMonth: 0 },
      review: { points: 0, capPerMonth: 0 },
      checkIn: { points: 0, capPerMonth: 0 },
      birthday: { points: 0, capPerMonth: 0 },
    };
    await handle.db.execute(sql`update programs set bonuses = ${JSON.stringify(bonuses)}::jsonb where id = ${fx.pointsProgramId}`);
    const customerId = fx.customerIds[40]!;
    const { proof } = await submitProof(
      deps,
      { label: 'app', audit: { id: null, email: 'app' }, channel: 'app' },
      { customerId, programId: fx.pointsProgramId, kind: 'share', url: 'https://instagram.com/p/xyz' },
    );
    const results = await Promise.all(Array.from({ length: 20 }, () => decideProofs(deps, caller, { ids: [proof.id], decision: 'approve' })));
    const outcomes = results.map((r) => r.items[0]!.outcome);
    expect(outcomes.filter((o) => o === 'decided')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'already_decided')).toHaveLength(19);
    const [entries] = await rows<{ n: number; points: number }>(
      sql`select count(*)::int as n, coalesce(sum(points), 0)::int as points from ledger_entries where customer_id = ${customerId} and source = 'social'`,
    );
    expect(entries).toEqual({ n: 1, points: 25 });
    expect(await verifyLedger(handle.db)).toEqual([]);
  });
});

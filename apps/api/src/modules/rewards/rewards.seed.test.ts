import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture } from '../../../test/ledger-fixtures.ts';
import { createEntry } from '../ledger/ledger.service.ts';
import { verifyLedger } from '../ledger/ledger.verify.ts';
import { seedRewardsDemo } from './rewards.seed.ts';

describe('the demo rewards', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext({ seed: false });
  });
  afterAll(async () => ctx?.close());

  it('loads rewards, waiting codes, redemptions and a queue of pending proofs once, and ledger:verify passes', async () => {
    const fx = await createLedgerFixture(ctx.app.db, { customers: 8 });
    const now = new Date('2026-11-20T10:00:00Z');
    // The members bought months ago: the seed dates its redemptions in the past, after their last movement.
    const bought = new Date('2026-05-20T10:00:00Z');
    const deps = { db: ctx.app.db, clock: { now: () => bought }, timeZone: 'Europe/Rome' };
    const actor = { id: null, label: 'test', audit: { id: null, email: 'test' } };
    for (const customerId of fx.customerIds.slice(0, 4)) {
      await createEntry(deps, actor, { customerId, programId: fx.pointsProgramId, kind: 'purchase', amountCents: 100_000 }, randomUUID());
    }
    expect(await seedRewardsDemo(ctx.app.db, { now, timeZone: 'Europe/Rome' })).toBe(5);
    const count = async (query: ReturnType<typeof sql>) => ((await ctx.app.db.execute(query)) as unknown as { rows: { n: number }[] }).rows[0]!.n;
    expect(await count(sql`select count(*)::int as n from vouchers where status = 'available'`)).toBeGreaterThan(0);
    expect(await count(sql`select count(*)::int as n from vouchers where status = 'issued'`)).toBeGreaterThan(0);
    expect(await count(sql`select count(*)::int as n from ledger_entries where source = 'reward' and (created_at <= ${bought} or created_at >= ${now})`)).toBe(0);
    // Their audit records carry the same past times (the dashboard's "Ultime modifiche" showed them as today's).
    expect(await count(sql`select count(*)::int as n from audit_log where action = 'reward.redeem'`)).toBeGreaterThan(0);
    expect(await count(sql`select count(*)::int as n from audit_log where action = 'reward.redeem' and (at <= ${bought} or at >= ${now})`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from social_proofs where status = 'pending'`)).toBe(12);
    expect(await verifyLedger(ctx.app.db)).toEqual([]);
    expect(await seedRewardsDemo(ctx.app.db, { now, timeZone: 'Europe/Rome' })).toBe(0);
  });
});

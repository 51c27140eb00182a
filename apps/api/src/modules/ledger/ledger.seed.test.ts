import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture } from '../../../test/ledger-fixtures.ts';
import { seedLedgerDemo } from './ledger.seed.ts';
import { createEntry } from './ledger.service.ts';
import { verifyLedger } from './ledger.verify.ts';

describe('the demo ledger', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext({ seed: false });
  });
  afterAll(async () => ctx?.close());

  it('writes every kind of entry over 18 months, passes ledger:verify, and leaves the service working on top', async () => {
    const fx = await createLedgerFixture(ctx.app.db, { customers: 60, expiry: { policy: 'afterDays', days: 120 }, tiers: [{ name: 'Base', minPoints: 0, multiplier: 1 }, { name: 'Oro', minPoints: 300, multiplier: 2 }] });
    const now = new Date('2026-11-20T10:00:00Z');
    const written = await seedLedgerDemo(ctx.app.db, { now, targetEntries: 1500 });
    expect(written).toBeGreaterThan(1000);
    expect(written).toBeLessThan(2500);
    const kinds = ((await ctx.app.db.execute(
      sql`select kind, count(*)::int as n, min(created_at) as first from ledger_entries group by kind order by kind`,
    )) as unknown as { rows: { kind: string; n: number; first: string }[] }).rows;
    expect(kinds.map((row) => row.kind)).toEqual(['adjust', 'earn', 'expire', 'redeem', 'reversal']);
    const first = Math.min(...kinds.map((row) => new Date(row.first).getTime()));
    expect(now.getTime() - first).toBeGreaterThan(15 * 30 * 86_400_000);
    expect(await verifyLedger(ctx.app.db)).toEqual([]);
    // Sequences were moved past the demo's explicit ids: the service adds entries normally.
    const answer = await createEntry(
      { db: ctx.app.db, clock: { now: () => now }, timeZone: 'Europe/Rome' },
      { id: null, label: 'test', audit: { id: null, email: 'test' } },
      { customerId: fx.customerIds[0]!, programId: fx.pointsProgramId, kind: 'purchase', amountCents: 1000 },
      randomUUID(),
    );
    expect((answer.body as { entry: { id: number } }).entry.id).toBe(written + 1);
    expect(await verifyLedger(ctx.app.db)).toEqual([]);
    expect(await seedLedgerDemo(ctx.app.db, { now })).toBe(0);
  });
});

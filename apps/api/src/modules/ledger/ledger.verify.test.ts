import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture, type LedgerFixture } from '../../../test/ledger-fixtures.ts';
import { createEntry, type LedgerCaller, type LedgerDeps } from './ledger.service.ts';
import { runLedgerVerify } from './ledger.verify.ts';

describe('ledger:verify', () => {
  let ctx: TestContext;
  let fx: LedgerFixture;
  let deps: LedgerDeps;
  const caller: LedgerCaller = { id: null, label: 'verify-test', audit: { id: null, email: 'verify-test' } };

  beforeAll(async () => {
    ctx = await createTestContext({ seed: false });
    fx = await createLedgerFixture(ctx.app.db, { customers: 2, expiry: { policy: 'endOfYear' } });
    deps = { db: ctx.app.db, clock: ctx.app.clock, timeZone: 'Europe/Rome' };
    for (const customerId of fx.customerIds) {
      await createEntry(deps, caller, { customerId, programId: fx.pointsProgramId, kind: 'purchase', amountCents: 4200 }, randomUUID());
      await createEntry(deps, caller, { customerId, programId: fx.pointsProgramId, kind: 'redeem', points: 10 }, randomUUID());
      await createEntry(deps, caller, { customerId, programId: fx.stampsProgramId, kind: 'purchase', amountCents: 150 }, randomUUID());
    }
  });
  afterAll(async () => ctx?.close());

  it('exits 0 and says so when every balance equals its entries', async () => {
    const lines: string[] = [];
    expect(await runLedgerVerify(ctx.app.db, (line) => lines.push(line))).toBe(0);
    expect(lines[0]).toMatch(/^ledger:verify OK: 4 memberships, 6 entries/);
  });

  it('exits 1 and names the membership when a stored balance or stamps count drifts from its entries', async () => {
    const [membership] = ((await ctx.app.db.execute(
      sql`select id from memberships where customer_id = ${fx.customerIds[0]} and program_id = ${fx.pointsProgramId}`,
    )) as unknown as { rows: { id: string }[] }).rows;
    // Memberships are not append-only: a bug (or a hand edit) could do this.
    await ctx.app.db.execute(sql`update memberships set balance = balance + 5 where id = ${membership!.id}`);
    const lines: string[] = [];
    expect(await runLedgerVerify(ctx.app.db, (line) => lines.push(line))).toBe(1);
    expect(lines[0]).toMatch(/^ledger:verify FAILED/);
    expect(lines.join('\n')).toContain(`membership ${membership!.id}: stored balance 37 / stamps 0, entries sum to 32 / 0`);
    expect(lines.join('\n')).toContain(`membership ${membership!.id}: balance 37 but its FIFO lots hold 32`);
    await ctx.app.db.execute(sql`update memberships set balance = balance - 5 where id = ${membership!.id}`);

    await ctx.app.db.execute(sql`update memberships set stamps = 7 where customer_id = ${fx.customerIds[1]} and program_id = ${fx.stampsProgramId}`);
    const again: string[] = [];
    expect(await runLedgerVerify(ctx.app.db, (line) => again.push(line))).toBe(1);
    expect(again.join('\n')).toMatch(/stored balance 0 \/ stamps 7, entries sum to 0 \/ 1/);
  });

  it('exits 1 and names the membership when its day sums drift from its entries, and passes again once rebuilt', async () => {
    const [membership] = ((await ctx.app.db.execute(
      sql`select id from memberships where customer_id = ${fx.customerIds[0]} and program_id = ${fx.pointsProgramId}`,
    )) as unknown as { rows: { id: string }[] }).rows;
    // The purchase wrote its points into the member's day row (the trigger of migration 0015).
    const days = (await ctx.app.db.execute(
      sql`select earned_points::int as earned from ledger_member_days where membership_id = ${membership!.id}`,
    )) as unknown as { rows: { earned: number }[] };
    expect(days.rows).toEqual([{ earned: 42 }]);
    await ctx.app.db.execute(sql`update ledger_member_days set earned_points = earned_points + 1 where membership_id = ${membership!.id}`);
    const lines: string[] = [];
    expect(await runLedgerVerify(ctx.app.db, (line) => lines.push(line))).toBe(1);
    expect(lines.join('\n')).toMatch(new RegExp(`membership ${membership!.id}: its day sums for \\d{4}-\\d{2}-\\d{2} differ from its entries`));
    await ctx.app.db.execute(sql`select ledger_member_days_rebuild()`);
    // (The test above left a stamps count drifted on purpose; only the day sums are checked here.)
    const after: string[] = [];
    await runLedgerVerify(ctx.app.db, (line) => after.push(line));
    expect(after.join('\n')).not.toContain('day sums');
  });
});

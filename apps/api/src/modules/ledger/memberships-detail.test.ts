import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture } from '../../../test/ledger-fixtures.ts';

describe("the customer page's memberships: points expiring within 30 days and tier changes", () => {
  let ctx: TestContext;
  let now = new Date('2027-05-01T09:00:00Z');

  beforeAll(async () => {
    ctx = await createTestContext({ clock: { now: () => now } });
  });
  afterAll(async () => ctx?.close());

  it('sums the points expiring in the next 30 days and lists each tier change, newest first', async () => {
    // A session lives 10 days on the app's clock: a fresh one for each jump of the fake clock.
    const token = () => ctx.tokenFor('admin@demo.test');
    const fx = await createLedgerFixture(ctx.app.db, {
      customers: 1,
      expiry: { policy: 'afterDays', days: 20 },
      tiers: [
        { name: 'Argento', minPoints: 20, multiplier: 1 },
        { name: 'Oro', minPoints: 60, multiplier: 1 },
      ],
    });
    const buy = async (amountCents: number) =>
      ctx.request({
        method: 'POST',
        url: '/api/admin/ledger',
        token: await token(),
        headers: { 'idempotency-key': randomUUID() },
        payload: { customerId: fx.customerIds[0], programId: fx.pointsProgramId, kind: 'purchase', amountCents },
      });
    expect((await buy(2500)).statusCode).toBe(201);
    now = new Date('2027-05-20T09:00:00Z');
    expect((await buy(4000)).statusCode).toBe(201);
    now = new Date('2027-05-25T09:00:00Z');
    const response = await ctx.request({ method: 'GET', url: `/api/admin/customers/${fx.customerIds[0]}/memberships`, token: await token() });
    expect(response.statusCode).toBe(200);
    const points = (response.json().items as { programId: string; expiringSoon: number; tierChanges: { from: string | null; to: string | null }[] }[]).find(
      (item) => item.programId === fx.pointsProgramId,
    )!;
    expect(points.tierChanges.map(({ from, to }) => ({ from, to }))).toEqual([
      { from: 'Argento', to: 'Oro' },
      { from: null, to: 'Argento' },
    ]);
    // The lot of 21 May is past (the expiry job has not run); only the 40 points due on 9 June count.
    expect(points.expiringSoon).toBe(40);
  });
});

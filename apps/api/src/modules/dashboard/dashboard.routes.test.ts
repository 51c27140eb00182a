import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dashboard } from '@sf/contract/dashboard';
import type { NewsPost } from '@sf/contract/news';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture } from '../../../test/ledger-fixtures.ts';

const HOUR = 3_600_000;

describe('dashboard routes', () => {
  let ctx: TestContext;
  let admin: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await ctx.tokenFor('admin@demo.test');
  });
  afterAll(() => ctx.close());

  const dashboard = async () => {
    const response = await ctx.request({ method: 'GET', url: '/api/admin/dashboard', token: admin });
    expect(response.statusCode).toBe(200);
    return response.json() as Dashboard;
  };

  it('counts the posts by status as the admin list does', async () => {
    const figures = await dashboard();
    // The demo data: 5 published, 3 scheduled, 3 drafts, 2 archived.
    expect(figures.postsByStatus).toEqual({ draft: 3, scheduled: 3, published: 5, archived: 2 });
    for (const status of ['draft', 'scheduled', 'published', 'archived'] as const) {
      const list = await ctx.request({ method: 'GET', url: `/api/admin/news?status=${status}`, token: admin });
      expect(list.json().total).toBe(figures.postsByStatus[status]);
    }
  });

  it('shows the next five scheduled posts, soonest first', async () => {
    for (let index = 0; index < 4; index += 1) {
      await ctx.request({
        method: 'POST',
        url: '/api/admin/news',
        payload: { title: `Prossimo ${index}`, status: 'scheduled', publishAt: new Date(Date.now() + (index + 1) * HOUR).toISOString() },
        token: admin,
      });
    }
    const { nextScheduled, postsByStatus } = await dashboard();
    expect(postsByStatus.scheduled).toBe(7);
    expect(nextScheduled.map((post) => post.title)).toEqual(['Prossimo 0', 'Prossimo 1', 'Prossimo 2', 'Prossimo 3', 'Saldi di fine anno']);
    expect(Object.keys(nextScheduled[0] ?? {}).sort()).toEqual(['author', 'id', 'publishAt', 'title']);
  });

  it('shows the ten latest changes, newest first, without their before/after', async () => {
    const created: NewsPost[] = [];
    for (let index = 0; index < 11; index += 1) {
      created.push((await ctx.request({ method: 'POST', url: '/api/admin/news', payload: { title: `Modifica ${index}` }, token: admin })).json());
    }
    const { latestChanges } = await dashboard();
    expect(latestChanges).toHaveLength(10);
    expect(latestChanges.map((entry) => entry.entityId)).toEqual(created.slice(1).reverse().map((post) => String(post.id)));
    expect(latestChanges[0]).not.toHaveProperty('before');
    expect(latestChanges[0]).not.toHaveProperty('after');
    expect(latestChanges[0]).toMatchObject({ action: 'news.create', actorEmail: 'admin@demo.test' });
    // Each names its record, as the audit list does: the post by its title.
    expect(latestChanges[0]).toMatchObject({ record: { name: 'Modifica 10', isErased: false } });
  });

  it('is for admins only', async () => {
    const editor = await ctx.tokenFor('editor@demo.test');
    expect((await ctx.request({ method: 'GET', url: '/api/admin/dashboard', token: editor })).statusCode).toBe(403);
  });
});

describe('dashboard loyalty figures', () => {
  let ctx: TestContext;
  let admin: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await ctx.tokenFor('admin@demo.test');
  });
  afterAll(() => ctx.close());

  it('counts customers, active merchants and points issued, redeemed and outstanding', async () => {
    const read = async () => (await ctx.request({ method: 'GET', url: '/api/admin/dashboard', token: admin })).json() as Dashboard;
    const before = (await read()).loyalty;
    const fx = await createLedgerFixture(ctx.app.db, { customers: 2 });
    const send = (payload: object) =>
      ctx.request({ method: 'POST', url: '/api/admin/ledger', token: admin, payload, headers: { 'idempotency-key': randomUUID() } });
    await send({ customerId: fx.customerIds[0], programId: fx.pointsProgramId, kind: 'purchase', amountCents: 5000 });
    await send({ customerId: fx.customerIds[1], programId: fx.pointsProgramId, kind: 'purchase', amountCents: 2000 });
    const redeem = (await send({ customerId: fx.customerIds[0], programId: fx.pointsProgramId, kind: 'redeem', points: 30 })).json();
    const second = (await send({ customerId: fx.customerIds[0], programId: fx.pointsProgramId, kind: 'redeem', points: 5 })).json();
    await ctx.request({
      method: 'POST',
      url: `/api/admin/ledger/${second.entry.id}/reversal`,
      token: admin,
      payload: { reason: 'Errore di cassa' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(redeem.membership.balance).toBe(20);
    const after = (await read()).loyalty;
    expect(after).toEqual({
      customersTotal: before.customersTotal + 2,
      customersNew: before.customersNew + 2,
      activeMerchants: before.activeMerchants + 1,
      pointsIssued: before.pointsIssued + 70,
      // Both redemptions were made; the second's reversal gives its 5 points back to the balance.
      pointsRedeemed: before.pointsRedeemed + 35,
      pointsOutstanding: before.pointsOutstanding + 40,
      periodDays: 30,
    });
  });
});

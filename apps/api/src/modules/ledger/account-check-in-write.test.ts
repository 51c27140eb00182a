import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.ts';
import { revokeSession } from '../../identity/sessions.ts';
import { createTestContext, testDatabaseKind, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture, type LedgerFixture } from '../../../test/ledger-fixtures.ts';
import { writeGroupsOf } from './ledger.service.ts';
import { depsOf } from '../../lib/caller.ts';

const sessionOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid as string;

/**
 * `POST /api/admin/ledger` reads the caller's account in the write's own first batch (decision 028)
 * instead of in a query of its own before it. The guard must decide exactly as before: a live admin
 * writes; an ended sign-in, a disabled account, a password reset since the token or a role without
 * the permission is refused with the guard's 401 or 403, whatever else is wrong with the request, and
 * nothing of the refused request stays.
 */
describe('the account check inside a ledger write', () => {
  let ctx: TestContext;
  let fx: LedgerFixture;
  let admin: string;
  /** A second admin account: disabled, reset or demoted by the tests that need it. */
  let other: { email: string; id: string };

  beforeAll(async () => {
    ctx = await createTestContext({
      extend: (app) => {
        // A route that opts in and forgets to run the check: it must not answer 200.
        app.post('/api/admin/forgets-its-check', { config: { permission: 'ledger:write', accountCheckInWrite: true } }, async () => ({ ok: true }));
      },
    });
    fx = await createLedgerFixture(ctx.app.db, { customers: 60 });
    admin = await ctx.tokenFor('admin@demo.test');
    other = { email: `second-admin-${randomUUID()}@demo.test`, id: randomUUID() };
    const [seeded] = await ctx.app.db.select().from(users).where(eq(users.email, 'admin@demo.test'));
    await ctx.app.db.insert(users).values({ ...seeded!, id: other.id, email: other.email });
  });
  afterAll(async () => ctx?.close());

  const purchase = (token: string, customer: number, options: { key?: string; body?: object; headers?: Record<string, string> } = {}) =>
    ctx.request({
      method: 'POST',
      url: '/api/admin/ledger',
      token,
      payload: options.body ?? { customerId: fx.customerIds[customer]!, programId: fx.pointsProgramId, kind: 'purchase', amountCents: 1000 },
      headers: { 'idempotency-key': options.key ?? randomUUID(), 'accept-language': 'en', ...options.headers },
    });
  const entriesOf = async (customer: number) => {
    const result = await ctx.app.db.execute(sql`select count(*)::int as n from ledger_entries where customer_id = ${fx.customerIds[customer]!}`);
    return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
  };
  const storedAnswers = async (key: string) => {
    const result = await ctx.app.db.execute(sql`select count(*)::int as n from idempotency_records where key = ${key}`);
    return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
  };

  it('writes as the account read in the write, without a read of its own before it', async () => {
    const before = { ...ctx.app.identity.accountCheckStats! };
    const answer = await purchase(admin, 0);
    expect(answer.statusCode).toBe(201);
    expect(answer.json().entry.createdByLabel).toBe('admin@demo.test');
    expect(ctx.app.identity.accountCheckStats!.requests - before.requests).toBe(0);
    // Any other guarded route still reads the account on its own.
    expect((await ctx.request({ method: 'GET', url: '/api/admin/ledger', token: admin })).statusCode).toBe(200);
    expect(ctx.app.identity.accountCheckStats!.requests - before.requests).toBe(1);
  });

  it('refuses an ended sign-in, a disabled account, a password reset since the token and a role without the permission; nothing stays', async () => {
    const ended = await ctx.tokenFor('admin@demo.test');
    await revokeSession(ctx.app.db, sessionOf(ended), ctx.app.clock.now(), 'logout');
    const disabled = await ctx.tokenFor(other.email);
    await ctx.app.db.update(users).set({ status: 'disabled' }).where(eq(users.id, other.id));
    const refusals = [
      { token: ended, status: 401, code: 'invalid_token' },
      { token: disabled, status: 401, code: 'invalid_token' },
      { token: await ctx.tokenFor('editor@demo.test'), status: 403, code: 'forbidden' },
    ];
    for (const [index, { token, status, code }] of refusals.entries()) {
      const key = randomUUID();
      const answer = await purchase(token, 1 + index, { key });
      expect([answer.statusCode, answer.json().error.code]).toEqual([status, code]);
      expect(await entriesOf(1 + index)).toBe(0);
      expect(await storedAnswers(key)).toBe(0);
    }
    await ctx.app.db.update(users).set({ status: 'active' }).where(eq(users.id, other.id));

    const reset = await ctx.tokenFor(other.email, { now: new Date(Date.now() - 60_000) });
    await ctx.app.db.update(users).set({ passwordChangedAt: new Date() }).where(eq(users.id, other.id));
    const answer = await purchase(reset, 4);
    expect([answer.statusCode, answer.json().error.code]).toEqual([401, 'invalid_token']);
    expect(await entriesOf(4)).toBe(0);

    const demoted = await ctx.tokenFor(other.email);
    await ctx.app.db.update(users).set({ role: 'editor' }).where(eq(users.id, other.id));
    expect((await purchase(demoted, 5)).statusCode).toBe(403);
    expect(await entriesOf(5)).toBe(0);
    await ctx.app.db.update(users).set({ role: 'admin' }).where(eq(users.id, other.id));
    expect((await purchase(demoted, 5)).statusCode).toBe(201);
  });

  it("answers the guard's 401 or 403 before the route's own error: a field, the forgery check, a stored answer", async () => {
    const ended = await ctx.tokenFor('admin@demo.test');
    const key = randomUUID();
    expect((await purchase(ended, 6, { key })).statusCode).toBe(201);
    await revokeSession(ctx.app.db, sessionOf(ended), ctx.app.clock.now(), 'logout');
    const editor = await ctx.tokenFor('editor@demo.test');
    const invalidBody = { customerId: fx.customerIds[7]!, programId: fx.pointsProgramId, kind: 'purchase', amountCents: -5 };

    // The admin's own mistakes still get their own answers.
    expect((await purchase(admin, 7, { body: invalidBody })).json().error.code).toBe('validation');
    expect((await purchase(admin, 7, { headers: { 'x-xsrf-token': 'forged' } })).json().error.code).toBe('csrf');

    const cases = [
      { name: 'ended sign-in, invalid field', answer: () => purchase(ended, 7, { body: invalidBody }), code: 'invalid_token' },
      { name: 'ended sign-in, forged token', answer: () => purchase(ended, 7, { headers: { 'x-xsrf-token': 'forged' } }), code: 'invalid_token' },
      { name: 'ended sign-in, stored answer', answer: () => purchase(ended, 6, { key }), code: 'invalid_token' },
      { name: 'editor, invalid field', answer: () => purchase(editor, 7, { body: invalidBody }), code: 'forbidden' },
      { name: 'editor, forged token', answer: () => purchase(editor, 7, { headers: { 'x-xsrf-token': 'forged' } }), code: 'forbidden' },
    ];
    for (const { name, answer, code } of cases) {
      const { statusCode, json } = await answer();
      expect([name, statusCode, json().error.code]).toEqual([name, code === 'forbidden' ? 403 : 401, code]);
    }
    expect(await entriesOf(7)).toBe(0);
  });

  it('gives every request of a shared write transaction its own answer', async () => {
    const ended = await ctx.tokenFor('admin@demo.test');
    await revokeSession(ctx.app.db, sessionOf(ended), ctx.app.clock.now(), 'logout');
    const editor = await ctx.tokenFor('editor@demo.test');
    const tokens = [admin, ended, editor, admin];
    const expected = [201, 401, 403, 201];
    const groups = writeGroupsOf(depsOf(ctx.app));
    const before = { ...groups?.stats };
    const customers = Array.from({ length: 48 }, (_, index) => 10 + index);
    const answers = await Promise.all(customers.map((customer, index) => purchase(tokens[index % 4]!, customer)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(customers.map((_, index) => expected[index % 4]));
    for (const [index, customer] of customers.entries()) expect(await entriesOf(customer)).toBe(expected[index % 4] === 201 ? 1 : 0);
    // On a real PostgreSQL the requests really shared transactions (PGlite runs each alone, in process).
    if (testDatabaseKind === 'postgres') {
      expect(groups!.stats.groups - before.groups!).toBeLessThan(48);
      expect(groups!.stats.largestGroup).toBeGreaterThan(1);
    }
  });

  it('does not let a route that opted in answer without running the check', async () => {
    const ended = await ctx.tokenFor('admin@demo.test');
    await revokeSession(ctx.app.db, sessionOf(ended), ctx.app.clock.now(), 'logout');
    const forgot = (token: string) => ctx.request({ method: 'POST', url: '/api/admin/forgets-its-check', token, payload: {} });
    expect((await forgot(admin)).statusCode).toBe(500);
    expect((await forgot(ended)).statusCode).toBe(401);
  });
});

import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.ts';
import { revokeSession } from '../../identity/sessions.ts';
import { createTestContext, testDatabaseKind, type TestContext } from '../../../test/helper.ts';

/**
 * The guard's per-request read of the account, grouped under load (decision 027): requests checked in
 * one query must each get their own answer — a live session passes, an ended session, a disabled
 * account or an unknown account is refused — exactly as when checked one by one.
 */
describe('the account check under concurrent requests', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => ctx.close());

  it('gives every request of a group its own answer', async () => {
    const admin = await ctx.tokenFor('admin@demo.test');
    const secondAdminSession = await ctx.tokenFor('admin@demo.test');
    const editor = await ctx.tokenFor('editor@demo.test');
    const ended = await ctx.tokenFor('admin@demo.test');
    const endedSid = JSON.parse(Buffer.from(ended.split('.')[1]!, 'base64url').toString()).sid as string;
    await revokeSession(ctx.app.db, endedSid, ctx.app.clock.now(), 'logout');
    const disabledToken = await ctx.tokenFor('member@demo.test');
    await ctx.app.db.update(users).set({ status: 'disabled' }).where(eq(users.email, 'member@demo.test'));
    const unknown = await ctx.app.tokenSigner.sign({ sub: randomUUID(), email: 'ghost@demo.test', name: 'Ghost', role: 'admin', sid: randomUUID() });

    const cases = [
      { token: admin, status: 200 },
      { token: secondAdminSession, status: 200 },
      { token: editor, status: 200 },
      { token: ended, status: 401 },
      { token: disabledToken, status: 401 },
      { token: unknown, status: 401 },
    ];
    const before = { ...ctx.app.identity.accountCheckStats! };
    const sent = Array.from({ length: 60 }, (_, index) => cases[index % cases.length]!);
    const answers = await Promise.all(sent.map(({ token }) => ctx.request({ method: 'GET', url: '/api/admin/news', token })));
    expect(answers.map((answer) => answer.statusCode)).toEqual(sent.map(({ status }) => status));
    const stats = ctx.app.identity.accountCheckStats!;
    expect(stats.requests - before.requests).toBe(60);
    // On a real PostgreSQL the checks really shared queries: fewer reads than requests. (PGlite answers
    // in process, each check before the next arrives: there the answers above are the one-by-one path.)
    if (testDatabaseKind === 'postgres') {
      expect(stats.groups - before.groups).toBeLessThan(60);
      expect(stats.largestGroup).toBeGreaterThan(1);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { DEMO_PASSWORD } from '../../db/seed.ts';
import { auditLog, users } from '../../db/schema.ts';

describe('staff administration', () => {
  let ctx: TestContext;
  let adminToken: string;
  const idOf = async (email: string) => (await ctx.app.db.select().from(users).where(eq(users.email, email)))[0]!.id;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { AUTH_RATE_LIMIT: '1000' } });
    adminToken = await ctx.tokenFor('admin@demo.test');
    await ctx.request({
      method: 'POST',
      url: '/api/auth',
      payload: { email: 'new.hire@example.test', password: 'Tiramisu-della-nonna-3', firstName: 'Nuovo', lastName: 'Arrivo', acceptTerms: true },
    });
    // Its owner confirmed the address (the link itself is tested in register.routes.test.ts).
    await ctx.app.db.update(users).set({ emailConfirmedAt: new Date() }).where(eq(users.email, 'new.hire@example.test'));
  });
  afterAll(() => ctx.close());

  it('lists accounts with paging and filters, the ones waiting for a role included', async () => {
    const all = await ctx.request({ method: 'GET', url: '/api/admin/staff?pageSize=2', token: adminToken });
    expect(all.statusCode).toBe(200);
    expect(all.json()).toMatchObject({ total: 4, page: 1, pageSize: 2 });
    expect(all.json().items.map((a: { email: string }) => a.email)).toEqual(['admin@demo.test', 'editor@demo.test']);
    const waiting = await ctx.request({ method: 'GET', url: '/api/admin/staff?role=none', token: adminToken });
    expect(waiting.json().items).toEqual([
      expect.objectContaining({ email: 'new.hire@example.test', displayName: 'Nuovo Arrivo', role: null, status: 'active' }),
    ]);
    const search = await ctx.request({ method: 'GET', url: '/api/admin/staff?q=BIANCHI', token: adminToken });
    expect(search.json().items.map((a: { email: string }) => a.email)).toEqual(['editor@demo.test']);
    const literal = await ctx.request({ method: 'GET', url: '/api/admin/staff?q=%25', token: adminToken });
    expect(literal.json().total).toBe(0);
  });

  it('approves a self-registered account by granting a role, with an audit record', async () => {
    const id = await idOf('new.hire@example.test');
    const response = await ctx.request({ method: 'PATCH', url: `/api/admin/staff/${id}`, token: adminToken, payload: { role: 'editor' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ uid: id, role: 'editor', status: 'active' });
    const [audit] = await ctx.app.db.select().from(auditLog).where(eq(auditLog.action, 'staff.grant_role'));
    expect(audit).toMatchObject({ actorEmail: 'admin@demo.test', entityId: id, before: { role: null }, after: { role: 'editor' } });
  });

  it('disables an account, ending its sessions at once', async () => {
    const login = await ctx.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'editor@demo.test', password: DEMO_PASSWORD },
    });
    const { idToken, refreshToken } = login.json();
    const id = await idOf('editor@demo.test');
    const response = await ctx.request({ method: 'PATCH', url: `/api/admin/staff/${id}`, token: adminToken, payload: { status: 'disabled' } });
    expect(response.json().status).toBe('disabled');
    expect((await ctx.request({ method: 'GET', url: '/api/admin/me', token: idToken })).statusCode).toBe(401);
    const refreshed = await ctx.request({
      method: 'POST',
      url: '/api/auth/token',
      payload: { grant_type: 'refresh_token', refresh_token: refreshToken },
    });
    expect(refreshed.json().error.code).toBe('invalid_grant');
  });

  it('refuses changing one’s own account, an unknown id, an empty change, and non-admins', async () => {
    const self = await ctx.request({
      method: 'PATCH',
      url: `/api/admin/staff/${await idOf('admin@demo.test')}`,
      token: adminToken,
      payload: { role: 'member' },
    });
    expect(self.statusCode).toBe(409);
    const unknown = await ctx.request({
      method: 'PATCH',
      url: '/api/admin/staff/00000000-0000-4000-8000-000000000000',
      token: adminToken,
      payload: { role: 'editor' },
      headers: { 'accept-language': 'en' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('The requested User is not found');
    const empty = await ctx.request({ method: 'PATCH', url: `/api/admin/staff/${await idOf('member@demo.test')}`, token: adminToken, payload: {} });
    expect(empty.statusCode).toBe(400);
    const badId = await ctx.request({ method: 'PATCH', url: '/api/admin/staff/42', token: adminToken, payload: { role: 'editor' } });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().error.fields[0].field).toBe('id');
    const editorToken = await ctx.tokenFor('new.hire@example.test');
    expect((await ctx.request({ method: 'GET', url: '/api/admin/staff', token: editorToken })).statusCode).toBe(403);
  });
});

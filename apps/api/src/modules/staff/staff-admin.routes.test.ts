import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { DEMO_PASSWORD } from '../../db/seed.ts';
import { auditLog, users } from '../../db/schema.ts';
import { changeAccount, keepAnActiveAdmin } from '../../identity/account-admin.ts';
import { findAccountByEmail } from '../../identity/accounts.ts';
import { SYSTEM_ACTOR } from '../../lib/audit.ts';

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

  it('lists the accounts waiting for approval first, then everyone, with paging, filters and sorts', async () => {
    const all = await ctx.request({ method: 'GET', url: '/api/admin/staff?pageSize=2', token: adminToken });
    expect(all.statusCode).toBe(200);
    expect(all.json()).toMatchObject({ total: 4, page: 1, pageSize: 2 });
    expect(all.json().items.map((a: { email: string }) => a.email)).toEqual(['new.hire@example.test', 'admin@demo.test']);
    const page2 = await ctx.request({ method: 'GET', url: '/api/admin/staff?pageSize=2&page=2', token: adminToken });
    expect(page2.json().items.map((a: { email: string }) => a.email)).toEqual(['editor@demo.test', 'member@demo.test']);
    const byEmail = await ctx.request({ method: 'GET', url: '/api/admin/staff?sort=email&order=desc', token: adminToken });
    expect(byEmail.json().items.map((a: { email: string }) => a.email)).toEqual([
      'new.hire@example.test',
      'member@demo.test',
      'editor@demo.test',
      'admin@demo.test',
    ]);
    const admins = await ctx.request({ method: 'GET', url: '/api/admin/staff?role=admin&status=active', token: adminToken });
    expect(admins.json().items.map((a: { email: string }) => a.email)).toEqual(['admin@demo.test']);
    const disabled = await ctx.request({ method: 'GET', url: '/api/admin/staff?status=disabled', token: adminToken });
    expect(disabled.json().total).toBe(0);
    const badSort = await ctx.request({ method: 'GET', url: '/api/admin/staff?sort=password', token: adminToken });
    expect(badSort.statusCode).toBe(400);
    expect(badSort.json().error.fields[0].field).toBe('sort');
    const waiting = await ctx.request({ method: 'GET', url: '/api/admin/staff?role=none', token: adminToken });
    expect(waiting.json().items).toEqual([
      expect.objectContaining({ email: 'new.hire@example.test', displayName: 'Nuovo Arrivo', role: null, status: 'active' }),
    ]);
    const search = await ctx.request({ method: 'GET', url: '/api/admin/staff?q=BIANCHI', token: adminToken });
    expect(search.json().items.map((a: { email: string }) => a.email)).toEqual(['editor@demo.test']);
    const literal = await ctx.request({ method: 'GET', url: '/api/admin/staff?q=%25', token: adminToken });
    expect(literal.json().total).toBe(0);
  });

  it('counts the accounts waiting for approval on the dashboard, and exports the list as CSV', async () => {
    const dashboard = await ctx.request({ method: 'GET', url: '/api/admin/dashboard', token: adminToken });
    expect(dashboard.json().pendingStaff).toBe(1);
    const csv = await ctx.request({ method: 'GET', url: '/api/admin/staff/export.csv?role=none', token: adminToken });
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Email;Nome;Ruolo;Stato;Creato il');
    expect(lines.slice(1).map((line) => line.split(';')[0])).toEqual(['new.hire@example.test']);
  });

  it('approves a self-registered account by granting a role, with an audit record', async () => {
    const id = await idOf('new.hire@example.test');
    const response = await ctx.request({ method: 'PATCH', url: `/api/admin/staff/${id}`, token: adminToken, payload: { role: 'editor' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ uid: id, role: 'editor', status: 'active' });
    const [audit] = await ctx.app.db.select().from(auditLog).where(eq(auditLog.action, 'staff.grant_role'));
    expect(audit).toMatchObject({ actorEmail: 'admin@demo.test', entityId: id, before: { role: null }, after: { role: 'editor' } });
    // The approved account signs in and works with its role on its next request.
    const login = await ctx.request({ method: 'POST', url: '/api/auth/login', payload: { email: 'new.hire@example.test', password: 'Tiramisu-della-nonna-3' } });
    expect(login.statusCode).toBe(200);
    expect((await ctx.request({ method: 'GET', url: '/api/admin/news', token: login.json().idToken })).statusCode).toBe(200);
    expect((await ctx.request({ method: 'GET', url: '/api/admin/dashboard', token: adminToken })).json().pendingStaff).toBe(0);
  });

  it('a promoted, demoted or re-enabled account gets its new rights on its next request, with the same token', async () => {
    const token = await ctx.tokenFor('new.hire@example.test');
    const id = await idOf('new.hire@example.test');
    expect((await ctx.request({ method: 'GET', url: '/api/admin/staff', token })).statusCode).toBe(403);
    await ctx.request({ method: 'PATCH', url: `/api/admin/staff/${id}`, token: adminToken, payload: { role: 'admin' } });
    expect((await ctx.request({ method: 'GET', url: '/api/admin/staff', token })).statusCode).toBe(200);
    const demoted = await ctx.request({ method: 'PATCH', url: `/api/admin/staff/${id}`, token: adminToken, payload: { role: 'editor' } });
    expect(demoted.json().role).toBe('editor');
    expect((await ctx.request({ method: 'GET', url: '/api/admin/staff', token })).statusCode).toBe(403);
    expect((await ctx.request({ method: 'GET', url: '/api/admin/news', token })).statusCode).toBe(200);
    await ctx.request({ method: 'PATCH', url: `/api/admin/staff/${id}`, token: adminToken, payload: { role: 'member' } });
    expect((await ctx.request({ method: 'GET', url: '/api/admin/news', token })).statusCode).toBe(403);
    await ctx.request({ method: 'PATCH', url: `/api/admin/staff/${id}`, token: adminToken, payload: { role: 'editor' } });
    const actions = (await ctx.app.db.select().from(auditLog).where(eq(auditLog.entityId, id))).map((entry) => entry.action);
    expect(actions.filter((action) => action === 'staff.grant_role')).toHaveLength(5);
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
    expect(self.json().error).toMatchObject({ code: 'own_account', message: 'Non puoi cambiare il tuo ruolo o il tuo stato: chiedi a un altro amministratore' });
    const selfEn = await ctx.request({
      method: 'PATCH',
      url: `/api/admin/staff/${await idOf('admin@demo.test')}`,
      token: adminToken,
      payload: { status: 'disabled' },
      headers: { 'accept-language': 'en' },
    });
    expect(selfEn.json().error).toMatchObject({ code: 'own_account', message: 'You cannot change your own role or status: ask another administrator' });
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

  it('never leaves the platform without an active admin: the last one cannot be demoted or disabled', async () => {
    const admin = (await findAccountByEmail(ctx.app.db, 'admin@demo.test'))!;
    for (const changes of [{ role: 'editor' as const }, { role: null }, { status: 'disabled' as const }]) {
      const refusal = changeAccount(ctx.app.db, admin, changes, SYSTEM_ACTOR, new Date(), {
        check: (tx) => keepAnActiveAdmin(tx, admin.id, changes, () => new Error('last_admin')),
      });
      await expect(refusal).rejects.toThrow('last_admin');
    }
    expect((await findAccountByEmail(ctx.app.db, 'admin@demo.test'))).toMatchObject({ role: 'admin', status: 'active' });
    // Keeping the role and the status is no demotion.
    await expect(keepAnActiveAdmin(ctx.app.db, admin.id, { role: 'admin' }, () => new Error('last_admin'))).resolves.toBeUndefined();
  });

  it('of two admins demoting each other at once, one succeeds and the other is refused: one active admin is left', async () => {
    const id = await idOf('new.hire@example.test');
    await ctx.request({ method: 'PATCH', url: `/api/admin/staff/${id}`, token: adminToken, payload: { role: 'admin' } });
    const otherToken = await ctx.tokenFor('new.hire@example.test');
    const [first, second] = await Promise.all([
      ctx.request({ method: 'PATCH', url: `/api/admin/staff/${id}`, token: adminToken, payload: { role: 'editor' } }),
      ctx.request({ method: 'PATCH', url: `/api/admin/staff/${await idOf('admin@demo.test')}`, token: otherToken, payload: { role: 'editor' } }),
    ]);
    const outcomes = [first, second].map((response) => (response.statusCode === 200 ? 'ok' : response.json().error.code));
    // The loser is refused either by the guard (already demoted: 403) or by the last-admin rule (409).
    expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(1);
    expect(['forbidden', 'last_admin']).toContain(outcomes.find((outcome) => outcome !== 'ok'));
    const activeAdmins = await ctx.app.db.select().from(users).where(eq(users.role, 'admin'));
    expect(activeAdmins.filter((account) => account.status === 'active')).toHaveLength(1);
    const lastAdmin = activeAdmins[0]!;
    if (lastAdmin.email !== 'admin@demo.test') {
      // Put the demo admin back for any later test.
      await ctx.app.db.update(users).set({ role: 'admin' }).where(eq(users.email, 'admin@demo.test'));
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { staffUserSchema } from '@sf/contract/auth';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { DEMO_PASSWORD } from '../../db/seed.ts';
import { auditLog, sessions, users } from '../../db/schema.ts';

describe('staff self routes', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { AUTH_RATE_LIMIT: '1000' } });
  });
  afterAll(() => ctx.close());

  const signIn = async (email: string, password = DEMO_PASSWORD) => {
    const response = await ctx.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    expect(response.statusCode).toBe(200);
    return response.json() as { idToken: string; refreshToken: string; expiresIn: number; localId: string };
  };

  it('answers user-by-token with the staff member and the seed’s profile (S4)', async () => {
    const { idToken, localId } = await signIn('admin@demo.test');
    const response = await ctx.request({
      method: 'GET',
      url: `/api/admin/user-by-token?token=${encodeURIComponent(idToken)}`,
      headers: { 'content-type': 'application/json' },
      token: idToken,
    });
    expect(response.statusCode).toBe(200);
    const { payload } = response.json();
    expect(staffUserSchema.strict().parse(payload)).toEqual(payload);
    expect(payload).toMatchObject({
      uid: localId,
      email: 'admin@demo.test',
      displayName: 'Giulia Rossi',
      role: 'admin',
      occupation: 'Responsabile programma fedeltà',
      language: 'it',
      communication: { email: true, sms: true, phone: false },
      address: { city: 'Milano' },
    });
  });

  it('accepts the token as a Bearer header too, and refuses a query token that differs from the header’s', async () => {
    const admin = await signIn('admin@demo.test');
    const editor = await signIn('editor@demo.test');
    const bearer = await ctx.request({
      method: 'GET',
      url: '/api/admin/user-by-token',
      headers: { authorization: `Bearer ${editor.idToken}` },
    });
    expect(bearer.json().payload.role).toBe('editor');
    const mismatch = await ctx.request({
      method: 'GET',
      url: `/api/admin/user-by-token?token=${encodeURIComponent(editor.idToken)}`,
      token: admin.idToken,
    });
    expect(mismatch.statusCode).toBe(401);
    expect(mismatch.json().error.code).toBe('invalid_token');
  });

  it('answers 401 without a token and 403 for a member', async () => {
    const none = await ctx.request({ method: 'GET', url: '/api/admin/user-by-token' });
    expect(none.statusCode).toBe(401);
    expect(none.json().error.code).toBe('unauthenticated');
    // A member gets no tokens from the sign-in (S1); a token minted for it is still refused here.
    const memberToken = await ctx.tokenFor('member@demo.test');
    const forbidden = await ctx.request({ method: 'GET', url: '/api/admin/user-by-token', token: memberToken });
    expect(forbidden.statusCode).toBe(403);
  });

  it('updates the own profile, renames the account and audits before and after', async () => {
    const { idToken } = await signIn('editor@demo.test');
    const response = await ctx.request({
      method: 'PATCH',
      url: '/api/admin/me',
      token: idToken,
      payload: { firstName: 'Marco A.', phone: '+39 06 1111 2222', language: 'en', address: { addressLine: 'Via Nuova 1', city: 'Roma', state: 'RM', postCode: '00100' } },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      displayName: 'Marco A. Bianchi',
      // Stored as the customers' and merchants' phones are (decision 012).
      phone: '+390611112222',
      language: 'en',
      occupation: 'Redattore news',
      address: { addressLine: 'Via Nuova 1' },
      role: 'editor',
    });
    const me = await ctx.request({ method: 'GET', url: '/api/admin/me', token: idToken });
    expect(me.json().phone).toBe('+390611112222');
    const [audit] = await ctx.app.db.select().from(auditLog).where(eq(auditLog.action, 'account.update_profile'));
    expect(audit).toMatchObject({ actorEmail: 'editor@demo.test', entityType: 'user' });
    expect((audit?.before as { phone: string }).phone).toBe('+39 06 9876 5432');
    expect((audit?.after as { phone: string }).phone).toBe('+390611112222');
  });

  it('refuses a profile change that breaks a bound or tries to change the role', async () => {
    const { idToken } = await signIn('editor@demo.test');
    const tooLong = await ctx.request({
      method: 'PATCH',
      url: '/api/admin/me',
      token: idToken,
      payload: { phone: '3'.repeat(41) },
      headers: { 'accept-language': 'en' },
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.fields).toEqual([{ field: 'phone', message: 'Phone maximum length is 40' }]);
    const role = await ctx.request({ method: 'PATCH', url: '/api/admin/me', token: idToken, payload: { role: 'admin' } });
    expect(role.statusCode).toBe(400);
    expect(role.json().error.fields[0].field).toBe('role');
  });

  it('refuses an emptied name, a phone that is no number and addresses that are not web links, naming each field', async () => {
    const { idToken } = await signIn('editor@demo.test');
    const bad = {
      firstName: '  ',
      lastName: '',
      phone: 'abc-not-a-phone',
      website: 'not a url',
      socialNetworks: { linkedIn: 'javascript:alert(1)', facebook: '', twitter: '', instagram: 'instagram.com/x y' },
    };
    const italian = await ctx.request({ method: 'PATCH', url: '/api/admin/me', token: idToken, payload: bad });
    expect(italian.statusCode).toBe(400);
    expect(italian.json().error.fields).toEqual([
      { field: 'firstName', message: 'Nome è obbligatorio' },
      { field: 'lastName', message: 'Cognome è obbligatorio' },
      { field: 'phone', message: 'Telefono non è valido' },
      { field: 'website', message: 'Sito web non è valido' },
      { field: 'socialNetworks.linkedIn', message: 'LinkedIn non è valido' },
      { field: 'socialNetworks.instagram', message: 'Instagram non è valido' },
    ]);
    const english = await ctx.request({ method: 'PATCH', url: '/api/admin/me', token: idToken, payload: bad, headers: { 'accept-language': 'en' } });
    expect(english.json().error.fields.map((field: { message: string }) => field.message)).toEqual([
      'First name is required',
      'Last name is required',
      'Phone is not valid',
      'Website is not valid',
      'LinkedIn is not valid',
      'Instagram is not valid',
    ]);
    const me = await ctx.request({ method: 'GET', url: '/api/admin/me', token: idToken });
    // Nothing of the refused change was kept.
    expect(me.json()).toMatchObject({ firstName: 'Marco A.', lastName: 'Bianchi', website: '' });

    // Blank optional fields stay allowed; the social links and the address round-trip.
    const cleared = await ctx.request({
      method: 'PATCH',
      url: '/api/admin/me',
      token: idToken,
      payload: {
        phone: ' ',
        website: '',
        address: { addressLine: 'Via Po 2', city: 'Torino', state: 'TO', postCode: '10123' },
        socialNetworks: { linkedIn: 'https://www.linkedin.com/in/marco', facebook: '', twitter: '', instagram: '' },
      },
    });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toMatchObject({
      phone: '',
      website: '',
      address: { addressLine: 'Via Po 2', city: 'Torino', state: 'TO', postCode: '10123' },
      socialNetworks: { linkedIn: 'https://www.linkedin.com/in/marco', facebook: '' },
    });
  });

  it('changes the own password: the current one must be right, a common one and the current one again are refused', async () => {
    const { idToken } = await signIn('admin@demo.test');
    const wrong = await ctx.request({
      method: 'POST',
      url: '/api/admin/me/password',
      token: idToken,
      payload: { currentPassword: 'not-it-at-all', newPassword: 'Granita-e-brioche-77' },
      headers: { 'accept-language': 'en' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields).toEqual([{ field: 'currentPassword', message: 'Current password is not valid' }]);
    const common = await ctx.request({
      method: 'POST',
      url: '/api/admin/me/password',
      token: idToken,
      payload: { currentPassword: DEMO_PASSWORD, newPassword: 'qwertyuiop' },
    });
    expect(common.statusCode).toBe(400);
    expect(common.json().error.fields[0].field).toBe('newPassword');
    for (const [language, text] of [
      ['it', 'La nuova password deve essere diversa da quella attuale'],
      ['en', 'The new password must be different from the current one'],
    ] as const) {
      const same = await ctx.request({
        method: 'POST',
        url: '/api/admin/me/password',
        token: idToken,
        payload: { currentPassword: DEMO_PASSWORD, newPassword: DEMO_PASSWORD },
        headers: { 'accept-language': language },
      });
      expect(same.statusCode).toBe(400);
      expect(same.json().error.fields).toEqual([{ field: 'newPassword', message: text }]);
    }
    // Refused, not done: the session is still alive.
    expect((await ctx.request({ method: 'GET', url: '/api/admin/me', token: idToken })).statusCode).toBe(200);
  });

  it('ends every session on a password change and answers with a fresh sign-in that works', async () => {
    const other = await signIn('admin@demo.test');
    const current = await signIn('admin@demo.test');
    const response = await ctx.request({
      method: 'POST',
      url: '/api/admin/me/password',
      token: current.idToken,
      payload: { currentPassword: DEMO_PASSWORD, newPassword: 'Granita-e-brioche-77' },
    });
    expect(response.statusCode).toBe(200);
    const fresh = response.json();
    expect(fresh).toEqual({ idToken: expect.any(String), refreshToken: expect.any(String), expiresIn: 3600, localId: current.localId });

    expect((await ctx.request({ method: 'GET', url: '/api/admin/me', token: fresh.idToken })).statusCode).toBe(200);
    expect((await ctx.request({ method: 'GET', url: '/api/admin/me', token: other.idToken })).statusCode).toBe(401);
    for (const refreshToken of [other.refreshToken, current.refreshToken]) {
      const refreshed = await ctx.request({
        method: 'POST',
        url: '/api/auth/token',
        payload: { grant_type: 'refresh_token', refresh_token: refreshToken },
      });
      expect(refreshed.json().error.code).toBe('invalid_grant');
    }
    const refreshed = await ctx.request({
      method: 'POST',
      url: '/api/auth/token',
      payload: { grant_type: 'refresh_token', refresh_token: fresh.refreshToken },
    });
    expect(refreshed.statusCode).toBe(200);
    const [admin] = await ctx.app.db.select().from(users).where(eq(users.email, 'admin@demo.test'));
    const live = await ctx.app.db.select().from(sessions).where(eq(sessions.userId, admin!.id));
    expect(live.filter((session) => session.revokedAt === null)).toHaveLength(1);
    const [audit] = await ctx.app.db.select().from(auditLog).where(eq(auditLog.action, 'account.change_password'));
    expect(audit?.actorEmail).toBe('admin@demo.test');
    expect((await signIn('admin@demo.test', 'Granita-e-brioche-77')).idToken).toBeTruthy();
  });
});

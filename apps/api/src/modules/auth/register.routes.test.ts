import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { DEMO_PASSWORD } from '../../db/seed.ts';
import { auditLog, users } from '../../db/schema.ts';
import { startSmtpCatcher, type SmtpCatcher } from './smtp-catcher.ts';

const registration = (email: string, password = 'Spritz-in-piazza-2026') => ({
  email,
  password,
  firstName: 'Anna',
  lastName: 'Neri',
  acceptTerms: true,
});

describe('registration', () => {
  let ctx: TestContext;
  let smtp: SmtpCatcher;
  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    ctx = await createTestContext({ env: { AUTH_RATE_LIMIT: '1000', SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await ctx.close();
    await smtp.close();
  });

  const register = (payload: unknown, headers: Record<string, string> = {}) =>
    ctx.request({ method: 'POST', url: '/api/auth', payload: payload as Record<string, unknown>, headers });

  it('creates an active account with no role, default profile and an audit record, that may not sign in yet', async () => {
    const response = await register(registration('Anna.Neri@Example.test'), { 'accept-language': 'en-GB,en;q=0.9' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ email: 'anna.neri@example.test' });
    const [account] = await ctx.app.db.select().from(users).where(eq(users.email, 'anna.neri@example.test'));
    expect(account).toMatchObject({ role: null, status: 'active', displayName: 'Anna Neri' });
    expect(account?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(account?.profile).toMatchObject({
      firstName: 'Anna',
      lastName: 'Neri',
      language: 'en',
      timeZone: 'Europe/Rome',
      phone: '',
      communication: { email: false, sms: false, phone: false },
    });
    const [audit] = await ctx.app.db.select().from(auditLog).where(eq(auditLog.action, 'account.register'));
    expect(audit).toMatchObject({ entityId: account?.id, actorEmail: 'anna.neri@example.test' });

    const login = await ctx.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'anna.neri@example.test', password: 'Spritz-in-piazza-2026' },
    });
    // Exactly the answer of a wrong password for a taken address: nothing tells the two apart (S1, B7).
    expect(login.statusCode).toBe(400);
    expect(login.json().error.code).toBe('invalid_credentials');
  });

  it('answers an existing address exactly like a new one, changes nothing, and tells the owner by e-mail', async () => {
    const fresh = await register(registration('someone.new@example.test'));
    const taken = await register(registration('editor@demo.test', 'An-entirely-new-password-1'));
    expect([fresh.statusCode, taken.statusCode]).toEqual([201, 201]);
    expect(Object.keys(taken.json())).toEqual(Object.keys(fresh.json()));
    expect(taken.json()).toEqual({ email: 'editor@demo.test' });
    const mail = await smtp.waitFor((m) => m.to?.[0]?.address === 'editor@demo.test');
    expect(mail.subject).toBe('Tentativo di registrazione con il tuo indirizzo');
    const [editor] = await ctx.app.db.select().from(users).where(eq(users.email, 'editor@demo.test'));
    expect(editor).toMatchObject({ role: 'editor', displayName: 'Marco Bianchi' });
    const login = await ctx.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'editor@demo.test', password: DEMO_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
  });

  it('refuses one of the most common passwords, naming the field in the request’s language', async () => {
    const response = await register(registration('common@example.test', 'iloveyou'));
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual([
      { field: 'password', message: 'Password è troppo comune: scegline una meno prevedibile' },
    ]);
    expect(await ctx.app.db.select().from(users).where(eq(users.email, 'common@example.test'))).toHaveLength(0);
  });

  it('checks the bounds and the terms with the S12 texts', async () => {
    const response = await register(
      { email: 'bad', password: 'short', firstName: '', lastName: 'Neri', acceptTerms: false },
      { 'accept-language': 'en' },
    );
    expect(response.statusCode).toBe(400);
    const fields = Object.fromEntries(
      (response.json().error.fields as { field: string; message: string }[]).map((f) => [f.field, f.message]),
    );
    expect(fields).toMatchObject({
      email: 'Email is not valid',
      password: 'Password minimum length is 8',
      firstName: 'First name is required',
      acceptTerms: 'Accepting terms & conditions are required',
    });
  });

  it('rejects unknown fields', async () => {
    const response = await register({ ...registration('extra@example.test'), role: 'admin' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields[0].field).toBe('role');
  });
});

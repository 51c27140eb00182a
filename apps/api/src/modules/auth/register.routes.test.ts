import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { DEMO_PASSWORD } from '../../db/seed.ts';
import { auditLog, users } from '../../db/schema.ts';
import { startSmtpCatcher, type SmtpCatcher } from '../../../../../tools/test-support/smtp-catcher.ts';
import { nameForMail } from '../../lib/mailer.ts';

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

describe('address confirmation of a self-registered account (B7, issue 6 item 2)', () => {
  let ctx: TestContext;
  let smtp: SmtpCatcher;
  let adminToken: string;
  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    ctx = await createTestContext({ env: { AUTH_RATE_LIMIT: '1000', SMTP_URL: smtp.url } });
    adminToken = await ctx.tokenFor('admin@demo.test');
  });
  afterAll(async () => {
    await ctx.close();
    await smtp.close();
  });

  const register = (payload: unknown) => ctx.request({ method: 'POST', url: '/api/auth', payload: payload as Record<string, unknown> });
  const confirm = (token: string) => ctx.request({ method: 'POST', url: '/api/auth/confirm-email', payload: { token }, headers: { 'accept-language': 'en' } });
  const linkTo = async (address: string, after = 0) => {
    await smtp.waitFor((m) => m.to?.[0]?.address === address && smtp.messages.indexOf(m) >= after);
    const mail = smtp.messages.filter((m) => m.to?.[0]?.address === address).at(-1)!;
    const link = mail.text?.match(/https?:\/\/\S+confirm-email\?token=\S+/)?.[0];
    if (!link) throw new Error(`no confirmation link in: ${mail.text}`);
    return { mail, token: new URL(link).searchParams.get('token')! };
  };
  const waiting = async () =>
    ((await ctx.request({ method: 'GET', url: '/api/admin/staff?role=none', token: adminToken })).json().items as { email: string }[]).map((a) => a.email);

  it('is neither listed as waiting nor approvable until its owner follows the single-use link', async () => {
    expect((await register(registration('colleague@example.test'))).statusCode).toBe(201);
    const { mail, token } = await linkTo('colleague@example.test');
    expect(mail.subject).toBe('Conferma il tuo indirizzo per Social Fidelity');
    const [account] = await ctx.app.db.select().from(users).where(eq(users.email, 'colleague@example.test'));
    expect(account?.emailConfirmedAt).toBeNull();
    expect(await waiting()).not.toContain('colleague@example.test');
    const approve = await ctx.request({ method: 'PATCH', url: `/api/admin/staff/${account!.id}`, token: adminToken, payload: { role: 'editor' } });
    expect(approve.statusCode).toBe(404);

    const confirmed = await confirm(token);
    expect(confirmed.statusCode).toBe(200);
    expect(await waiting()).toContain('colleague@example.test');
    const again = await confirm(token);
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toMatchObject({ code: 'invalid_confirmation_token', fields: [{ field: 'token', message: 'Token is not valid' }] });
    const [audit] = await ctx.app.db.select().from(auditLog).where(eq(auditLog.action, 'account.confirm_email'));
    expect(audit).toMatchObject({ entityId: account!.id });
    expect((await ctx.request({ method: 'PATCH', url: `/api/admin/staff/${account!.id}`, token: adminToken, payload: { role: 'editor' } })).statusCode).toBe(200);
  });

  it('lets a later registration of an unconfirmed address replace it: the earlier link dies', async () => {
    await register(registration('contested@example.test', 'First-registrant-pass-1'));
    const first = await linkTo('contested@example.test');
    const count = smtp.messages.length;
    await register(registration('contested@example.test', 'Second-registrant-pass-2'));
    const second = await linkTo('contested@example.test', count);
    expect(second.token).not.toBe(first.token);
    expect((await confirm(first.token)).statusCode).toBe(400);
    expect((await confirm(second.token)).statusCode).toBe(200);
  });

  it('refuses a reset link as a confirmation link, and an unknown token, naming the field', async () => {
    const response = await confirm('not-a-token');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields[0].field).toBe('token');
  });

  it('puts names in e-mails as bounded plain text that cannot pass for a link', async () => {
    const response = await register({
      ...registration('phished@example.test'),
      firstName: 'Urgent: log in at https://evil.example/login',
      lastName: 'or www.evil.example',
    });
    expect(response.statusCode).toBe(201);
    const { mail } = await linkTo('phished@example.test');
    const greeting = mail.text!.split('\n')[0]!;
    expect(greeting).toMatch(/^Ciao [\p{L}' -]+,$/u);
    // Words may remain; what makes a link or an address (dots, colons, slashes, @) may not.
    expect(greeting.slice('Ciao '.length)).not.toMatch(/[.:/@]/);
    expect(greeting.length).toBeLessThanOrEqual('Ciao ,'.length + 40);
    // The only link in the message is ours.
    expect(mail.text!.match(/https?:\/\/\S+/g)).toEqual([expect.stringMatching(/^http:\/\/localhost:3000\/auth\/confirm-email\?token=/)]);
    expect(mail.html!.match(/<a /g)).toHaveLength(1);
    expect(mail.html).not.toMatch(/evil\.example|https:\/\/evil/);
  });
});

describe('nameForMail', () => {
  it('keeps letters, marks, apostrophes, hyphens and spaces, at most 40 characters', () => {
    expect(nameForMail('Anna-Maria D’Angelo')).toBe('Anna-Maria D Angelo');
    expect(nameForMail("Nicolò O'Neill")).toBe("Nicolò O'Neill");
    expect(nameForMail('see evil.example/x')).toBe('see evil example x');
    expect(nameForMail('a'.repeat(100))).toHaveLength(40);
    expect(nameForMail('https://x.y')).toBe('https x y');
  });
});

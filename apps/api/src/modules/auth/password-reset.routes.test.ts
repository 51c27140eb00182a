import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import PostalMime from 'postal-mime';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { DEMO_PASSWORD } from '../../db/seed.ts';
import { auditLog, passwordResetTokens, users } from '../../db/schema.ts';
import { linkTokenIn, startSmtpCatcher, type SmtpCatcher } from '../../../../../tools/test-support/smtp-catcher.ts';

const NEW_PASSWORD = 'Cappuccino-al-banco-42';

/** The token of the reset-password link, which must lead to APP_URL. */
const tokenFromMail = (text: string | undefined) => linkTokenIn(text, 'http://app.example.test/auth/reset-password');

describe('password reset through a real SMTP server', () => {
  let ctx: TestContext;
  let smtp: SmtpCatcher;
  let now = new Date();
  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    ctx = await createTestContext({
      env: { AUTH_RATE_LIMIT: '1000', SMTP_URL: smtp.url, APP_URL: 'http://app.example.test' },
      clock: { now: () => now },
    });
  });
  afterAll(async () => {
    await ctx.close();
    await smtp.close();
  });

  const forgot = (email: string, headers: Record<string, string> = {}) =>
    ctx.request({ method: 'POST', url: '/api/auth/forgot-password', payload: { email }, headers });
  const reset = (token: string, password: string) =>
    ctx.request({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password } });
  const login = (email: string, password: string) =>
    ctx.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } });

  it('answers known and unknown addresses identically', async () => {
    const known = await forgot('member@demo.test');
    const unknown = await forgot('nobody@demo.test');
    expect([known.statusCode, unknown.statusCode]).toEqual([200, 200]);
    expect(known.body).toBe(unknown.body);
    expect(known.json()).toEqual({ ok: true });
    await smtp.waitFor((mail) => mail.to?.[0]?.address === 'member@demo.test');
    expect(smtp.messages.some((mail) => mail.to?.[0]?.address === 'nobody@demo.test')).toBe(false);
  });

  it('e-mails a link on APP_URL (whatever the Host header) in the account’s language; the link resets the password once, ending every session', async () => {
    const before = await login('admin@demo.test', DEMO_PASSWORD);
    const { idToken, refreshToken } = before.json();

    expect((await forgot('admin@demo.test', { host: 'evil.example' })).statusCode).toBe(200);
    const mail = await smtp.waitFor((m) => m.to?.[0]?.address === 'admin@demo.test');
    expect(mail.subject).toBe('Reimposta la tua password di Social Fidelity');
    expect(mail.html).toContain('href="http://app.example.test/auth/reset-password?token=');
    expect(mail.text).not.toContain('evil.example');
    const token = tokenFromMail(mail.text);

    const done = await reset(token, NEW_PASSWORD);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ ok: true });

    // Single use.
    const again = await reset(token, 'Another-fine-password-7');
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toMatchObject({ code: 'invalid_reset_token', fields: [{ field: 'token' }] });
    // The page the e-mail led to shows the message: it names the link and what to do, not a token.
    expect(again.json().error.message).toMatch(/link di reimpostazione non è valido o è scaduto|reset link is not valid or has expired/);

    // Every session of the account is over: its refresh token and its ID token.
    const refreshed = await ctx.request({
      method: 'POST',
      url: '/api/auth/token',
      payload: { grant_type: 'refresh_token', refresh_token: refreshToken },
    });
    expect(refreshed.json().error.code).toBe('invalid_grant');
    const oldToken = await ctx.request({ method: 'GET', url: '/api/admin/me', token: idToken });
    expect(oldToken.statusCode).toBe(401);

    expect((await login('admin@demo.test', DEMO_PASSWORD)).statusCode).toBe(400);
    const after = await login('admin@demo.test', NEW_PASSWORD);
    expect(after.statusCode).toBe(200);
    expect((await ctx.request({ method: 'GET', url: '/api/admin/me', token: after.json().idToken })).statusCode).toBe(200);

    const [audit] = await ctx.app.db.select().from(auditLog).where(eq(auditLog.action, 'account.password_reset'));
    expect(audit).toMatchObject({ actorEmail: 'admin@demo.test', entityType: 'user' });
  });

  it('writes the e-mail in English for an English-speaking account', async () => {
    await forgot('member@demo.test');
    const mail = await smtp.waitFor((m) => m.to?.[0]?.address === 'member@demo.test');
    expect(mail.subject).toBe('Reset your Social Fidelity password');
  });

  it('refuses a link older than 30 minutes', async () => {
    smtp.messages.length = 0;
    await forgot('editor@demo.test');
    const token = tokenFromMail((await smtp.waitFor((m) => m.to?.[0]?.address === 'editor@demo.test')).text);
    now = new Date(now.getTime() + 30 * 60_000 + 1000);
    const response = await reset(token, NEW_PASSWORD);
    now = new Date();
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_reset_token');
    expect((await login('editor@demo.test', DEMO_PASSWORD)).statusCode).toBe(200);
  });

  it('uses up the other links of the account when one of them resets it', async () => {
    smtp.messages.length = 0;
    await forgot('editor@demo.test');
    const first = tokenFromMail((await smtp.waitFor((m) => m.to?.[0]?.address === 'editor@demo.test')).text);
    smtp.messages.length = 0;
    await forgot('editor@demo.test');
    const second = tokenFromMail((await smtp.waitFor((m) => m.to?.[0]?.address === 'editor@demo.test')).text);
    expect((await reset(second, NEW_PASSWORD)).statusCode).toBe(200);
    expect((await reset(first, 'Yet-another-password-9')).statusCode).toBe(400);
    const [editor] = await ctx.app.db.select().from(users).where(eq(users.email, 'editor@demo.test'));
    const open = await ctx.app.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, editor!.id));
    expect(open.every((row) => row.usedAt !== null)).toBe(true);
  });

  it('refuses a common password for the reset, naming the field as the page does (New password)', async () => {
    const response = await ctx.request({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: 'whatever', password: 'password123' },
      headers: { 'accept-language': 'en' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual([
      { field: 'password', message: 'New password is too common: choose a less predictable one' },
    ]);
  });
});

describe('the outbox when no SMTP server is configured', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { AUTH_RATE_LIMIT: '1000' } });
  });
  afterAll(() => ctx.close());

  it('writes the reset e-mail as an .eml file under <dataDir>/outbox', async () => {
    expect(ctx.app.mailer.kind).toBe('outbox');
    await ctx.request({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: 'admin@demo.test' } });
    const outbox = path.join(ctx.dataDir, 'outbox');
    let files: string[] = [];
    for (let attempt = 0; attempt < 100 && files.length < 2; attempt += 1) {
      files = (await readdir(outbox).catch(() => [] as string[])).sort();
      if (files.length < 2) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The message, and its plain text for a developer to read (README).
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(/\.eml$/);
    expect(files[1]).toBe(files[0]!.replace(/\.eml$/, '.txt'));
    const mail = await PostalMime.parse(await readFile(path.join(outbox, files[0]!)));
    expect(mail.to?.[0]?.address).toBe('admin@demo.test');
    expect(mail.text).toContain('http://localhost:3000/auth/reset-password?token=');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { auditLog, staffInvitations, users } from '../../db/schema.ts';
import { linkTokenIn, startSmtpCatcher, type SmtpCatcher } from '../../../../../tools/test-support/smtp-catcher.ts';

const PASSWORD = 'Gelato-al-pistacchio-9';
const DAY = 24 * 60 * 60_000;

/** The token of the invitation link, which must lead to APP_URL. */
const tokenFromMail = (text: string | undefined) => linkTokenIn(text, 'http://app.example.test/auth/invitation');

describe('staff invitations through a real SMTP server', () => {
  let ctx: TestContext;
  let smtp: SmtpCatcher;
  let adminToken: string;
  let now = new Date();
  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    ctx = await createTestContext({
      env: { AUTH_RATE_LIMIT: '1000', SMTP_URL: smtp.url, APP_URL: 'http://app.example.test' },
      clock: { now: () => now },
    });
    adminToken = await ctx.tokenFor('admin@demo.test');
  });
  afterAll(async () => {
    await ctx.close();
    await smtp.close();
  });

  const invite = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
    ctx.request({ method: 'POST', url: '/api/admin/staff/invitations', token: adminToken, payload, headers });
  const accept = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
    ctx.request({ method: 'POST', url: '/api/auth/invitation/accept', payload, headers });
  const details = (token: string) => ctx.request({ method: 'POST', url: '/api/auth/invitation/details', payload: { token } });
  const mailTo = async (address: string) => {
    const mail = await smtp.waitFor((m) => m.to?.[0]?.address === address);
    smtp.messages.splice(smtp.messages.indexOf(mail), 1);
    return mail;
  };

  it('invites an editor by e-mail; the link shows the invitation, and accepting signs them in with the role', async () => {
    const created = await invite({ email: 'Nuova.Redattrice@Example.test', displayName: 'Nuova Redattrice', role: 'editor' }, { host: 'evil.example' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ email: 'nuova.redattrice@example.test', role: 'editor', status: 'pending', invitedBy: 'admin@demo.test' });
    expect(JSON.stringify(created.json())).not.toMatch(/token/i);

    const mail = await mailTo('nuova.redattrice@example.test');
    expect(mail.subject).toBe('Sei stato invitato nel back-office di Social Fidelity');
    expect(mail.text).toContain('Giulia Rossi ti ha invitato');
    expect(mail.text).not.toContain('evil.example');
    const token = tokenFromMail(mail.text);
    // Only a hash of the token is stored.
    const [row] = await ctx.app.db.select().from(staffInvitations).where(eq(staffInvitations.email, 'nuova.redattrice@example.test'));
    expect(row!.tokenHash).not.toBe(token);
    expect(row!.expiresAt.getTime() - now.getTime()).toBe(7 * DAY);

    const shown = await details(token);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual({ email: 'nuova.redattrice@example.test', displayName: 'Nuova Redattrice', role: 'editor' });

    const weak = await accept({ token, firstName: 'Nuova', lastName: 'Redattrice', password: 'password1' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.fields[0].field).toBe('password');

    const accepted = await accept({ token, firstName: 'Nuova', lastName: 'Redattrice', password: PASSWORD });
    expect(accepted.statusCode).toBe(200);
    const { idToken, refreshToken } = accepted.json();
    expect(refreshToken).toEqual(expect.any(String));
    expect(await ctx.app.tokenSigner.verify(idToken)).toMatchObject({ role: 'editor', email: 'nuova.redattrice@example.test', name: 'Nuova Redattrice' });
    const me = await ctx.request({ method: 'GET', url: '/api/admin/me', token: idToken });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ role: 'editor', displayName: 'Nuova Redattrice' });
    expect((await ctx.request({ method: 'GET', url: '/api/admin/news', token: idToken })).statusCode).toBe(200);
    expect((await ctx.request({ method: 'GET', url: '/api/admin/staff', token: idToken })).statusCode).toBe(403);
    // And the password works for a later sign-in.
    const login = await ctx.request({ method: 'POST', url: '/api/auth/login', payload: { email: 'nuova.redattrice@example.test', password: PASSWORD } });
    expect(login.statusCode).toBe(200);

    const actions = (await ctx.app.db.select().from(auditLog)).map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(['staff.invite', 'account.accept_invitation']));
  });

  it('refuses a used link with the same answer as an unknown one, in the caller’s language', async () => {
    await invite({ email: 'once@example.test', displayName: 'Una Volta', role: 'editor' });
    const token = tokenFromMail((await mailTo('once@example.test')).text);
    expect((await accept({ token, firstName: 'Una', lastName: 'Volta', password: PASSWORD })).statusCode).toBe(200);
    const again = await accept({ token, firstName: 'Una', lastName: 'Volta', password: PASSWORD }, { 'accept-language': 'en' });
    const unknown = await accept({ token: 'not-a-token', firstName: 'Una', lastName: 'Volta', password: PASSWORD }, { 'accept-language': 'en' });
    expect([again.statusCode, unknown.statusCode]).toEqual([400, 400]);
    expect(again.json().error.code).toBe('invalid_invitation_token');
    expect(again.json().error.message).toBe(unknown.json().error.message);
    expect(again.json().error.message).toBe('This invitation link is not valid or has expired: ask an administrator for a new one');
    expect((await details(token)).json().error.message).toBe('Questo link di invito non è valido o è scaduto: chiedi un nuovo invito a un amministratore');
  });

  it('refuses a link past its 7 days (test clock)', async () => {
    await invite({ email: 'late@example.test', displayName: 'In Ritardo', role: 'admin' });
    const token = tokenFromMail((await mailTo('late@example.test')).text);
    const started = now;
    now = new Date(started.getTime() + 7 * DAY + 1000);
    try {
      expect((await details(token)).statusCode).toBe(400);
      const late = await accept({ token, firstName: 'In', lastName: 'Ritardo', password: PASSWORD });
      expect(late.json().error.code).toBe('invalid_invitation_token');
      // Still listed, as expired, so that an admin can resend it.
      const list = await ctx.request({ method: 'GET', url: '/api/admin/staff/invitations?q=late', token: adminToken });
      expect(list.json().items).toEqual([expect.objectContaining({ email: 'late@example.test', status: 'expired' })]);
    } finally {
      now = started;
    }
    expect(await ctx.app.db.select().from(users).where(eq(users.email, 'late@example.test'))).toEqual([]);
  });

  it('resends with a new link that kills the old one, and revokes', async () => {
    const created = (await invite({ email: 'twice@example.test', displayName: 'Due Volte', role: 'editor' })).json();
    const first = tokenFromMail((await mailTo('twice@example.test')).text);
    const resent = await ctx.request({ method: 'POST', url: `/api/admin/staff/invitations/${created.id}/resend`, token: adminToken });
    expect(resent.statusCode).toBe(200);
    const second = tokenFromMail((await mailTo('twice@example.test')).text);
    expect(second).not.toBe(first);
    expect((await details(first)).statusCode).toBe(400);
    expect((await details(second)).statusCode).toBe(200);

    const revoked = await ctx.request({ method: 'DELETE', url: `/api/admin/staff/invitations/${created.id}`, token: adminToken });
    expect(revoked.statusCode).toBe(204);
    expect((await accept({ token: second, firstName: 'Due', lastName: 'Volte', password: PASSWORD })).json().error.code).toBe('invalid_invitation_token');
    const list = await ctx.request({ method: 'GET', url: '/api/admin/staff/invitations?q=twice', token: adminToken });
    expect(list.json().total).toBe(0);
    const again = await ctx.request({ method: 'DELETE', url: `/api/admin/staff/invitations/${created.id}`, token: adminToken });
    expect(again.statusCode).toBe(404);
    const actions = (await ctx.app.db.select().from(auditLog).where(eq(auditLog.entityId, created.id))).map((entry) => entry.action);
    expect(actions.sort()).toEqual(['staff.invite', 'staff.invite_resend', 'staff.invite_revoke']);
  });

  it('a second invitation to the same address replaces the open one', async () => {
    await invite({ email: 'replace@example.test', displayName: 'Prima Volta', role: 'editor' });
    const first = tokenFromMail((await mailTo('replace@example.test')).text);
    await invite({ email: 'replace@example.test', displayName: 'Seconda Volta', role: 'admin' });
    const second = tokenFromMail((await mailTo('replace@example.test')).text);
    expect((await details(first)).statusCode).toBe(400);
    expect((await details(second)).json()).toMatchObject({ role: 'admin', displayName: 'Seconda Volta' });
  });

  it('answers 409 account_exists for an address with an account, and 400 naming the field for bad input', async () => {
    const taken = await invite({ email: 'EDITOR@demo.test', displayName: 'Qualcuno', role: 'editor' }, { 'accept-language': 'en' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toMatchObject({
      code: 'account_exists',
      message: 'An account with this e-mail already exists: change its role in the staff list instead',
      fields: [{ field: 'email' }],
    });
    const bad = await invite({ email: 'not-an-address', displayName: 'Qualcuno', role: 'editor' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields[0]).toMatchObject({ field: 'email', message: 'Email non è valida' });
    const member = await invite({ email: 'someone@example.test', displayName: 'Qualcuno', role: 'member' });
    expect(member.statusCode).toBe(400);
    expect(member.json().error.fields[0].field).toBe('role');
  });

  it('an invitation replaces an unconfirmed self-registration of the address, but not an account confirmed meanwhile', async () => {
    await ctx.request({
      method: 'POST',
      url: '/api/auth',
      payload: { email: 'squatter@example.test', password: 'Someone-else-42!', firstName: 'Non', lastName: 'Confermato', acceptTerms: true },
    });
    await smtp.waitFor((m) => m.to?.[0]?.address === 'squatter@example.test');
    expect((await invite({ email: 'squatter@example.test', displayName: 'Vero Titolare', role: 'editor' })).statusCode).toBe(201);
    const token = tokenFromMail((await smtp.waitFor((m) => m.to?.[0]?.address === 'squatter@example.test' && /invit/i.test(m.subject ?? ''))).text);
    const accepted = await accept({ token, firstName: 'Vero', lastName: 'Titolare', password: PASSWORD });
    expect(accepted.statusCode).toBe(200);
    const [account] = await ctx.app.db.select().from(users).where(eq(users.email, 'squatter@example.test'));
    expect(account).toMatchObject({ displayName: 'Vero Titolare', role: 'editor', emailConfirmedAt: expect.any(Date) });

    // Confirmed meanwhile: the invitee reads only "invalid or expired", and the account is untouched.
    await invite({ email: 'raced@example.test', displayName: 'Corsa', role: 'admin' });
    const raced = tokenFromMail((await mailTo('raced@example.test')).text);
    await ctx.app.db.insert(users).values({
      email: 'raced@example.test',
      passwordHash: 'x',
      displayName: 'Already Here',
      role: null,
      profile: account!.profile,
    });
    const refused = await accept({ token: raced, firstName: 'Corsa', lastName: 'Persa', password: PASSWORD });
    expect(refused.json().error.code).toBe('invalid_invitation_token');
    const [kept] = await ctx.app.db.select().from(users).where(eq(users.email, 'raced@example.test'));
    expect(kept).toMatchObject({ displayName: 'Already Here', role: null });
    // The claim rolled back: the invitation is still open for the admin to revoke.
    expect((await ctx.request({ method: 'GET', url: '/api/admin/staff/invitations?q=raced', token: adminToken })).json().total).toBe(1);
  });

  it('lists the open invitations with search, and exports them as CSV', async () => {
    const list = await ctx.request({ method: 'GET', url: '/api/admin/staff/invitations?pageSize=100', token: adminToken });
    expect(list.statusCode).toBe(200);
    const emails = list.json().items.map((item: { email: string }) => item.email);
    expect(emails).toContain('late@example.test');
    expect(emails).not.toContain('nuova.redattrice@example.test');
    const csv = await ctx.request({ method: 'GET', url: '/api/admin/staff/invitations/export.csv?q=late', token: adminToken });
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Email;Nome;Ruolo;Invitato da;Inviato il;Scade il');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^late@example\.test;In Ritardo;Amministratore;admin@demo\.test;/);
  });
});

describe('an invitation whose e-mail does not go out', () => {
  let ctx: TestContext;
  let failure: Error = new Error('unset');
  beforeAll(async () => {
    ctx = await createTestContext({
      env: { AUTH_RATE_LIMIT: '1000', APP_URL: 'http://app.example.test' },
      mailer: {
        kind: 'smtp',
        send: async () => {
          throw failure;
        },
      },
    });
  });
  afterAll(() => ctx.close());

  // The web app words a bare `unavailable` itself ("service unavailable"): the server's text, which
  // says the invitation was saved, is shown only under `mail_unavailable`.
  it.each([
    ['cannot be reached', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:25'), { code: 'ECONNECTION' }), 'unreached@example.test'],
    ['refuses it', Object.assign(new Error('5.7.1 Relaying denied'), { responseCode: 550 }), 'refused@example.test'],
  ])('answers 503 mail_unavailable, saying the invitation is saved, when the mail server %s', async (_case, error, email) => {
    failure = error;
    const answer = await ctx.request({ method: 'POST', url: '/api/admin/staff/invitations', token: await ctx.tokenFor('admin@demo.test'), payload: { email, displayName: 'Nuovo', role: 'editor' } });
    expect(answer.statusCode, answer.body).toBe(503);
    expect(answer.json().error).toMatchObject({ code: 'mail_unavailable', message: "L'invito è salvato ma la sua e-mail non è partita: rinvialo più tardi" });
    expect(await ctx.app.db.select().from(staffInvitations).where(eq(staffInvitations.email, email))).toHaveLength(1);
  });
});

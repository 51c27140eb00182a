import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { CSRF_COOKIE, CSRF_HEADER } from '@sf/contract/app-info';
import { createTestContext, type TestContext } from '../helper.ts';
import { loadEnv } from '../../src/config/env.ts';
import { users } from '../../src/db/schema.ts';
import { createFirebaseAdmin, type FirebaseAdmin } from '../../src/identity/firebase/firebase-admin.ts';
import { firebaseSessionId } from '../../src/modules/auth/firebase-provider.ts';
import { runStaffCli } from '../../src/cli/staff.ts';
import type { MailMessage } from '../../src/lib/mailer.ts';
import { linkTokenIn } from '../../../../tools/test-support/smtp-catcher.ts';

/**
 * AUTH_PROVIDER=firebase end to end through our API, against the real Firebase Auth emulator (started
 * once by emulator-global-setup.ts) and a real PostgreSQL. Every test makes its own addresses: the
 * emulator is shared by the whole run.
 */
const PASSWORD = 'Lungo-caffe-2026';
const firebaseEnv = () => ({
  AUTH_PROVIDER: 'firebase',
  FIREBASE_PROJECT_ID: inject('firebaseProjectId'),
  FIREBASE_AUTH_EMULATOR_HOST: inject('firebaseEmulatorHost'),
  AUTH_RATE_LIMIT: '1000',
});

let ctx: TestContext;
let admin: FirebaseAdmin;
const mails: MailMessage[] = [];

beforeAll(async () => {
  ctx = await createTestContext({ seed: false, env: firebaseEnv(), mailer: { kind: 'smtp', send: async (mail) => void mails.push(mail) } });
  // The test's own Admin SDK, to arrange Firebase users and read their claims as an operator would.
  admin = createFirebaseAdmin(loadEnv({ NODE_ENV: 'test', ...firebaseEnv() }));
});

afterAll(async () => {
  await admin?.close();
  await ctx?.close();
});

const newAddress = () => `staff-${randomUUID().slice(0, 8)}@firebase.test`;

function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  return runStaffCli(args, { out: (line) => out.push(line), err: (line) => err.push(line) }, { openDb: async () => ctx.app.database, firebase: () => admin }).then(
    (code) => ({ code, out: out.join('\n'), err: err.join('\n') }),
  );
}

function login(email: string, password = PASSWORD) {
  return ctx.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
}

function refresh(refreshToken: string) {
  return ctx.request({ method: 'POST', url: '/api/auth/token', payload: { grant_type: 'refresh_token', refresh_token: refreshToken } });
}

/** A guarded request as the browser sends it: the token, and the forgery-protection cookie bound to its sign-in. */
function asUser(token: string, options: { method: 'GET' | 'PATCH' | 'POST'; url: string; payload?: object }) {
  const csrf = ctx.app.csrfTokenFor(firebaseSessionId(decodeJwt(token)));
  return ctx.app.inject({
    ...options,
    headers: { cookie: `${CSRF_COOKIE}=${csrf}`, [CSRF_HEADER.toLowerCase()]: csrf, 'x-auth-token': token },
  });
}

async function accountRow(email: string) {
  const [row] = await ctx.app.db.select().from(users).where(eq(users.email, email));
  return row;
}

/** A staff member created with `npm run staff -- create-admin`, then given `role` if not admin. */
async function staffMember(role: 'admin' | 'editor' = 'admin') {
  const email = newAddress();
  expect((await cli(['create-admin', '--email', email, '--password', PASSWORD, '--name', 'Anna Rossi'])).code).toBe(0);
  if (role !== 'admin') expect((await cli(['grant', '--email', email, '--role', role])).code).toBe(0);
  const signIn = await login(email);
  expect(signIn.statusCode, signIn.body).toBe(200);
  return { email, ...(signIn.json() as { idToken: string; refreshToken: string; localId: string }) };
}

describe('sign-in, refresh and the guard with Firebase', () => {
  it('npm run staff creates the Firebase user with the role claim; the sign-in answers Firebase tokens our API accepts', async () => {
    const { email, idToken, localId } = await staffMember('admin');
    const user = await admin.auth.getUserByEmail(email);
    expect(user.customClaims).toEqual({ role: 'admin' });
    expect(decodeJwt(idToken)).toMatchObject({ role: 'admin', user_id: user.uid, iss: `https://securetoken.google.com/${inject('firebaseProjectId')}` });
    expect((await accountRow(email))).toMatchObject({ id: localId, firebaseUid: user.uid, role: 'admin' });
    const byToken = await ctx.request({ method: 'GET', url: `/api/admin/user-by-token?token=${idToken}`, headers: { 'x-auth-token': idToken } });
    expect(byToken.statusCode).toBe(200);
    expect(byToken.json().payload).toMatchObject({ uid: localId, email, role: 'admin' });
    expect((await asUser(idToken, { method: 'GET', url: '/api/admin/staff' })).statusCode).toBe(200);
  });

  it('refreshes through the secure-token endpoint: new tokens that work, carrying a role changed since', async () => {
    const { email, refreshToken } = await staffMember('editor');
    expect((await cli(['grant', '--email', email, '--role', 'admin'])).code).toBe(0);
    const answer = await refresh(refreshToken);
    expect(answer.statusCode, answer.body).toBe(200);
    const tokens = answer.json() as { id_token: string; refresh_token: string; token_type: string };
    expect(tokens.token_type).toBe('Bearer');
    expect(decodeJwt(tokens.id_token).role).toBe('admin');
    expect((await asUser(tokens.id_token, { method: 'GET', url: '/api/admin/staff' })).statusCode).toBe(200);
    expect((await refresh('not-a-refresh-token')).json().error.code).toBe('invalid_grant');
  });

  it('refuses a wrong password and an unknown address with the one S1 answer', async () => {
    const { email } = await staffMember('admin');
    for (const attempt of [await login(email, 'Wrong-password-1'), await login(newAddress())]) {
      expect(attempt.statusCode).toBe(400);
      expect(attempt.json().error.code).toBe('invalid_credentials');
    }
  });

  it('an account disabled in our database is refused at once: next request, refresh and sign-in', async () => {
    const { email, idToken, refreshToken } = await staffMember('admin');
    expect((await asUser(idToken, { method: 'GET', url: '/api/admin/staff' })).statusCode).toBe(200);
    expect((await cli(['disable', '--email', email])).code).toBe(0);
    const next = await asUser(idToken, { method: 'GET', url: '/api/admin/staff' });
    expect(next.statusCode).toBe(401);
    expect((await refresh(refreshToken)).json().error.code).toBe('invalid_grant');
    expect((await login(email)).json().error.code).toBe('invalid_credentials');
  });

  it('our database wins over the custom claim on every request: demoted → the next admin request is refused', async () => {
    const { email, idToken } = await staffMember('admin');
    // Demoted in our database only; the token (and Firebase's claim) still say admin.
    await ctx.app.db.update(users).set({ role: 'editor' }).where(eq(users.email, email));
    expect(decodeJwt(idToken).role).toBe('admin');
    expect((await asUser(idToken, { method: 'GET', url: '/api/admin/staff' })).statusCode).toBe(403);
    expect((await asUser(idToken, { method: 'GET', url: '/api/admin/news' })).statusCode).toBe(200);
    // A claim raised at Firebase behind our back gives nothing either: the next sign-in is an editor's,
    // and the claim is put back to our role.
    const user = await admin.auth.getUserByEmail(email);
    const signIn = await login(email);
    expect(signIn.statusCode).toBe(200);
    expect((await asUser(signIn.json().idToken, { method: 'GET', url: '/api/admin/staff' })).statusCode).toBe(403);
    expect((await admin.auth.getUser(user.uid)).customClaims).toEqual({ role: 'editor' });
  });

  it('refuses a Firebase user whose claim is not a staff role, and never makes an account for it', async () => {
    // A customer of the mobile app: in Firebase, no staff claim.
    const customer = newAddress();
    const user = await admin.auth.createUser({ email: customer, password: PASSWORD, emailVerified: true });
    await admin.auth.setCustomUserClaims(user.uid, { role: 'member' });
    expect((await login(customer)).json().error.code).toBe('invalid_credentials');
    expect(await accountRow(customer)).toBeUndefined();
    // Our admin whose claim was taken away at Firebase: S1 wants the claim too.
    const { email } = await staffMember('admin');
    const staffUser = await admin.auth.getUserByEmail(email);
    await admin.auth.setCustomUserClaims(staffUser.uid, { role: 'member' });
    expect((await login(email)).json().error.code).toBe('invalid_credentials');
  });

  it('a Firebase user with a staff claim and no account of ours is imported on its first sign-in (a business already on Firebase)', async () => {
    const email = newAddress();
    const user = await admin.auth.createUser({ email, password: PASSWORD, displayName: 'Marco Bianchi' });
    await admin.auth.setCustomUserClaims(user.uid, { role: 'editor' });
    const signIn = await login(email);
    expect(signIn.statusCode, signIn.body).toBe(200);
    expect(await accountRow(email)).toMatchObject({ firebaseUid: user.uid, role: 'editor', displayName: 'Marco Bianchi' });
  });

  it('a token revoked at Firebase is refused on a request that changes something (checkRevoked), and cannot be refreshed', async () => {
    const { email, idToken, refreshToken } = await staffMember('admin');
    const user = await admin.auth.getUserByEmail(email);
    // Firebase dates revocations in whole seconds: revoke in a later second than the sign-in.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await admin.auth.revokeRefreshTokens(user.uid);
    const write = await asUser(idToken, { method: 'PATCH', url: '/api/admin/me', payload: { occupation: 'Barista' } });
    expect(write.statusCode).toBe(401);
    expect(write.json().error.code).toBe('invalid_token');
    expect((await refresh(refreshToken)).json().error.code).toBe('invalid_grant');
    const again = await login(email);
    expect((await asUser(again.json().idToken, { method: 'PATCH', url: '/api/admin/me', payload: { occupation: 'Barista' } })).statusCode).toBe(200);
  });

  it('an admin re-roling someone in the Staff API writes the claim too; the person is an editor from the next request', async () => {
    const boss = await staffMember('admin');
    const other = await staffMember('admin');
    const changed = await asUser(boss.idToken, { method: 'PATCH', url: `/api/admin/staff/${other.localId}`, payload: { role: 'editor' } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await admin.auth.getUserByEmail(other.email)).customClaims).toEqual({ role: 'editor' });
    expect((await asUser(other.idToken, { method: 'GET', url: '/api/admin/staff' })).statusCode).toBe(403);
    expect(decodeJwt((await refresh(other.refreshToken)).json().id_token).role).toBe('editor');
  });

  it('the profile dialog changes the password at Firebase after checking the current one, and answers a fresh sign-in', async () => {
    const { email, idToken } = await staffMember('editor');
    const newPassword = 'Brioche-al-miele-31';
    const change = (currentPassword: string) =>
      asUser(idToken, { method: 'POST', url: '/api/admin/me/password', payload: { currentPassword, newPassword } });
    const wrong = await change('Not-my-password-1');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields).toEqual([expect.objectContaining({ field: 'currentPassword' })]);
    const changed = await change(PASSWORD);
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await asUser(changed.json().idToken, { method: 'GET', url: '/api/admin/news' })).statusCode).toBe(200);
    expect((await login(email)).statusCode).toBe(400);
    expect((await login(email, newPassword)).statusCode).toBe(200);
  });

  it('logout ends every sign-in of the account in this app', async () => {
    const { email, idToken, refreshToken } = await staffMember('editor');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await ctx.request({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken } })).statusCode).toBe(200);
    expect((await asUser(idToken, { method: 'GET', url: '/api/admin/news' })).statusCode).toBe(401);
    expect((await refresh(refreshToken)).json().error.code).toBe('invalid_grant');
    expect((await login(email)).statusCode).toBe(200);
  });
});

describe('registration and reset with Firebase', () => {
  const mailTo = (to: string, subject: RegExp) =>
    vi.waitFor(
      () => {
        const mail = mails.find((m) => m.to === to && subject.test(m.subject));
        if (!mail) throw new Error(`no mail to ${to}`);
        return mail;
      },
      { timeout: 20_000, interval: 100 },
    );
  const linkToken = (mail: MailMessage, page: string) => linkTokenIn(mail.text, `/auth/${page}`);

  it('a registration waits for its confirmed address and an approval; npm run staff grants the role and the claim', async () => {
    const email = newAddress();
    const registered = await ctx.request({
      method: 'POST',
      url: '/api/auth',
      payload: { email, password: PASSWORD, firstName: 'Giulia', lastName: 'Verdi', acceptTerms: true },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const user = await admin.auth.getUserByEmail(email);
    expect(await accountRow(email)).toMatchObject({ firebaseUid: user.uid, role: null, emailConfirmedAt: null });
    // S6's automatic sign-in: refused like a wrong password (B7).
    expect((await login(email)).json().error.code).toBe('invalid_credentials');
    // Not approvable before the address is confirmed.
    expect((await cli(['grant', '--email', email, '--role', 'editor'])).code).toBe(1);

    const mail = await mailTo(email, /.*/);
    const confirmed = await ctx.request({ method: 'POST', url: '/api/auth/confirm-email', payload: { token: linkToken(mail, 'confirm-email') } });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect((await admin.auth.getUser(user.uid)).emailVerified).toBe(true);
    expect((await accountRow(email))?.emailConfirmedAt).not.toBeNull();
    expect((await login(email)).json().error.code).toBe('invalid_credentials');

    const granted = await cli(['grant', '--email', email, '--role', 'editor']);
    expect(granted.code, granted.err).toBe(0);
    expect((await admin.auth.getUser(user.uid)).customClaims).toEqual({ role: 'editor' });
    expect((await login(email)).statusCode).toBe(200);

    // The same address again: the same 201, nothing changes.
    const again = await ctx.request({
      method: 'POST',
      url: '/api/auth',
      payload: { email, password: PASSWORD, firstName: 'X', lastName: 'Y', acceptTerms: true },
    });
    expect(again.statusCode).toBe(201);
    expect((await accountRow(email))?.role).toBe('editor');
  });

  it('an invitation accepted under Firebase creates the Firebase user with the role claim and signs the person in there', async () => {
    const inviter = await staffMember('admin');
    const email = newAddress();
    const invited = await asUser(inviter.idToken, {
      method: 'POST',
      url: '/api/admin/staff/invitations',
      payload: { email, displayName: 'Carla Neri', role: 'editor' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const token = linkToken(await mailTo(email, /.*/), 'invitation');
    const accepted = await ctx.request({
      method: 'POST',
      url: '/api/auth/invitation/accept',
      payload: { token, firstName: 'Carla', lastName: 'Neri', password: PASSWORD },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const user = await admin.auth.getUserByEmail(email);
    expect(user.customClaims).toEqual({ role: 'editor' });
    expect(user.emailVerified).toBe(true);
    expect(await accountRow(email)).toMatchObject({ firebaseUid: user.uid, role: 'editor', status: 'active' });
    // Firebase's own tokens, accepted by our guard; and the password works for the next sign-in.
    const { idToken } = accepted.json() as { idToken: string };
    expect(decodeJwt(idToken)).toMatchObject({ role: 'editor', user_id: user.uid });
    expect((await asUser(idToken, { method: 'GET', url: '/api/admin/news' })).statusCode).toBe(200);
    expect((await login(email)).statusCode).toBe(200);
  });

  it('forgot-password e-mails a reset link whose code sets the new password at Firebase and ends the earlier sign-ins', async () => {
    const { email, idToken, refreshToken } = await staffMember('editor');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await ctx.request({ method: 'POST', url: '/api/auth/forgot-password', payload: { email } })).json()).toEqual({ ok: true });
    const token = linkToken(await mailTo(email, /.*/), 'reset-password');
    const newPassword = 'Cornetto-integrale-77';
    const reset = await ctx.request({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password: newPassword } });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await ctx.request({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password: newPassword } })).json().error.code).toBe(
      'invalid_reset_token',
    );
    expect((await asUser(idToken, { method: 'GET', url: '/api/admin/news' })).statusCode).toBe(401);
    expect((await refresh(refreshToken)).json().error.code).toBe('invalid_grant');
    expect((await login(email)).statusCode).toBe(400);
    expect((await login(email, newPassword)).statusCode).toBe(200);
  });
});

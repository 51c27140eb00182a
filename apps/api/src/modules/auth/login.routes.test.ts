import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { DEMO_PASSWORD } from '../../db/seed.ts';
import { loginThrottles, sessions, users } from '../../db/schema.ts';

const login = (ctx: TestContext, email: string, password: string, headers: Record<string, string> = {}) =>
  ctx.request({ method: 'POST', url: '/api/auth/login', payload: { email, password }, headers });

describe('sign-in', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { AUTH_RATE_LIMIT: '1000' } });
  });
  afterAll(() => ctx.close());

  it('answers an ID token, a refresh token, the lifetime, the account id and the user (as user-by-token reads it) for the right password', async () => {
    const response = await login(ctx, 'Admin@Demo.test', DEMO_PASSWORD);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    const [admin] = await ctx.app.db.select().from(users).where(eq(users.email, 'admin@demo.test'));
    expect(body).toEqual({ idToken: expect.any(String), refreshToken: expect.any(String), expiresIn: 3600, localId: admin?.id, user: expect.any(Object) });
    const byToken = await ctx.app.inject({ method: 'GET', url: '/api/admin/user-by-token', headers: { 'x-auth-token': body.idToken } });
    expect(body.user).toEqual(byToken.json().payload);
    expect(body.user).toMatchObject({ uid: admin?.id, email: 'admin@demo.test', displayName: 'Giulia Rossi', role: 'admin' });
    const claims = await ctx.app.tokenSigner.verify(body.idToken);
    expect(claims).toMatchObject({ sub: admin?.id, email: 'admin@demo.test', name: 'Giulia Rossi', role: 'admin' });
    expect(claims.exp - claims.iat).toBe(3600);
    const rows = await ctx.app.db.select().from(sessions).where(eq(sessions.userId, admin!.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.expiresAt.getTime() - rows[0]!.createdAt.getTime()).toBe(864_000_000);
  });

  it('gives the same 400 answer for a wrong password, an unknown account and a disabled account', async () => {
    await ctx.app.db.update(users).set({ status: 'disabled' }).where(eq(users.email, 'editor@demo.test'));
    const wrong = await login(ctx, 'admin@demo.test', 'not-the-password', { 'accept-language': 'en' });
    const unknown = await login(ctx, 'nobody@demo.test', 'not-the-password', { 'accept-language': 'en' });
    const disabled = await login(ctx, 'editor@demo.test', DEMO_PASSWORD, { 'accept-language': 'en' });
    await ctx.app.db.update(users).set({ status: 'active' }).where(eq(users.email, 'editor@demo.test'));
    for (const response of [wrong, unknown, disabled]) {
      expect(response.statusCode).toBe(400);
      const { error } = response.json();
      expect({ code: error.code, message: error.message }).toEqual({
        code: 'invalid_credentials',
        message: 'The login detail is incorrect',
      });
    }
  });

  it('words the refusal in Italian by default', async () => {
    const response = await login(ctx, 'admin@demo.test', 'still-not-the-password');
    expect(response.json().error.message).toBe('I dati di accesso non sono corretti');
  });

  it('refuses a member and an account with no role with the wrong-password answer, and issues nothing (S1)', async () => {
    await ctx.app.db.update(users).set({ role: null }).where(eq(users.email, 'editor@demo.test'));
    const wrong = await login(ctx, 'admin@demo.test', 'not-the-password', { 'accept-language': 'en' });
    const sessionsBefore = (await ctx.app.db.select().from(sessions)).length;
    for (const email of ['member@demo.test', 'editor@demo.test']) {
      const response = await login(ctx, email, DEMO_PASSWORD, { 'accept-language': 'en' });
      expect(response.statusCode).toBe(400);
      expect(response.body.replace(/"requestId":"[^"]+"/, '')).toBe(wrong.body.replace(/"requestId":"[^"]+"/, ''));
    }
    expect((await ctx.app.db.select().from(sessions)).length).toBe(sessionsBefore);
    await ctx.app.db.update(users).set({ role: 'editor' }).where(eq(users.email, 'editor@demo.test'));
  });

  it('refreshes no tokens for an account whose staff role was taken away after its sign-in', async () => {
    const signedIn = (await login(ctx, 'editor@demo.test', DEMO_PASSWORD)).json();
    await ctx.app.db.update(users).set({ role: 'member' }).where(eq(users.email, 'editor@demo.test'));
    const refreshed = await ctx.request({ method: 'POST', url: '/api/auth/token', payload: { grant_type: 'refresh_token', refresh_token: signedIn.refreshToken } });
    await ctx.app.db.update(users).set({ role: 'editor' }).where(eq(users.email, 'editor@demo.test'));
    expect(refreshed.statusCode).toBe(400);
    expect(refreshed.json().error.code).toBe('invalid_grant');
  });

  it('rejects a malformed e-mail with a 400 naming the field', async () => {
    const response = await login(ctx, 'not-an-email', 'whatever-password', { 'accept-language': 'en' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual([{ field: 'email', message: 'Email is not valid' }]);
  });
});

describe('lock-out after repeated failures', () => {
  let ctx: TestContext;
  let now = new Date('2026-11-21T10:00:00Z');
  beforeAll(async () => {
    ctx = await createTestContext({ env: { AUTH_RATE_LIMIT: '1000' }, clock: { now: () => now } });
  });
  afterAll(() => ctx.close());

  const advance = (ms: number) => {
    now = new Date(now.getTime() + ms);
  };

  it('locks the account for this client from the 5th failure, with delays that grow, and a success clears it', async () => {
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      expect((await login(ctx, 'admin@demo.test', `wrong-${attempt}`)).statusCode).toBe(400);
    }
    // Locked: the right password gets exactly the wrong-password answer.
    const locked = await login(ctx, 'admin@demo.test', DEMO_PASSWORD);
    expect(locked.statusCode).toBe(400);
    expect(locked.json().error.code).toBe('invalid_credentials');

    // Another client address is not locked out with the attacker.
    const elsewhere = await ctx.request({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '10.1.2.3',
      payload: { email: 'admin@demo.test', password: DEMO_PASSWORD },
    });
    expect(elsewhere.statusCode).toBe(200);

    // The first lock lasts 30 s.
    advance(29_000);
    expect((await login(ctx, 'admin@demo.test', DEMO_PASSWORD)).statusCode).toBe(400);
    advance(2_000);
    // 6th failure: now locked for 60 s.
    expect((await login(ctx, 'admin@demo.test', 'wrong-6')).statusCode).toBe(400);
    advance(45_000);
    expect((await login(ctx, 'admin@demo.test', DEMO_PASSWORD)).statusCode).toBe(400);
    advance(16_000);
    expect((await login(ctx, 'admin@demo.test', DEMO_PASSWORD)).statusCode).toBe(200);

    // The success cleared the count: four new failures do not lock.
    for (let attempt = 1; attempt <= 4; attempt += 1) await login(ctx, 'admin@demo.test', `again-${attempt}`);
    expect((await login(ctx, 'admin@demo.test', DEMO_PASSWORD)).statusCode).toBe(200);
  });

  it('locks an unknown address the same way, so the lock-out does not reveal which accounts exist', async () => {
    for (let attempt = 1; attempt <= 5; attempt += 1) await login(ctx, 'ghost@demo.test', `wrong-${attempt}`);
    const response = await login(ctx, 'ghost@demo.test', 'wrong-6');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_credentials');
  });
});

describe('rate limit of the identity endpoints', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { AUTH_RATE_LIMIT: '3' }, seed: false });
  });
  afterAll(() => ctx.close());

  it('answers 429 with Retry-After once a client exceeds the limit', async () => {
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const response = await ctx.request({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: 'a@demo.test' } });
      expect(response.statusCode).toBe(200);
    }
    const limited = await ctx.request({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: 'a@demo.test' } });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('attempts reserved before the password check, and a per-account throttle', () => {
  let ctx: TestContext;
  let now = new Date('2026-11-21T10:00:00Z');
  beforeAll(async () => {
    ctx = await createTestContext({ env: { AUTH_RATE_LIMIT: '1000' }, clock: { now: () => now } });
  });
  afterAll(() => ctx.close());

  it('lets only one of eight parallel sign-ins reach the password check once a lock expires', async () => {
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      expect((await login(ctx, 'editor@demo.test', `wrong-${attempt}`)).statusCode).toBe(400);
    }
    now = new Date(now.getTime() + 31_000);
    // Eight guesses at once on the same (address, account) key: the first reserves the unlocked
    // moment and earns the next lock; the other seven find that lock and are refused unchecked.
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => login(ctx, 'editor@demo.test', `burst-${i}`)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(8).fill(400));
    const [row] = await ctx.app.db.select().from(loginThrottles).where(eq(loginThrottles.key, 'editor@demo.test|127.0.0.1'));
    expect(row?.failures).toBe(6);
    // ...so the 6th failure's lock (60 s) holds: the right password is refused until it ends.
    now = new Date(now.getTime() + 30_000);
    expect((await login(ctx, 'editor@demo.test', DEMO_PASSWORD)).statusCode).toBe(400);
    now = new Date(now.getTime() + 31_000);
    expect((await login(ctx, 'editor@demo.test', DEMO_PASSWORD)).statusCode).toBe(200);
  });

  it('locks an account guessed from many addresses after 100 consecutive failures, for 15 minutes only', async () => {
    // 99 failures from other addresses already counted for the account as a whole.
    await ctx.app.db.insert(loginThrottles).values({ key: 'admin@demo.test|*', failures: 99, lastFailureAt: now });
    const from = (address: string, password: string) =>
      ctx.request({ method: 'POST', url: '/api/auth/login', remoteAddress: address, payload: { email: 'admin@demo.test', password } });
    expect((await from('198.51.100.100', 'the-100th-guess')).statusCode).toBe(400);
    // Now even the owner, from an address that never failed, gets the wrong-password answer.
    const owner = await from('192.0.2.7', DEMO_PASSWORD);
    expect(owner.statusCode).toBe(400);
    expect(owner.json().error.code).toBe('invalid_credentials');
    now = new Date(now.getTime() + 15 * 60_000 + 1000);
    expect((await from('192.0.2.7', DEMO_PASSWORD)).statusCode).toBe(200);
    // The success ended the run of consecutive failures.
    expect(await ctx.app.db.select().from(loginThrottles).where(eq(loginThrottles.key, 'admin@demo.test|*'))).toHaveLength(0);
  });
});

import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { decodeJwt, decodeProtectedHeader, importJWK, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { DEMO_PASSWORD } from '../../db/seed.ts';
import { sessions, users } from '../../db/schema.ts';
import { REFRESH_GRACE_MS } from '../../identity/sessions.ts';

async function signIn(ctx: TestContext, email = 'admin@demo.test') {
  const response = await ctx.request({ method: 'POST', url: '/api/auth/login', payload: { email, password: DEMO_PASSWORD } });
  expect(response.statusCode).toBe(200);
  return response.json() as { idToken: string; refreshToken: string };
}

const refresh = (ctx: TestContext, refreshToken: string) =>
  ctx.request({ method: 'POST', url: '/api/auth/token', payload: { grant_type: 'refresh_token', refresh_token: refreshToken } });

describe('secure-token endpoint', () => {
  let ctx: TestContext;
  let now = new Date();
  beforeAll(async () => {
    ctx = await createTestContext({ env: { AUTH_RATE_LIMIT: '1000' }, clock: { now: () => now } });
  });
  afterAll(() => ctx.close());

  it('rotates the refresh token: the new one works, the old one is dead', async () => {
    const { refreshToken } = await signIn(ctx);
    const first = await refresh(ctx, refreshToken);
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body).toEqual({
      access_token: expect.any(String),
      id_token: body.access_token,
      refresh_token: expect.any(String),
      expires_in: 3600,
      token_type: 'Bearer',
    });
    expect(body.refresh_token).not.toBe(refreshToken);
    const me = await ctx.request({ method: 'GET', url: '/api/admin/me', token: body.id_token });
    expect(me.statusCode).toBe(200);
    expect((await refresh(ctx, body.refresh_token)).statusCode).toBe(200);
  });

  it('revokes the whole family when a used refresh token is presented again, the newest token included', async () => {
    const { refreshToken } = await signIn(ctx);
    const second = (await refresh(ctx, refreshToken)).json().refresh_token as string;
    const third = (await refresh(ctx, second)).json().refresh_token as string;
    const replay = await refresh(ctx, refreshToken);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error.code).toBe('invalid_grant');
    const newest = await refresh(ctx, third);
    expect(newest.statusCode).toBe(400);
    expect(newest.json().error.code).toBe('invalid_grant');
  });

  it('gives two tabs refreshing at once with the same token the same successor, and the family lives on', async () => {
    const { refreshToken } = await signIn(ctx);
    const answers = await Promise.all([refresh(ctx, refreshToken), refresh(ctx, refreshToken)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    const [first, second] = answers.map((answer) => answer.json() as { refresh_token: string; id_token: string });
    expect(first!.refresh_token).toBe(second!.refresh_token);
    for (const answer of [first!, second!]) {
      expect((await ctx.request({ method: 'GET', url: '/api/admin/me', token: answer.id_token })).statusCode).toBe(200);
    }
    expect((await refresh(ctx, first!.refresh_token)).statusCode).toBe(200);
  });

  it('still treats a used token as a replay after the grace window, or once its successor was used', async () => {
    const late = await signIn(ctx);
    const successor = (await refresh(ctx, late.refreshToken)).json().refresh_token as string;
    now = new Date(now.getTime() + REFRESH_GRACE_MS + 1000);
    expect((await refresh(ctx, late.refreshToken)).statusCode).toBe(400);
    // The replay revoked the family: the unused successor is dead too.
    expect((await refresh(ctx, successor)).statusCode).toBe(400);

    const moved = await signIn(ctx);
    const next = (await refresh(ctx, moved.refreshToken)).json().refresh_token as string;
    expect((await refresh(ctx, next)).statusCode).toBe(200);
    expect((await refresh(ctx, moved.refreshToken)).statusCode).toBe(400);
    now = new Date();
  });

  it('accepts the form-encoded body OAuth clients send', async () => {
    const { refreshToken } = await signIn(ctx);
    const response = await ctx.request({
      method: 'POST',
      url: '/api/auth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString(),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().token_type).toBe('Bearer');
    // Only there: the sign-in takes JSON, and a form is refused as such, not read as a field named after the body.
    const formSignIn = await ctx.request({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ email: 'admin@demo.test', password: 'Demo-Password-2026' }).toString(),
    });
    expect(formSignIn.statusCode).toBe(415);
    expect(formSignIn.json().error.code).toBe('unsupported_media_type');
  });

  it('answers invalid_grant for an unknown token and a 400 naming the field for a wrong grant type', async () => {
    const unknown = await refresh(ctx, 'no-such-token');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.code).toBe('invalid_grant');
    const wrongGrant = await ctx.request({
      method: 'POST',
      url: '/api/auth/token',
      payload: { grant_type: 'password', refresh_token: 'x' },
    });
    expect(wrongGrant.statusCode).toBe(400);
    expect(wrongGrant.json().error.fields[0].field).toBe('grant_type');
  });

  it('ends a family 10 days after sign-in, however recently it was used', async () => {
    const { refreshToken } = await signIn(ctx);
    let token = refreshToken;
    const start = now;
    for (const day of [3, 6, 9]) {
      now = new Date(start.getTime() + day * 86_400_000);
      const response = await refresh(ctx, token);
      expect(response.statusCode).toBe(200);
      token = response.json().refresh_token;
    }
    now = new Date(start.getTime() + 864_000_000 + 1000);
    const expired = await refresh(ctx, token);
    now = new Date();
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error.code).toBe('invalid_grant');
  });

  it('brings the account’s current role into the refreshed ID token (S10)', async () => {
    const { refreshToken } = await signIn(ctx, 'editor@demo.test');
    await ctx.app.db.update(users).set({ role: 'admin' }).where(eq(users.email, 'editor@demo.test'));
    const response = await refresh(ctx, refreshToken);
    await ctx.app.db.update(users).set({ role: 'editor' }).where(eq(users.email, 'editor@demo.test'));
    expect((await ctx.app.tokenSigner.verify(response.json().id_token)).role).toBe('admin');
  });

  it('refuses to refresh for a disabled account', async () => {
    const { refreshToken } = await signIn(ctx, 'editor@demo.test');
    await ctx.app.db.update(users).set({ status: 'disabled' }).where(eq(users.email, 'editor@demo.test'));
    const response = await refresh(ctx, refreshToken);
    await ctx.app.db.update(users).set({ status: 'active' }).where(eq(users.email, 'editor@demo.test'));
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_grant');
  });

  it('logs out by revoking the family; an unknown token gets the same answer', async () => {
    const { refreshToken } = await signIn(ctx);
    const out = await ctx.request({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken } });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ ok: true });
    expect((await refresh(ctx, refreshToken)).json().error.code).toBe('invalid_grant');
    const unknown = await ctx.request({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken: 'nope' } });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual({ ok: true });
    const revoked = await ctx.app.db.select().from(sessions).where(eq(sessions.revokedReason, 'logout'));
    expect(revoked).toHaveLength(1);
  });

  it('publishes the public signing key as a JWKS without the private part', async () => {
    const response = await ctx.request({ method: 'GET', url: '/api/auth/jwks.json' });
    expect(response.statusCode).toBe(200);
    const [key] = response.json().keys;
    expect(key).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig', kid: expect.any(String) });
    expect(key).not.toHaveProperty('d');
  });
});

describe('ID tokens at the /api/admin guard', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { AUTH_RATE_LIMIT: '1000', ID_TOKEN_TTL: '1' } });
  });
  afterAll(() => ctx.close());

  it('answers 401 token_expired once an ID token of ID_TOKEN_TTL seconds has expired', async () => {
    const response = await ctx.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'admin@demo.test', password: DEMO_PASSWORD },
    });
    // It failed once at load 23 before its wait: the answer says why, should it happen again.
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().expiresIn).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const expired = await ctx.request({ method: 'GET', url: '/api/admin/me', token: response.json().idToken });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error.code).toBe('token_expired');
  });

  it('answers 401 token_expired for a token that expired a minute ago and invalid_token for a forged one', async () => {
    const old = await ctx.tokenFor('admin@demo.test', { ttlSeconds: 60, now: new Date(Date.now() - 120_000) });
    const expired = await ctx.request({ method: 'GET', url: '/api/admin/me', token: old });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error.code).toBe('token_expired');
    const [header, payload] = old.split('.');
    const forged = await ctx.request({ method: 'GET', url: '/api/admin/me', token: `${header}.${payload}.AAAA` });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().error.code).toBe('invalid_token');
  });

  it('takes access away from a demoted or disabled account on its next request', async () => {
    const demoted = await ctx.tokenFor('editor@demo.test', { ttlSeconds: 600 });
    expect((await ctx.request({ method: 'GET', url: '/api/admin/me', token: demoted })).statusCode).toBe(200);
    await ctx.app.db.update(users).set({ role: 'member' }).where(eq(users.email, 'editor@demo.test'));
    const afterDemotion = await ctx.request({ method: 'GET', url: '/api/admin/me', token: demoted });
    expect(afterDemotion.statusCode).toBe(403);
    expect(afterDemotion.json().error.code).toBe('forbidden');

    const admin = await ctx.tokenFor('admin@demo.test', { ttlSeconds: 600 });
    await ctx.app.db.update(users).set({ status: 'disabled' }).where(eq(users.email, 'admin@demo.test'));
    const afterDisable = await ctx.request({ method: 'GET', url: '/api/admin/me', token: admin });
    expect(afterDisable.statusCode).toBe(401);
    expect(afterDisable.json().error.code).toBe('invalid_token');
  });
});

describe('ID tokens die with their sign-in', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { AUTH_RATE_LIMIT: '1000' } });
  });
  afterAll(() => ctx.close());

  const me = (token: string) => ctx.request({ method: 'GET', url: '/api/admin/me', token });

  it('carries the session id, and logout ends the ID token at once, not an hour later', async () => {
    const { idToken, refreshToken } = await signIn(ctx);
    expect((await ctx.app.tokenSigner.verify(idToken)).sid).toEqual(expect.any(String));
    expect((await me(idToken)).statusCode).toBe(200);
    await ctx.request({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken } });
    const after = await me(idToken);
    expect(after.statusCode).toBe(401);
    expect(after.json().error.code).toBe('invalid_token');
  });

  it('when a refresh token is replayed, the ID tokens of the whole family die, the winner’s included', async () => {
    const { idToken, refreshToken } = await signIn(ctx);
    const first = (await refresh(ctx, refreshToken)).json();
    const winner = (await refresh(ctx, first.refresh_token)).json();
    expect((await me(winner.id_token)).statusCode).toBe(200);
    // The first token again, its successor already used: a replay, not a second tab.
    expect((await refresh(ctx, refreshToken)).statusCode).toBe(400);
    expect((await me(winner.id_token)).statusCode).toBe(401);
    expect((await me(idToken)).statusCode).toBe(401);
  });

  it('disabling then enabling an account does not revive its old ID tokens', async () => {
    const { idToken } = await signIn(ctx, 'editor@demo.test');
    const adminToken = await ctx.tokenFor('admin@demo.test');
    const [editor] = await ctx.app.db.select().from(users).where(eq(users.email, 'editor@demo.test'));
    for (const status of ['disabled', 'active']) {
      const change = await ctx.request({ method: 'PATCH', url: `/api/admin/staff/${editor!.id}`, token: adminToken, payload: { status } });
      expect(change.statusCode).toBe(200);
    }
    const after = await me(idToken);
    expect(after.statusCode).toBe(401);
    expect(after.json().error.code).toBe('invalid_token');
    // A fresh sign-in works again.
    expect((await me((await signIn(ctx, 'editor@demo.test')).idToken)).statusCode).toBe(200);
  });

  it('refuses a validly signed token that names no session, or a session that does not exist', async () => {
    const [admin] = await ctx.app.db.select().from(users).where(eq(users.email, 'admin@demo.test'));
    const claims = { sub: admin!.id, email: admin!.email, name: admin!.displayName, role: admin!.role ?? null };
    for (const token of [
      await ctx.app.tokenSigner.sign(claims),
      await ctx.app.tokenSigner.sign({ ...claims, sid: '00000000-0000-4000-8000-000000000000' }),
    ]) {
      const response = await me(token);
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('invalid_token');
    }
  });
});

describe('the ID token type (issue 6, item 11)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { AUTH_RATE_LIMIT: '1000' } });
  });
  afterAll(() => ctx.close());

  it('refuses a token signed with our key but without typ JWT', async () => {
    const jwk = JSON.parse(await readFile(path.join(ctx.dataDir, 'keys', 'id-token-signing.jwk.json'), 'utf8')) as JWK;
    const key = await importJWK(jwk, 'EdDSA');
    const good = await ctx.tokenFor('admin@demo.test');
    const claims = decodeJwt(good);
    const { kid } = decodeProtectedHeader(good);
    const withType = (typ?: string) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA', ...(kid ? { kid } : {}), ...(typ ? { typ } : {}) }).sign(key);
    expect((await ctx.request({ method: 'GET', url: '/api/admin/me', token: await withType('JWT') })).statusCode).toBe(200);
    for (const typ of ['at+jwt', 'logout+jwt', undefined]) {
      const response = await ctx.request({ method: 'GET', url: '/api/admin/me', token: await withType(typ) });
      expect(response.statusCode, String(typ)).toBe(401);
      expect(response.json().error.code).toBe('invalid_token');
    }
  });
});

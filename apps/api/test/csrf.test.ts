import { afterAll, describe, expect, it } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { CSRF_COOKIE, CSRF_COOKIE_HOST, CSRF_HEADER } from '@sf/contract/app-info';
import { createTestContext } from './helper.ts';
import { concretePath, createRouteCollector, isMutating } from './route-catalog.ts';
import { expectErrorAnswer } from './error-answers.ts';

const collector = createRouteCollector();
const ctx = await createTestContext({ onRoute: collector.onRoute, env: { RATE_LIMIT_ALLOW: '127.0.0.1' } });
afterAll(() => ctx.close());

const header = CSRF_HEADER.toLowerCase();
// Signed in as admin, so that guarded routes reach the forgery check rather than stopping at 401.
const adminToken = await ctx.tokenFor('admin@demo.test');
const mutating = collector.routes.filter((route) => isMutating(route.method));

/** The cookie a browser holds: anonymous before a sign-in, bound to the admin's session after. */
async function issuedCookie(token?: string): Promise<string> {
  const response = await ctx.app.inject({ method: 'GET', url: token ? '/api/admin/me' : '/api/healthz', headers: token ? { 'x-auth-token': token } : {} });
  const cookie = response.cookies.find((entry) => entry.name === CSRF_COOKIE);
  if (!cookie) throw new Error('no forgery-protection cookie on a first GET');
  return cookie.value;
}

describe('forgery protection (S17)', () => {
  it('sets a SameSite=Strict cookie that scripts can read on a first GET', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/healthz' });
    expect(response.statusCode).toBe(200);
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toContain(`${CSRF_COOKIE}=`);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    expect(setCookie).not.toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/Path=\//);
  });

  it('does not set the cookie again when the request carries a valid one', async () => {
    const cookie = await issuedCookie();
    const response = await ctx.app.inject({ method: 'GET', url: '/api/healthz', headers: { cookie: `${CSRF_COOKIE}=${cookie}` } });
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('lets a GET through without any token', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/healthz' });
    expect(response.statusCode).toBe(200);
  });

  it('has mutating routes to protect', () => {
    expect(mutating.length).toBeGreaterThan(0);
  });

  describe.each(mutating.map((route) => [`${route.method} ${route.url}`, route] as const))('%s', (_name, route) => {
    const send = (headers: Record<string, string>) =>
      ctx.app.inject({ method: route.method as 'POST', url: concretePath(route), payload: {}, headers: { 'x-auth-token': adminToken, ...headers } });

    it('refuses a request with the cookie but without the header', async () => {
      const cookie = await issuedCookie(adminToken);
      const error = expectErrorAnswer(await send({ cookie: `${CSRF_COOKIE}=${cookie}` }), 403);
      expect(error.code).toBe('csrf');
    });

    it('refuses a header that differs from the cookie', async () => {
      const cookie = await issuedCookie(adminToken);
      const other = await issuedCookie(adminToken);
      const error = expectErrorAnswer(await send({ cookie: `${CSRF_COOKIE}=${cookie}`, [header]: other }), 403);
      expect(error.code).toBe('csrf');
    });

    it('refuses a matching pair that the server did not sign', async () => {
      const forged = 'attacker-chosen-nonce.not-a-signature';
      const error = expectErrorAnswer(await send({ cookie: `${CSRF_COOKIE}=${forged}`, [header]: forged }), 403);
      expect(error.code).toBe('csrf');
    });

    it('passes the forgery check with a signed cookie, bound to the session, echoed in the header', async () => {
      const cookie = await issuedCookie(adminToken);
      const response = await send({ cookie: `${CSRF_COOKIE}=${cookie}`, [header]: cookie });
      expect(response.statusCode === 403 && response.json().error.code === 'csrf', response.body).toBe(false);
    });

    it('still refuses an altered copy of a token it has accepted (checked tokens are remembered)', async () => {
      const cookie = await issuedCookie(adminToken);
      const accepted = await send({ cookie: `${CSRF_COOKIE}=${cookie}`, [header]: cookie });
      expect(accepted.statusCode === 403 && accepted.json().error.code === 'csrf', accepted.body).toBe(false);
      const [nonce, binding, signature] = cookie.split('.') as [string, string, string];
      const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
      for (const altered of [`${nonce}.${binding}.${flipped}`, `${nonce}.other-session.${signature}`, `${nonce}x.${binding}.${signature}`]) {
        const error = expectErrorAnswer(await send({ cookie: `${CSRF_COOKIE}=${altered}`, [header]: altered }), 403);
        expect(error.code).toBe('csrf');
      }
    });
  });
});

describe('the token bound to the session (issue 6, item 9)', () => {
  const signIn = async (email = 'admin@demo.test', cookie?: string) => {
    const anonymous = cookie ?? (await issuedCookie());
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: 'Demo-Password-2026' },
      headers: { cookie: `${CSRF_COOKIE}=${anonymous}`, [header]: anonymous },
    });
    expect(response.statusCode).toBe(200);
    const bound = response.cookies.find((entry) => entry.name === CSRF_COOKIE)?.value;
    return { idToken: response.json().idToken as string, bound };
  };
  const patchMe = (token: string, cookie: string) =>
    ctx.app.inject({
      method: 'PATCH',
      url: '/api/admin/me',
      payload: { phone: '+39 02 0000 0000' },
      headers: { 'x-auth-token': token, cookie: `${CSRF_COOKIE}=${cookie}`, [header]: cookie },
    });

  it('refuses an anonymous token on a signed-in request, and another session’s token', async () => {
    const admin = await signIn();
    const anonymous = await issuedCookie();
    const refused = expectErrorAnswer(await patchMe(admin.idToken, anonymous), 403);
    expect(refused.code).toBe('csrf');
    const other = await signIn('editor@demo.test');
    expect(expectErrorAnswer(await patchMe(admin.idToken, other.bound!), 403).code).toBe('csrf');
  });

  it('hands out a token bound to the new session with the sign-in answer, which then works', async () => {
    const admin = await signIn();
    expect(admin.bound).toBeDefined();
    expect((await patchMe(admin.idToken, admin.bound!)).statusCode).toBe(200);
  });

  it('replaces an unfitting cookie on a signed-in answer, so that the next mutation can succeed', async () => {
    const admin = await signIn();
    const refused = await patchMe(admin.idToken, await issuedCookie());
    const fresh = refused.cookies.find((entry) => entry.name === CSRF_COOKIE)?.value;
    expect(fresh).toBeDefined();
    expect((await patchMe(admin.idToken, fresh!)).statusCode).toBe(200);
  });
});

describe('the cookie where the scheme allows __Host- (issue 6, item 9)', () => {
  it('is __Host-XSRF-TOKEN, Secure, Path=/ and without Domain in production', async () => {
    const production = await createTestContext({
      seed: false,
      env: { NODE_ENV: 'production', APP_URL: 'https://backoffice.example.test', SMTP_URL: 'smtp://127.0.0.1:1' },
    });
    try {
      const response = await production.app.inject({ method: 'GET', url: '/api/healthz' });
      const setCookie = String(response.headers['set-cookie']);
      expect(setCookie).toMatch(new RegExp(`^${CSRF_COOKIE_HOST}=`));
      expect(setCookie).toMatch(/; Secure/i);
      expect(setCookie).toMatch(/; Path=\//);
      expect(setCookie).not.toMatch(/Domain=/i);
      // The plain name is not accepted there: a sub-domain could have planted it.
      const cookie = response.cookies[0]!.value;
      const refused = await production.app.inject({
        method: 'POST',
        url: '/api/auth/forgot-password',
        payload: { email: 'a@demo.test' },
        headers: { cookie: `${CSRF_COOKIE}=${cookie}`, [header]: cookie },
      });
      expect(refused.statusCode).toBe(403);
      const accepted = await production.app.inject({
        method: 'POST',
        url: '/api/auth/forgot-password',
        payload: { email: 'a@demo.test' },
        headers: { cookie: `${CSRF_COOKIE_HOST}=${cookie}`, [header]: cookie },
      });
      expect(accepted.statusCode).toBe(200);
    } finally {
      await production.close();
    }
  });
});

describe('where the cookie is set (issue 6, item 9)', () => {
  it('sets it on pages and API answers, never on static assets', async () => {
    const webDist = await mkdtemp(path.join(os.tmpdir(), 'sf-web-'));
    await mkdir(path.join(webDist, 'assets'));
    await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>x</title>');
    await writeFile(path.join(webDist, 'assets', 'app-1234.js'), 'console.log(1)');
    const web = await createTestContext({ seed: false, env: { WEB_DIST: webDist } });
    try {
      const asset = await web.app.inject({ method: 'GET', url: '/assets/app-1234.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['set-cookie']).toBeUndefined();
      const page = await web.app.inject({ method: 'GET', url: '/auth/login' });
      expect(String(page.headers['content-type'])).toMatch(/^text\/html/);
      expect(String(page.headers['set-cookie'])).toContain(`${CSRF_COOKIE}=`);
    } finally {
      await web.close();
      await rm(webDist, { recursive: true, force: true });
    }
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE, CSRF_HEADER } from '@sf/contract/app-info';
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

async function issuedCookie(): Promise<string> {
  const response = await ctx.app.inject({ method: 'GET', url: '/api/healthz' });
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
      const cookie = await issuedCookie();
      const error = expectErrorAnswer(await send({ cookie: `${CSRF_COOKIE}=${cookie}` }), 403);
      expect(error.code).toBe('csrf');
    });

    it('refuses a header that differs from the cookie', async () => {
      const cookie = await issuedCookie();
      const other = await issuedCookie();
      const error = expectErrorAnswer(await send({ cookie: `${CSRF_COOKIE}=${cookie}`, [header]: other }), 403);
      expect(error.code).toBe('csrf');
    });

    it('refuses a matching pair that the server did not sign', async () => {
      const forged = 'attacker-chosen-nonce.not-a-signature';
      const error = expectErrorAnswer(await send({ cookie: `${CSRF_COOKIE}=${forged}`, [header]: forged }), 403);
      expect(error.code).toBe('csrf');
    });

    it('passes the forgery check with a signed cookie echoed in the header', async () => {
      const cookie = await issuedCookie();
      const response = await send({ cookie: `${CSRF_COOKIE}=${cookie}`, [header]: cookie });
      expect(response.statusCode === 403 && response.json().error.code === 'csrf', response.body).toBe(false);
    });
  });
});

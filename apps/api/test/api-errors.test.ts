import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteOptions } from 'fastify';
import { sql } from 'drizzle-orm';
import { createTestContext, type TestContext } from './helper.ts';
import { concretePath, createRouteCollector, jsonSchemaOf, MISSING_ID, type CatalogRoute } from './route-catalog.ts';
import { expectErrorAnswer } from './error-answers.ts';

// S12 sentences in each language: every field message of a 400 must be one of them.
const ENGLISH_S12 =
  /( (is|are) not valid| (is|are) required| minimum length is \d+| maximum length is \d+|^Accepting terms & conditions are required|^The requested .+ is not found|^Required field|^Minimum field length: \d+|^Maximum field length: \d+|^Field is not valid| is too common)/;
const ITALIAN_S12 =
  /( non (è|sono) valid[oaie]| (è|sono) obbligatori[oaie]?|^La lunghezza minima di .+ è \d+|^La lunghezza massima di .+ è \d+|^È necessario accettare i termini| richiest[oaie] non trovat[oaie]|^Campo obbligatorio|^Lunghezza minima del campo|^Lunghezza massima del campo|^Il campo non è valido| è troppo comune)/;

const collector = createRouteCollector();
const ctx = await createTestContext({ onRoute: collector.onRoute, env: { RATE_LIMIT_ALLOW: '127.0.0.1' } });
const routes = collector.routes;
const label = (route: CatalogRoute) => `${route.method} ${route.url}`;
/** Routes whose body has required fields: an empty object must be refused field by field. */
const bodyRoutes = routes.filter((route) => (jsonSchemaOf(route.body).required ?? []).length > 0);
const objectBodyRoutes = routes.filter((route) => jsonSchemaOf(route.body).properties !== undefined);
const getByIdRoutes = routes.filter((route) => route.method === 'GET' && /:\w*id\b/i.test(route.url));

let adminToken = '';
beforeAll(async () => {
  adminToken = await ctx.tokenFor('admin@demo.test');
});
afterAll(() => ctx.close());

describe('S19 error answers', () => {
  it('answers an unknown /api path with 404 route_not_found in JSON', async () => {
    const response = await ctx.request({ method: 'GET', url: '/api/no-such-collection' });
    expect(expectErrorAnswer(response, 404).code).toBe('route_not_found');
  });

  it('answers a known path with the wrong method with 405 and an Allow header', async () => {
    const response = await ctx.request({ method: 'DELETE', url: '/api/healthz' });
    expect(expectErrorAnswer(response, 405).code).toBe('method_not_allowed');
    expect(String(response.headers['allow'])).toMatch(/\bGET\b/);
  });

  it('answers 404/405 before forgery protection: a request that matches no route changes nothing', async () => {
    const wrongMethod = await ctx.app.inject({ method: 'DELETE', url: '/api/healthz' });
    expect(expectErrorAnswer(wrongMethod, 405).code).toBe('method_not_allowed');
    const unknown = await ctx.app.inject({ method: 'POST', url: '/api/no-such-collection', payload: {} });
    expect(expectErrorAnswer(unknown, 404).code).toBe('route_not_found');
  });

  it('finds the routes these checks need', () => {
    expect(bodyRoutes.length).toBeGreaterThan(0);
    expect(getByIdRoutes.length).toBeGreaterThan(0);
  });

  describe.each(getByIdRoutes.map((route) => [label(route), route] as const))('%s', (_name, route) => {
    it('answers 404 for an id that does not exist', async () => {
      const response = await ctx.request({ method: 'GET', url: concretePath(route, MISSING_ID), token: adminToken });
      expect(expectErrorAnswer(response, 404).code).toBe('not_found');
    });
  });

  describe.each(bodyRoutes.map((route) => [label(route), route] as const))('%s', (_name, route) => {
    const send = (payload: unknown, headers: Record<string, string> = {}) =>
      ctx.request({ method: route.method as 'POST', url: concretePath(route), token: adminToken, payload: payload as object, headers });

    it('refuses an empty body with one Italian S12 message per field by default', async () => {
      const error = expectErrorAnswer(await send({}), 400);
      expect(error.code).toBe('validation');
      expect(error.fields?.length).toBeGreaterThan(0);
      for (const field of error.fields ?? []) expect(field.message).toMatch(ITALIAN_S12);
    });

    it('speaks English with Accept-Language: en', async () => {
      const error = expectErrorAnswer(await send({}, { 'accept-language': 'en-GB,en;q=0.9' }), 400);
      expect(error.fields?.length).toBeGreaterThan(0);
      for (const field of error.fields ?? []) expect(field.message).toMatch(ENGLISH_S12);
    });

    it('refuses malformed JSON with 400', async () => {
      const response = await ctx.request({
        method: route.method as 'POST',
        url: concretePath(route),
        token: adminToken,
        payload: '{"email": "a@b.test",',
        headers: { 'content-type': 'application/json' },
      });
      expect(expectErrorAnswer(response, 400).code).toBe('validation');
    });
  });

  describe.each(objectBodyRoutes.map((route) => [label(route), route] as const))('%s', (_name, route) => {
    it('refuses a body field it does not know, naming it', async () => {
      const response = await ctx.request({
        method: route.method as 'POST',
        url: concretePath(route),
        token: adminToken,
        payload: { unexpectedField: 'x' },
      });
      const error = expectErrorAnswer(response, 400);
      expect(error.fields?.map((field) => field.field)).toContain('unexpectedField');
    });

    it.each([
      ['a NUL character', 'a\u0000b'],
      ['a lone surrogate', 'a\ud800b'],
    ])('refuses text with %s in any field, naming the field', async (_kind, value) => {
      const properties = jsonSchemaOf(route.body).properties ?? {};
      const name = Object.keys(properties).find((key) => JSON.stringify(properties[key]).includes('"string"')) ?? 'unexpectedField';
      const response = await ctx.request({
        method: route.method as 'POST',
        url: concretePath(route),
        token: adminToken,
        payload: { [name]: value },
      });
      const error = expectErrorAnswer(response, 400);
      expect(error.fields?.map((field) => field.field)).toContain(name);
    });
  });

  it.each([
    ['/api/admin/news?q=a%00b', 'q'],
    ['/api/admin/audit?actor=a%00b', 'actor'],
    ['/api/admin/staff?q=a%00b', 'q'],
  ])('refuses unstorable text in a query string (%s) naming the parameter, instead of a 500', async (url, name) => {
    const error = expectErrorAnswer(await ctx.request({ method: 'GET', url, token: adminToken }), 400);
    expect(error.fields?.map((field) => field.field)).toEqual([name]);
  });
});

describe('5xx answers', () => {
  it('answers 503 on readyz with the database closed, without internals', async () => {
    const other = await createTestContext({ seed: false });
    await other.app.database.close();
    const response = await other.app.inject({ method: 'GET', url: '/api/readyz' });
    expect(expectErrorAnswer(response, 503).code).toBe('unavailable');
    await other.app.close();
  });

  it('answers 500 with a code and request id, never the SQL or stack, when a query fails', async () => {
    // Swap healthz's handler for one that runs broken SQL: a real driver error through the real pipeline.
    const other = await createTestContext({
      seed: false,
      onRoute: (route: RouteOptions) => {
        if (route.url !== '/api/healthz') return;
        route.handler = async function (this: { db: TestContext['app']['db'] }) {
          await this.db.execute(sql`select secret_column from no_such_table where id = 1`);
          return { status: 'ok' };
        };
      },
    });
    try {
      const response = await other.app.inject({ method: 'GET', url: '/api/healthz' });
      const error = expectErrorAnswer(response, 500);
      expect(error.code).toBe('internal');
      expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(response.body).not.toMatch(/no_such_table|secret_column/);
    } finally {
      await other.close();
    }
  });

  it('answers 500 without the message or stack of a thrown error', async () => {
    const other = await createTestContext({
      seed: false,
      onRoute: (route: RouteOptions) => {
        if (route.url !== '/api/healthz') return;
        route.handler = async () => {
          throw new Error('password_hash of admin@demo.test is $argon2id$…');
        };
      },
    });
    try {
      const response = await other.app.inject({ method: 'GET', url: '/api/healthz' });
      expect(expectErrorAnswer(response, 500).code).toBe('internal');
      expect(response.body).not.toMatch(/password_hash|argon2/);
    } finally {
      await other.close();
    }
  });
});

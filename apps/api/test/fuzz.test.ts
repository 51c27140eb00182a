import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { createTestContext } from './helper.ts';
import { arbitraryFromSchema } from './schema-arbitrary.ts';
import { concretePath, createRouteCollector, jsonSchemaOf, propertyNames, type CatalogRoute } from './route-catalog.ts';
import { leaksIn } from './error-answers.ts';

/** Runs per route and property: enough to shake out crashes, small enough for the suite to stay fast. */
const RUNS = 40;

const collector = createRouteCollector();
const ctx = await createTestContext({ onRoute: collector.onRoute, env: { RATE_LIMIT_ALLOW: '127.0.0.1' } });
const label = (route: CatalogRoute) => `${route.method} ${route.url}`;
const bodyRoutes = collector.routes.filter((route) => route.body !== undefined);
const queryRoutes = collector.routes.filter((route) => route.method === 'GET' && route.querystring !== undefined);

let adminToken = '';
beforeAll(async () => {
  adminToken = await ctx.tokenFor('admin@demo.test');
});
afterAll(() => ctx.close());

const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype'];

/** Values that tend to break hand-written code: wrong types, extremes, odd text, deep nesting. */
const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.constantFrom(
    '',
    ' ',
    'x'.repeat(200_000),
    '😀'.repeat(5000),
    '\u0000\u202e\ufeff',
    "' OR 1=1; DROP TABLE users; --",
    '<script>alert(1)</script><img src=x onerror=alert(1)>',
    '2026-02-30T25:61:00Z',
    'admin@demo.test',
    -1,
    0,
    1e308,
    -1e308,
    Number.MAX_SAFE_INTEGER + 2,
    true,
    null,
    [],
    {},
    [[[[[[[[[[[]]]]]]]]]]],
  ),
);

/** A JSON text whose object carries keys that must never reach a prototype. */
function withPollution(value: Record<string, unknown>, key: string, payload: unknown): string {
  const text = JSON.stringify(value);
  const extra = `${JSON.stringify(key)}:${JSON.stringify(payload ?? null)}`;
  return text === '{}' ? `{${extra}}` : `${text.slice(0, -1)},${extra}}`;
}

function bodyArbitrary(route: CatalogRoute): fc.Arbitrary<string> {
  const names = propertyNames(route.body);
  const shaped = names.length
    ? fc.record(Object.fromEntries(names.map((name) => [name, junk])), { requiredKeys: [] })
    : fc.dictionary(fc.string({ maxLength: 10 }), junk, { maxKeys: 5 });
  return fc.oneof(
    arbitraryFromSchema(jsonSchemaOf(route.body)).map((value) => JSON.stringify(value) ?? 'null'),
    fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value) ?? 'null'),
    shaped.map((value) => JSON.stringify(value)),
    fc
      .tuple(shaped, fc.constantFrom(...POLLUTION_KEYS), fc.oneof(junk, fc.constant({ isAdmin: true, role: 'admin' })))
      .map(([value, key, payload]) => withPollution(value as Record<string, unknown>, key, payload)),
  );
}

function queryArbitrary(route: CatalogRoute): fc.Arbitrary<string> {
  const names = [...propertyNames(route.querystring), ...POLLUTION_KEYS, 'unknown'];
  const value = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.integer().map(String),
    fc.constantFrom('-1', '0', '1e999', 'NaN', 'asc;drop', 'x'.repeat(5000), '%', '[]', 'null', "'", 'a\u0000b'),
  );
  return fc
    .array(fc.tuple(fc.constantFrom(...names), value), { maxLength: 6 })
    .map((pairs) => pairs.map(([key, item]) => `${encodeURIComponent(key)}=${encodeURIComponent(item)}`).join('&'));
}

function expectSafeAnswer(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body).toBeLessThan(500);
  if (response.statusCode >= 400) {
    const body = response.json();
    expect(Object.keys(body.error ?? {}).sort(), response.body).toEqual(
      expect.arrayContaining(['code', 'message', 'requestId']),
    );
    expect(leaksIn(response.body), response.body).toEqual([]);
  }
}

describe('fuzzing every route that takes a body, as admin', () => {
  it('has body routes to fuzz', () => {
    expect(bodyRoutes.length).toBeGreaterThan(0);
  });

  it.each(bodyRoutes.map((route) => [label(route), route] as const))(
    '%s never answers 5xx nor leaks internals',
    async (_name, route) => {
      await fc.assert(
        fc.asyncProperty(bodyArbitrary(route), async (payload) => {
          const response = await ctx.request({
            method: route.method as 'POST',
            url: concretePath(route),
            token: adminToken,
            payload,
            headers: { 'content-type': 'application/json' },
          });
          expectSafeAnswer(response);
        }),
        { numRuns: RUNS },
      );
    },
  );
});

describe('fuzzing the query strings of list routes, as admin', () => {
  it.each(queryRoutes.map((route) => [label(route), route] as const))(
    '%s never answers 5xx nor leaks internals',
    async (_name, route) => {
      await fc.assert(
        fc.asyncProperty(queryArbitrary(route), async (query) => {
          const response = await ctx.request({ method: 'GET', url: `${concretePath(route)}?${query}`, token: adminToken });
          expectSafeAnswer(response);
        }),
        { numRuns: RUNS },
      );
    },
  );
});

import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { errorResponseSchema } from '@sf/contract/errors';

/** What no answer may show: stack frames, our dependencies' paths, SQL from a failed query. */
const LEAKS: [string, RegExp][] = [
  ['a stack frame', /\n?\s{4}at\s/],
  ['a dependency path', /node_modules/],
  ['a source path', /\/src\/[\w/-]+\.ts/],
  ['SQL', /\b(select\s[\s\S]*\bfrom|insert\s+into|update\s+\S+\s+set|delete\s+from)\b/i],
  ['a database error', /(syntax error at|violates .* constraint|relation "[^"]*"|duplicate key value|column "[^"]*")/i],
];

export function leaksIn(text: string): string[] {
  return LEAKS.filter(([, pattern]) => pattern.test(text)).map(([name]) => name);
}

/** Asserts the S19 error shape `{ error: { code, message, fields?, requestId } }` and no leak. */
export function expectErrorAnswer(response: LightMyRequestResponse, status?: number) {
  if (status !== undefined) expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/application\/json/);
  const parsed = errorResponseSchema.safeParse(response.json());
  expect(parsed.success, response.body).toBe(true);
  expect(leaksIn(response.body), response.body).toEqual([]);
  // Nothing beside the documented keys: no `stack`, `cause` or driver details riding along.
  expect(Object.keys(response.json()), response.body).toEqual(['error']);
  for (const key of Object.keys(response.json().error)) {
    expect(['code', 'message', 'fields', 'requestId'], response.body).toContain(key);
  }
  return parsed.data!.error;
}

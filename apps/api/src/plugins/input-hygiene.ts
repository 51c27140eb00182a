import fp from 'fastify-plugin';
import { fieldError } from '../lib/errors.ts';

/** NUL, or half of a surrogate pair without its other half (text no database can store). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const isUnstorable = (text: string) => text.includes('\u0000') || LONE_SURROGATE.test(text);

/** The path of the first string (value or key) that cannot be stored, or null. */
function pathOfUnstorable(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === 'string') return isUnstorable(value) ? path : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = pathOfUnstorable(item, [...path, String(index)]);
      if (found) return found;
    }
    return null;
  }
  // Only parsed JSON, query and params: plain objects. Files and streams are not walked. The query
  // parser builds its objects from a prototype-less class, whose prototype's prototype is null.
  const prototype = value !== null && typeof value === 'object' ? (Object.getPrototypeOf(value) as unknown) : undefined;
  const isPlain =
    prototype === Object.prototype ||
    prototype === null ||
    (typeof prototype === 'object' && prototype !== null && Object.getPrototypeOf(prototype) === null);
  if (isPlain) {
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      const found = pathOfUnstorable(item, [...path, key]) ?? (isUnstorable(key) ? [...path, key] : null);
      if (found) return found;
    }
  }
  return null;
}

/**
 * PostgreSQL cannot store a NUL character in text, nor a lone surrogate escape in jsonb, and fails
 * the whole statement: a stray "\u0000" or "\ud800" in any field would be a 500. Refuse such text
 * up front as an invalid field, for every route.
 */
export const inputHygienePlugin = fp(async (app) => {
  app.addHook('preValidation', async (request) => {
    for (const source of [request.params, request.query, request.body]) {
      const path = pathOfUnstorable(source);
      if (!path) continue;
      throw fieldError(path.join('.') || 'body');
    }
  });
});

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import { CSRF_COOKIE, CSRF_HEADER } from '@sf/contract/app-info';
import { AppError } from '../lib/errors.ts';
import { isApiRoute } from './access-control.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type CsrfOptions = { secret: string; secureCookie: boolean };

function sign(secret: string, nonce: string): string {
  return createHmac('sha256', secret).update(nonce).digest('base64url');
}

export function createCsrfToken(secret: string): string {
  const nonce = randomBytes(18).toString('base64url');
  return `${nonce}.${sign(secret, nonce)}`;
}

function isSignedBy(secret: string, token: string): boolean {
  const [nonce, signature] = token.split('.');
  if (!nonce || !signature) return false;
  const expected = Buffer.from(sign(secret, nonce));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * Forgery protection (S17), double-submit with a server-signed token: every answer that finds no
 * valid `XSRF-TOKEN` cookie sets one; a mutating request must echo it in `X-XSRF-TOKEN`. The
 * signature stops a cookie planted by a sibling sub-domain from being accepted.
 */
export const csrfPlugin = fp<CsrfOptions>(async (app, options) => {
  app.addHook('onRequest', async (request, reply) => {
    const cookie = request.cookies[CSRF_COOKIE];
    const hasValidCookie = typeof cookie === 'string' && isSignedBy(options.secret, cookie);
    if (!hasValidCookie) {
      reply.setCookie(CSRF_COOKIE, createCsrfToken(options.secret), {
        path: '/',
        sameSite: 'strict',
        secure: options.secureCookie,
        // The web app reads it to echo it back, so it cannot be HttpOnly.
        httpOnly: false,
      });
    }
    // Decided by the matched route's config, not by the URL string (see isApiRoute). A request that
    // matches no route changes nothing: let it reach the 404/405 answer (S19).
    if (SAFE_METHODS.has(request.method) || !isApiRoute(request) || request.is404) return;
    const header = request.headers[CSRF_HEADER.toLowerCase()];
    const matches =
      hasValidCookie &&
      typeof header === 'string' &&
      header.length === cookie.length &&
      timingSafeEqual(Buffer.from(header), Buffer.from(cookie));
    if (!matches) {
      throw new AppError(403, 'csrf', 'The forgery-protection token is missing or does not match');
    }
  });
});

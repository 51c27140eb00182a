import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CSRF_COOKIE, CSRF_COOKIE_HOST, CSRF_HEADER } from '@sf/contract/app-info';
import { AppError } from '../lib/errors.ts';
import { VerifiedTokenCache } from '../identity/verified-token-cache.ts';
import { isApiRoute } from './access-control.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const INTEGRATION_PATH = '/api/integration/';

export type CsrfOptions = { secret: string; secureCookie: boolean };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: this public route serves a file (an uploaded image), and its answer sets no cookie. */
    setsCsrfCookie?: false;
    /**
     * Apple's PassKit web service (modules/wallet): the device authenticates with the pass's
     * `Authorization: ApplePass <token>`, which browsers never attach on their own, and sends no cookie.
     */
    walletDevice?: true;
    /**
     * 'secret-in-url': a public POST authorised by an unguessable secret in its own path that only the
     * recipient of an e-mail holds (the one-click unsubscribe, RFC 8058: mail providers POST it with no
     * cookie). A forged cross-site request cannot know the secret, so there is nothing to protect.
     */
    csrf?: 'secret-in-url';
  }
  interface FastifyInstance {
    /** A forgery-protection token bound to this session (null: anonymous), for tests and tools. */
    csrfTokenFor(sessionId: string | null): string;
  }
  interface FastifyReply {
    /** This answer starts a sign-in: it carries a forgery-protection cookie bound to the new session. */
    bindCsrfToSession(sessionId: string): void;
  }
  interface FastifyRequest {
    /** Set by bindCsrfToSession. */
    csrfBinding: string | null;
  }
}

function sign(secret: string, binding: string, nonce: string): string {
  return createHmac('sha256', secret).update(`${binding}|${nonce}`).digest('base64url');
}

/** `nonce.session.signature`: the HMAC covers the nonce and the session id ('' before there is one). */
export function createCsrfToken(secret: string, sessionId: string | null = null): string {
  const nonce = randomBytes(18).toString('base64url');
  const binding = sessionId ?? '';
  return `${nonce}.${binding}.${sign(secret, binding, nonce)}`;
}

/** Verified tokens kept per process: far more than the sessions one process serves at once. */
const MAX_VERIFIED_TOKENS = 10_000;

/**
 * The session a token we signed is bound to ('' for none), or undefined for anything we did not sign.
 * Tokens whose signature was checked are remembered with their binding: a signed token's binding
 * never changes, and a browser sends the same cookie until its session changes, so its next requests
 * skip the HMAC (two per request before: the check, then the answer's "does the cookie fit"). Only
 * tokens we signed are kept, so what clients send cannot fill it; bounded all the same.
 */
function bindingReader(secret: string): (token: string | undefined) => string | undefined {
  // The ID tokens' cache, bounded the same way; a forgery-protection token has no expiry of its own.
  const verified = new VerifiedTokenCache<{ exp: number; binding: string }>(MAX_VERIFIED_TOKENS);
  return (token) => {
    if (!token) return undefined;
    const known = verified.get(token, 0);
    if (known) return known.binding;
    const binding = verifiedBindingOf(secret, token);
    if (binding !== undefined) verified.set(token, { exp: Number.POSITIVE_INFINITY, binding });
    return binding;
  };
}

function verifiedBindingOf(secret: string, token: string): string | undefined {
  const [nonce, binding, signature, ...rest] = token.split('.');
  if (!nonce || binding === undefined || !signature || rest.length > 0) return undefined;
  const expected = Buffer.from(sign(secret, binding, nonce));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? binding : undefined;
}

/**
 * Forgery protection (S17), double submit with a server-signed token bound to the session:
 * - the token's HMAC covers the session id (the ID token's `sid`) once there is one;
 * - a mutating request on a guarded route must echo a cookie bound to ITS session: an anonymous one,
 *   or another session's, is refused. Public routes (sign-in, refresh, register…) act on the secrets
 *   in their body, not on a session, so any token we signed will do there;
 * - the cookie is `__Host-XSRF-TOKEN` (Secure, Path=/, no Domain: a sibling sub-domain cannot plant
 *   or overwrite it) where the app is served over https, `XSRF-TOKEN` on plain http://localhost;
 * - it is set on API answers and HTML pages whose request lacks a fitting one — never on static
 *   assets — and on the answer that starts a sign-in, bound to the new session.
 * Routes are told apart by the matched route's config (isApiRoute), never by the URL string.
 */
export const csrfPlugin = fp<CsrfOptions>(async (app, options) => {
  const cookieName = options.secureCookie ? CSRF_COOKIE_HOST : CSRF_COOKIE;
  const bindingOf = bindingReader(options.secret);
  app.decorate('csrfTokenFor', (sessionId: string | null) => createCsrfToken(options.secret, sessionId));
  app.decorateRequest('csrfBinding', null);
  app.decorateReply('bindCsrfToSession', function (this: FastifyReply, sessionId: string) {
    this.request.csrfBinding = sessionId;
  });

  const cookieOf = (request: FastifyRequest): string | undefined => {
    const value = request.cookies[cookieName];
    return typeof value === 'string' && value.length > 0 ? value : undefined;
  };
  /** The binding this request needs: its guard-verified session on a guarded route, none elsewhere. */
  const requiredBinding = (request: FastifyRequest): string | null =>
    request.routeOptions.config.permission !== undefined ? (request.sessionId ?? '') : null;
  const fits = (binding: string | undefined, required: string | null) =>
    binding !== undefined && (required === null || binding === required);

  app.addHook('onRequest', async (request) => {
    // A request that matches no route changes nothing: let it reach the 404/405 answer (S19).
    if (SAFE_METHODS.has(request.method) || !isApiRoute(request) || request.is404) return;
    // The integration API authenticates with a bearer key that browsers never attach on their own:
    // a forged cross-site request cannot carry it, so there is nothing to protect (and tills send no cookie).
    if (request.routeOptions.config.integration !== undefined || request.routeOptions.config.walletDevice) return;
    if (request.routeOptions.config.csrf === 'secret-in-url') return;
    // The guard, registered before this plugin, has already verified the token and set its session.
    const cookie = cookieOf(request);
    const header = request.headers[CSRF_HEADER.toLowerCase()];
    const isValid =
      cookie !== undefined &&
      fits(bindingOf(cookie), requiredBinding(request)) &&
      typeof header === 'string' &&
      header.length === cookie.length &&
      timingSafeEqual(Buffer.from(header), Buffer.from(cookie));
    if (!isValid) throw new AppError(403, 'csrf');
  });

  app.addHook('onSend', async (request, reply) => {
    const isPage = String(reply.getHeader('content-type') ?? '').startsWith('text/html');
    if (!isApiRoute(request) && !request.is404 && !isPage) return;
    // Tills and the app (no browser, no cookie jar) and uploaded images get none (issue 30), nor an
    // unknown path under the integration API (matched by no route, so told by its prefix).
    if (request.routeOptions.config?.integration !== undefined || request.routeOptions.config?.setsCsrfCookie === false || request.routeOptions.config?.walletDevice) return;
    if (request.is404 && request.url.startsWith(INTEGRATION_PATH)) return;
    const current = bindingOf(cookieOf(request));
    const required = request.csrfBinding ?? requiredBinding(request);
    if (fits(current, required)) return;
    reply.setCookie(cookieName, createCsrfToken(options.secret, required || null), {
      path: '/',
      sameSite: 'strict',
      secure: options.secureCookie,
      // The web app reads it to echo it back, so it cannot be HttpOnly.
      httpOnly: false,
    });
  });
});

import fp from 'fastify-plugin';
import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import { AUTH_TOKEN_HEADER } from '@sf/contract/app-info';
import { can, isStaffRole, type Permission, type StaffRole } from '@sf/contract/roles';
import { AppError, forbidden, unauthenticated } from '../lib/errors.ts';
import type { Account } from '../identity/accounts.ts';
import { integrationErrorMessage, type ApiKeyScope } from '@sf/contract/integration';
import { CodedError } from '../lib/errors.ts';
import { authenticateApiKey, type IntegrationKey } from '../modules/integration/api-keys.service.ts';

/**
 * Every route declares who may call it: `public`, a permission from the contract (staff), or an
 * integration scope (an API key of a till or of the customers' app, `/api/integration/v1`).
 */
export type RouteAccess = { access: 'public' } | { permission: Permission } | { integration: ApiKeyScope };

export type CurrentUser = { id: string; email: string; displayName: string; role: StaffRole };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: 'public';
    permission?: Permission;
    /** Integration routes: the scope the calling API key must carry. */
    integration?: ApiKeyScope;
  }
  interface FastifyInstance {
    /** The server-side key under which API key secrets are hashed (docs/security.md). */
    apiKeyPepper: string;
  }
  interface FastifyRequest {
    /** Set for integration routes, after the key was found live and carrying the route's scope. */
    apiKey: IntegrationKey | null;
    /** Set for routes guarded by a permission, after the checks passed. */
    user: CurrentUser | null;
    /** The verified ID token of the request, when it carried one. */
    idToken: string | null;
    /** The live sign-in (session id) of that token. */
    sessionId: string | null;
    /** The account row the guard read for this request (set with `user`), so routes need not read it again. */
    account: Account | null;
  }
}

/**
 * Whether the route that matched this request is one of ours under /api (it declares who may call
 * it). Decided by the matched route, never by the raw `request.url`: `/%61pi/…` and an absolute-form
 * request line (`POST http://host/api/…`) reach the same routes while their URL string does not
 * start with `/api/`.
 */
export function isApiRoute(request: FastifyRequest): boolean {
  const config = request.routeOptions.config as FastifyContextConfig | undefined;
  return config?.access !== undefined || config?.permission !== undefined || config?.integration !== undefined;
}

/** Routes that plugins register for us and that cannot carry our config: all read-only and public. */
const EXTERNAL_PUBLIC_PREFIXES = ['/api/docs'];

export function tokenFromRequest(headers: Record<string, string | string[] | undefined>): string | null {
  const custom = headers[AUTH_TOKEN_HEADER.toLowerCase()];
  if (typeof custom === 'string' && custom.length > 0) return custom;
  const authorization = headers['authorization'];
  if (typeof authorization === 'string' && authorization.startsWith('Bearer ')) {
    return authorization.slice('Bearer '.length).trim() || null;
  }
  return null;
}

/**
 * Deny by default (STYLE.md example 6): a route registered without `config.access` or
 * `config.permission` makes the app fail to start, and so fails every test.
 *
 * For a guarded route the identity provider verifies the token and reads the account's CURRENT role
 * and status from the database, so a demoted or disabled account loses access on its next request.
 */
export const accessControlPlugin = fp(async (app) => {
  app.decorateRequest('user', null);
  app.decorateRequest('idToken', null);
  app.decorateRequest('sessionId', null);
  app.decorateRequest('account', null);
  app.decorateRequest('apiKey', null);

  app.addHook('onRoute', (route) => {
    if (EXTERNAL_PUBLIC_PREFIXES.some((prefix) => route.url.startsWith(prefix))) return;
    // Outside /api there are only the web app's static files, public by nature.
    if (!route.url.startsWith('/api')) return;
    const config = route.config;
    const declared = config?.access === 'public' || config?.permission !== undefined || config?.integration !== undefined;
    if (!declared) {
      throw new Error(`Route ${String(route.method)} ${route.url} declares neither config.access nor config.permission (nor config.integration)`);
    }
  });

  app.addHook('onRequest', async (request) => {
    const scope = request.routeOptions.config.integration;
    if (scope !== undefined) {
      request.apiKey = await checkApiKey(request, scope);
      return;
    }
    const permission = request.routeOptions.config.permission;
    if (permission === undefined) return;
    const token = tokenFromRequest(request.headers);
    if (!token) throw unauthenticated('unauthenticated', 'Sign in to continue');
    // The provider verifies the token and reads the account as it is NOW (B1): role and status come
    // from our database on every request, whatever the token says. A request that changes something
    // also asks Firebase whether the sign-in was revoked there (decision 023).
    const { account, sessionId } = await app.identity.authenticate(token, { checkRevoked: isWrite(request.method) });
    if (!isStaffRole(account.role) || !can(account.role, permission)) throw forbidden();
    request.user = { id: account.id, email: account.email, displayName: account.displayName, role: account.role };
    request.idToken = token;
    request.sessionId = sessionId;
    request.account = account;
  });

  /**
   * Integration routes: `Authorization: Bearer <key>`, looked up on every request (one index read),
   * so a revoked key is refused on its next request; then the route's scope.
   */
  async function checkApiKey(request: FastifyRequest, scope: ApiKeyScope): Promise<IntegrationKey> {
    const authorization = request.headers['authorization'];
    const secret = typeof authorization === 'string' && authorization.startsWith('Bearer ') ? authorization.slice(7).trim() : '';
    const invalid = (code: 'unauthenticated' | 'invalid_token') =>
      new CodedError(401, code, (language) => ({ message: integrationErrorMessage('invalid_api_key', language) }), {
        'WWW-Authenticate': 'Bearer realm="integration"',
      });
    if (!secret) throw invalid('unauthenticated');
    const key = await authenticateApiKey(
      { db: app.db, clock: app.clock, timeZone: app.env.BUSINESS_TIME_ZONE, pepper: app.apiKeyPepper },
      secret,
    );
    if (!key) throw invalid('invalid_token');
    if (!key.scopes.includes(scope)) {
      throw new CodedError(403, 'forbidden', (language) => ({ message: integrationErrorMessage('scope_missing', language) }));
    }
    return key;
  }
});

/** Requests that change something: with Firebase, their token's revocation is checked at Firebase too. */
function isWrite(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
}

export { AppError };

import fp from 'fastify-plugin';
import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import { AUTH_TOKEN_HEADER } from '@sf/contract/app-info';
import { can, isStaffRole, type Permission, type StaffRole } from '@sf/contract/roles';
import { AppError, forbidden, unauthenticated } from '../lib/errors.ts';
import type { Account } from '../identity/accounts.ts';
import type { CheckedAccount, DeferredAccountCheck } from '../identity/provider.ts';
import type { BoundStatement } from '../db/statement-shape.ts';
import type { ApiKeyScope } from '@sf/contract/integration';
import type { IntegrationKey } from '../modules/integration/api-keys.service.ts';

/**
 * Every route declares who may call it: `public`, a permission from the contract (staff), or an
 * integration scope (an API key of a till or of the customers' app, `/api/integration/v1`).
 */
export type RouteAccess = { access: 'public' } | { permission: Permission } | { integration: ApiKeyScope };

/**
 * The integration module's key check (modules/integration/integration-guard.ts), given by the app:
 * a plugin uses no module's code (issue 26: modules talk through their front door).
 */
export type AccessControlOptions = { checkApiKey: (request: FastifyRequest, scope: ApiKeyScope) => Promise<IntegrationKey> };

export type CurrentUser = { id: string; email: string; displayName: string; role: StaffRole };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: 'public';
    permission?: Permission;
    /** Integration routes: the scope the calling API key must carry. */
    integration?: ApiKeyScope;
    /**
     * The route reads the caller's account in its own first round trip to the database, through
     * `request.pendingAccountCheck` (decision 028), where the identity provider can; every other
     * answer of the route waits for the usual check first.
     */
    accountCheckInWrite?: true;
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
    /**
     * The account row the guard read for this request (set with `user`), so routes need not read it
     * again; not on an `accountCheckInWrite` route, whose write reads only what the guard decides on.
     */
    account: Account | null;
    /** On an `accountCheckInWrite` route: the guard's check still to run in the route's first batch. */
    pendingAccountCheck: PendingAccountCheck | null;
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
 * Deny by default (CONTRIBUTING.md convention 6): a route registered without `config.access` or
 * `config.permission` makes the app fail to start, and so fails every test.
 *
 * For a guarded route the identity provider verifies the token and reads the account's CURRENT role
 * and status from the database, so a demoted or disabled account loses access on its next request.
 */
export const accessControlPlugin = fp<AccessControlOptions>(async (app, options) => {
  app.decorateRequest('user', null);
  app.decorateRequest('idToken', null);
  app.decorateRequest('sessionId', null);
  app.decorateRequest('account', null);
  app.decorateRequest('apiKey', null);
  app.decorateRequest('pendingAccountCheck', null);

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
      request.apiKey = await options.checkApiKey(request, scope);
      return;
    }
    const permission = request.routeOptions.config.permission;
    if (permission === undefined) return;
    const token = tokenFromRequest(request.headers);
    if (!token) throw unauthenticated('unauthenticated');
    // The provider verifies the token and reads the account as it is NOW (B1): role and status come
    // from our database on every request, whatever the token says. A request that changes something
    // also asks Firebase whether the sign-in was revoked there (decision 023).
    if (request.routeOptions.config.accountCheckInWrite && app.identity.deferAccountCheck) {
      // The token is verified now; the account's read travels with the route's first statements
      // (decision 028), and is decided there exactly as below.
      const deferred = await app.identity.deferAccountCheck(token);
      request.idToken = token;
      request.sessionId = deferred.sessionId;
      request.pendingAccountCheck = new PendingAccountCheck(request, permission, deferred, async () => {
        const { account } = await app.identity.authenticate(token, { checkRevoked: isWrite(request.method) });
        return account;
      });
      return;
    }
    const { account, sessionId } = await app.identity.authenticate(token, { checkRevoked: isWrite(request.method) });
    admit(request, permission, account);
    request.idToken = token;
    request.sessionId = sessionId;
    request.account = account;
  });

  // No answer leaves before the guard's check. An error answer waits for it in the error handler
  // (`PendingAccountCheck.failure`); a success must come from a route that ran it.
  app.addHook('preSerialization', async (request, reply) => {
    const pending = request.pendingAccountCheck;
    if (pending && !pending.isSettled && reply.statusCode < 400) {
      throw new Error(`${request.routeOptions.url ?? request.url} answered before its account check ran`);
    }
  });
});

/** The guard's decision on an account read now: a staff role that has the route's permission. */
function admit(request: FastifyRequest, permission: Permission, account: CheckedAccount): CurrentUser {
  if (!isStaffRole(account.role) || !can(account.role, permission)) throw forbidden();
  request.user = { id: account.id, email: account.email, displayName: account.displayName, role: account.role };
  return request.user;
}

/**
 * The guard's check of an `accountCheckInWrite` route, run by the route (decision 028): it sends
 * `statement` with its own first statements, in the same transaction, and passes its rows to
 * `settle`, which decides as the guard would (401, 403, or the user). Until it has, the request has no
 * `user` (and never an `account` row), and any error answer first runs the usual check (`failure`).
 */
export class PendingAccountCheck {
  private outcome: Promise<CurrentUser> | undefined;

  constructor(
    private readonly request: FastifyRequest,
    private readonly permission: Permission,
    private readonly deferred: DeferredAccountCheck,
    private readonly checkAlone: () => Promise<CheckedAccount>,
  ) {}

  get statement(): BoundStatement {
    return this.deferred.statement;
  }

  get isSettled(): boolean {
    return this.outcome !== undefined;
  }

  /** The guard's decision from the statement's rows: the user, or the 401/403 it throws. */
  settle(rows: Record<string, unknown>[]): CurrentUser {
    try {
      const user = admit(this.request, this.permission, this.deferred.conclude(rows).account);
      this.outcome = Promise.resolve(user);
      return user;
    } catch (error) {
      this.outcome = Promise.reject(error);
      this.outcome.catch(() => undefined);
      throw error;
    }
  }

  /**
   * For an error answer: the check's own 401 or 403 if it fails, else nothing (the answer stands).
   * An error raised before the route's batch (a field, the forgery check) runs the usual check now.
   */
  async failure(): Promise<unknown> {
    this.outcome ??= this.checkAlone().then((account) => admit(this.request, this.permission, account));
    return this.outcome.then(
      () => undefined,
      (error: unknown) => error,
    );
  }
}

/** Requests that change something: with Firebase, their token's revocation is checked at Firebase too. */
function isWrite(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
}

export { AppError };

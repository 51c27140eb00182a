import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.ts';

/**
 * The integration API's rate limits, all in this one place (docs/security.md): `@fastify/rate-limit`'s
 * limiters, called by the key check in access control (plugins/access-control.ts) rather than per
 * route, because a route-level limit keeps a counter per route (seven routes: seven times the limit
 * per key) and never sees a request whose key was refused before it.
 *
 * - Per key, across every integration route together: INTEGRATION_RATE_LIMIT requests a minute. Per
 *   key, not per address: tills behind one shop router share an address (decision record 017).
 * - Per client address, for failed authentication (no key, an unknown or revoked one):
 *   AUTH_RATE_LIMIT failures a minute, like the identity endpoints; beyond it the address is refused
 *   before its key is even looked up, until the minute is over.
 *
 * The counters live in PostgreSQL (the plugin's store, lib/rate-limit-store.ts), so the limits hold
 * across API processes.
 */
export type IntegrationLimits = {
  /**
   * A failed authentication from this address: counted; beyond the limit it answers 429 instead of
   * 401. A good key from the same address is still served (a broken till must not lock out the
   * shop's other tills behind the same router).
   */
  countFailedAuthentication(request: FastifyRequest): Promise<void>;
  /** A request with a live key (`request.apiKey` set): counted against the key, 429 beyond its limit. */
  countKeyRequest(request: FastifyRequest): Promise<void>;
};

const MINUTE_MS = 60_000;

function tooManyRequests(ttlInSeconds: number): AppError {
  return new AppError(429, 'rate_limited', { headers: { 'Retry-After': String(Math.max(1, ttlInSeconds)) } });
}

export function createIntegrationLimits(app: FastifyInstance): IntegrationLimits {
  // RATE_LIMIT_ALLOW names client addresses (the benchmark's); our keys are not addresses, so it is
  // checked against the request's address here rather than against the limiter's key.
  const allowed = new Set(app.env.RATE_LIMIT_ALLOW.split(',').map((entry) => entry.trim()).filter(Boolean));
  const allowList = (request: FastifyRequest) => allowed.has(request.ip);
  const perKey = app.createRateLimit({
    max: app.env.INTEGRATION_RATE_LIMIT,
    timeWindow: MINUTE_MS,
    keyGenerator: (request: FastifyRequest) => `integration-key:${request.apiKey?.id ?? ''}`,
    allowList,
  });
  const failedAuthentication = app.createRateLimit({
    max: app.env.AUTH_RATE_LIMIT,
    timeWindow: MINUTE_MS,
    keyGenerator: (request: FastifyRequest) => `integration-auth:${request.ip}`,
    allowList,
  });
  return {
    async countFailedAuthentication(request) {
      const status = await failedAuthentication(request);
      if (!status.isAllowed && status.isExceeded) throw tooManyRequests(status.ttlInSeconds);
    },
    async countKeyRequest(request) {
      const status = await perKey(request);
      if (!status.isAllowed && status.isExceeded) throw tooManyRequests(status.ttlInSeconds);
    },
  };
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiKeyScope } from '@sf/contract/integration';
import { AppError, forbidden } from '../../lib/errors.ts';
import { authenticateApiKey, type IntegrationKey } from './api-keys.service.ts';
import { createIntegrationLimits, type IntegrationLimits } from './integration-limits.ts';

/**
 * The integration routes' guard, which access control calls for a route declaring
 * `config.integration` (the app hands it to the plugin: plugins/access-control.ts).
 */
export function createIntegrationGuard(app: FastifyInstance) {
  // Made on the first integration request: the limiters come from @fastify/rate-limit, registered by the app.
  let integrationLimits: IntegrationLimits | undefined;
  const limits = () => (integrationLimits ??= createIntegrationLimits(app));

  /**
   * Integration routes: `Authorization: Bearer <key>`, looked up on every request (one index read),
   * so a revoked key is refused on its next request; then the rate limits (per key across all
   * routes, per address for failures: integration-limits.ts), the key's merchant (active only), and
   * the route's scope.
   */
  return async function checkApiKey(request: FastifyRequest, scope: ApiKeyScope): Promise<IntegrationKey> {
    const authorization = request.headers['authorization'];
    const secret = typeof authorization === 'string' && authorization.startsWith('Bearer ') ? authorization.slice(7).trim() : '';
    const invalid = async (code: 'unauthenticated' | 'invalid_token') => {
      await limits().countFailedAuthentication(request);
      return new AppError(401, code, { text: 'invalid_api_key', headers: { 'WWW-Authenticate': 'Bearer realm="integration"' } });
    };
    if (!secret) throw await invalid('unauthenticated');
    const found = await authenticateApiKey(
      { db: app.db, clock: app.clock, timeZone: app.env.BUSINESS_TIME_ZONE, pepper: app.apiKeyPepper },
      secret,
    );
    if (!found) throw await invalid('invalid_token');
    const { merchantStatus, ...key } = found;
    request.apiKey = key;
    await limits().countKeyRequest(request);
    // A key acts only while its merchant is active: a suspended or archived merchant's till stops.
    if (key.merchantId !== null && merchantStatus !== 'active') {
      throw forbidden('merchant_inactive');
    }
    if (!key.scopes.includes(scope)) {
      throw forbidden('scope_missing');
    }
    return key;
  };
}

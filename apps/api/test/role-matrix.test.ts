import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { can, type Permission } from '@sf/contract/roles';
import { API_KEY_SCOPES, type ApiKeyScope } from '@sf/contract/integration';
import { accessControlPlugin } from '../src/plugins/access-control.ts';
import { createTestContext } from './helper.ts';
import { uniquePartitaIva } from './ledger-fixtures.ts';
import { concretePath, createRouteCollector, isMutating, type CatalogRoute } from './route-catalog.ts';

// Built while the file is collected, so that every route becomes its own named test.
const collector = createRouteCollector();
const ctx = await createTestContext({ onRoute: collector.onRoute, env: { RATE_LIMIT_ALLOW: '127.0.0.1' } });
const routes = collector.routes;
const guarded = routes.filter((route): route is CatalogRoute & { access: Permission } => route.access !== 'public');
const publicRoutes = routes.filter((route) => route.access === 'public');

type Caller = 'anonymous' | 'expired' | 'member' | 'editor' | 'admin';
const tokens: Partial<Record<Caller, string>> = {};

beforeAll(async () => {
  tokens.member = await ctx.tokenFor('member@demo.test');
  tokens.editor = await ctx.tokenFor('editor@demo.test');
  tokens.admin = await ctx.tokenFor('admin@demo.test');
  tokens.expired = await ctx.tokenFor('admin@demo.test', { ttlSeconds: 60, now: new Date(Date.now() - 2 * 3600_000) });
});
afterAll(() => ctx.close());

function call(route: CatalogRoute, caller: Caller) {
  const token = tokens[caller];
  return ctx.request({
    method: route.method as 'GET',
    url: concretePath(route),
    ...(token ? { token } : {}),
    ...(isMutating(route.method) ? { payload: {} } : {}),
  });
}

const label = (route: CatalogRoute) => `${route.method} ${route.url}`;

describe('the role matrix over every /api route', () => {
  it('finds both public and guarded routes to check', () => {
    expect(publicRoutes.map(label)).toContain('GET /api/healthz');
    expect(guarded.length).toBeGreaterThan(0);
  });

  it('checks every route of the ledger with its own permission, all admin-only', () => {
    const byLabel = new Map(guarded.map((route) => [label(route), route.access]));
    const ledger = {
      'GET /api/admin/ledger': 'ledger:read',
      'POST /api/admin/ledger': 'ledger:write',
      'POST /api/admin/ledger/:id/reversal': 'ledger:write',
      'GET /api/admin/ledger/export.csv': 'ledger:read',
      'GET /api/admin/customers/:id/memberships': 'ledger:read',
    };
    expect(Object.fromEntries(Object.keys(ledger).map((route) => [route, byLabel.get(route)]))).toEqual(ledger);
    for (const permission of ['ledger:read', 'ledger:write', 'points:adjust'] as const) {
      expect(can('admin', permission)).toBe(true);
      expect(can('editor', permission)).toBe(false);
    }
  });

  it('checks every route of the Staff screen and its invitations (admin-only) and the invitee’s public routes', () => {
    const byLabel = new Map(routes.map((route) => [label(route), route.access]));
    const staff = {
      'GET /api/admin/staff': 'staff:manage',
      'GET /api/admin/staff/export.csv': 'staff:manage',
      'PATCH /api/admin/staff/:id': 'staff:manage',
      'GET /api/admin/staff/invitations': 'staff:manage',
      'GET /api/admin/staff/invitations/export.csv': 'staff:manage',
      'POST /api/admin/staff/invitations': 'staff:manage',
      'POST /api/admin/staff/invitations/:id/resend': 'staff:manage',
      'DELETE /api/admin/staff/invitations/:id': 'staff:manage',
      'POST /api/auth/invitation/details': 'public',
      'POST /api/auth/invitation/accept': 'public',
    };
    expect(Object.fromEntries(Object.keys(staff).map((route) => [route, byLabel.get(route)]))).toEqual(staff);
    expect(can('admin', 'staff:manage')).toBe(true);
    expect(can('editor', 'staff:manage')).toBe(false);
  });

  it('checks every route of the loyalty anagrafiche and every list export, all admin-only', () => {
    const loyalty = [
      'GET /api/admin/merchants',
      'POST /api/admin/merchants',
      'GET /api/admin/merchants/export.csv',
      'GET /api/admin/merchants/:id',
      'PATCH /api/admin/merchants/:id',
      'DELETE /api/admin/merchants/:id',
      'GET /api/admin/customers',
      'POST /api/admin/customers',
      'GET /api/admin/customers/export.csv',
      'GET /api/admin/customers/:id',
      'PATCH /api/admin/customers/:id',
      'POST /api/admin/customers/:id/consents',
      'GET /api/admin/customers/:id/consents',
      'GET /api/admin/programs',
      'POST /api/admin/programs',
      'GET /api/admin/programs/export.csv',
      'GET /api/admin/programs/:id',
      'PATCH /api/admin/programs/:id',
      'GET /api/admin/audit/export.csv',
      'GET /api/admin/staff/export.csv',
    ];
    const byLabel = new Map(guarded.map((route) => [label(route), route.access]));
    for (const route of loyalty) {
      expect(byLabel.has(route), route).toBe(true);
      expect(can('editor', byLabel.get(route) as Permission), route).toBe(false);
    }
    expect(byLabel.get('GET /api/admin/news/export.csv')).toBe('news:read');
  });

  it('checks every route of rewards, vouchers, redemptions and social proofs with its own permission, all admin-only', () => {
    const byLabel = new Map(guarded.map((route) => [label(route), route.access]));
    const rewards = {
      'GET /api/admin/rewards': 'rewards:read',
      'POST /api/admin/rewards': 'rewards:write',
      'GET /api/admin/rewards/export.csv': 'rewards:read',
      'POST /api/admin/rewards/image': 'rewards:write',
      'GET /api/admin/rewards/:id': 'rewards:read',
      'PATCH /api/admin/rewards/:id': 'rewards:write',
      'GET /api/admin/rewards/:id/vouchers': 'rewards:read',
      'GET /api/admin/rewards/:id/vouchers/export.csv': 'rewards:read',
      'POST /api/admin/rewards/:id/vouchers': 'rewards:write',
      'POST /api/admin/rewards/:id/vouchers/:voucherId/void': 'rewards:write',
      'POST /api/admin/redemptions': 'rewards:redeem',
      'GET /api/admin/vouchers/:code': 'vouchers:use',
      'POST /api/admin/vouchers/:code/use': 'vouchers:use',
      'GET /api/admin/social-proofs': 'proofs:read',
      'GET /api/admin/social-proofs/export.csv': 'proofs:read',
      'POST /api/admin/social-proofs': 'proofs:decide',
      'POST /api/admin/social-proofs/image': 'proofs:decide',
      'POST /api/admin/social-proofs/decisions': 'proofs:decide',
    } satisfies Record<string, Permission>;
    expect(Object.fromEntries(Object.keys(rewards).map((route) => [route, byLabel.get(route)]))).toEqual(rewards);
    for (const permission of new Set<Permission>(Object.values(rewards))) {
      expect(can('admin', permission)).toBe(true);
      expect(can('editor', permission)).toBe(false);
    }
  });

  it('checks every route of the privacy requests and the imports with their own permissions, all admin-only', () => {
    const byLabel = new Map(guarded.map((route) => [label(route), route.access]));
    const routes = {
      'GET /api/admin/privacy-requests': 'privacy:read',
      'POST /api/admin/privacy-requests': 'privacy:write',
      'GET /api/admin/privacy-requests/export.csv': 'privacy:read',
      'GET /api/admin/privacy-requests/:id': 'privacy:read',
      'PATCH /api/admin/privacy-requests/:id': 'privacy:write',
      'POST /api/admin/privacy-requests/:id/actions': 'privacy:write',
      'GET /api/admin/imports': 'imports:read',
      'POST /api/admin/imports': 'imports:write',
      'GET /api/admin/imports/:id': 'imports:read',
      'GET /api/admin/imports/:id/errors.csv': 'imports:read',
      'POST /api/admin/imports/:id/start': 'imports:write',
      'POST /api/admin/imports/:id/cancel': 'imports:write',
    };
    expect(Object.fromEntries(Object.keys(routes).map((route) => [route, byLabel.get(route)]))).toEqual(routes);
    for (const permission of Object.values(routes)) {
      expect(can('admin', permission as Permission)).toBe(true);
      expect(can('editor', permission as Permission)).toBe(false);
    }
  });

  describe.each(publicRoutes.map((route) => [label(route), route] as const))('public route %s', (_name, route) => {
    it.each(['anonymous', 'expired', 'member', 'editor', 'admin'] as const)(
      'answers the %s caller with neither 401 nor 403',
      async (caller) => {
        const response = await call(route, caller);
        expect([401, 403], response.body).not.toContain(response.statusCode);
      },
    );
  });

  describe.each(guarded.map((route) => [`${label(route)} (${route.access})`, route] as const))(
    'guarded route %s',
    (_name, route) => {
      it('answers 401 unauthenticated without a token', async () => {
        const response = await call(route, 'anonymous');
        expect(response.statusCode).toBe(401);
        expect(response.json().error.code).toBe('unauthenticated');
      });

      it('answers 401 token_expired for an expired token', async () => {
        const response = await call(route, 'expired');
        expect(response.statusCode).toBe(401);
        expect(response.json().error.code).toBe('token_expired');
      });

      it('answers 403 forbidden to a member, whose role may not sign in', async () => {
        const response = await call(route, 'member');
        expect(response.statusCode).toBe(403);
        expect(response.json().error.code).toBe('forbidden');
      });

      it.each(['editor', 'admin'] as const)('lets an %s through exactly when the contract grants the permission', async (caller) => {
        const response = await call(route, caller);
        if (can(caller, route.access)) {
          expect([401, 403], response.body).not.toContain(response.statusCode);
        } else {
          expect(response.statusCode, response.body).toBe(403);
          expect(response.json().error.code).toBe('forbidden');
        }
      });
    },
  );
});

describe('the integration API: an API key with the route\'s scope, never a staff session', () => {
  const integration = collector.integrationRoutes;
  const keys: Partial<Record<ApiKeyScope, string>> = {};

  beforeAll(async () => {
    const merchant = await ctx.request({
      method: 'POST',
      url: '/api/admin/merchants',
      token: tokens.admin!,
      payload: {
        legalName: 'Matrice S.r.l.',
        vatNumber: uniquePartitaIva(),
        category: 'bar',
        address: { street: 'Via Roma 1', city: 'Bologna', province: 'BO', postalCode: '40121' },
      },
    });
    const merchantId = merchant.json().id as string;
    const create = async (scopes: ApiKeyScope[]) => {
      // Signing customers up is the customers' app's alone: a merchant's key may not hold that scope.
      const isApp = scopes.includes('customers:write');
      const response = await ctx.request({
        method: 'POST',
        url: '/api/admin/api-keys',
        token: tokens.admin!,
        payload: { name: `matrice ${scopes.join(' ')}`, kind: isApp ? 'app' : 'merchant', ...(isApp ? {} : { merchantId }), scopes },
      });
      return (response.json() as { secret: string }).secret;
    };
    for (const scope of API_KEY_SCOPES) keys[scope] = await create([scope]);
  });

  it('finds the integration routes and the API keys routes, admin-only', () => {
    expect(integration.map((route) => `${route.method} ${route.url}`)).toEqual(
      expect.arrayContaining(['POST /api/integration/v1/purchases', 'GET /api/integration/v1/cards/:cardNumber']),
    );
    const byLabel = new Map(guarded.map((route) => [label(route), route.access]));
    for (const route of ['GET /api/admin/api-keys', 'POST /api/admin/api-keys', 'GET /api/admin/api-keys/export.csv', 'DELETE /api/admin/api-keys/:id']) {
      expect(byLabel.get(route), route).toBe('apikeys:manage');
    }
    expect(can('admin', 'apikeys:manage')).toBe(true);
    expect(can('editor', 'apikeys:manage')).toBe(false);
  });

  const send = (route: CatalogRoute, authorization?: string, staffToken?: string) =>
    ctx.app.inject({
      method: route.method as 'GET',
      url: concretePath(route).replace(/\/x$|\/1$/, '/2790000000018'),
      headers: {
        ...(authorization ? { authorization } : {}),
        ...(staffToken ? { 'x-auth-token': staffToken } : {}),
        'idempotency-key': 'matrice-0001',
      },
      ...(isMutating(route.method) ? { payload: {} } : {}),
    });

  describe.each(collector.integrationRoutes.map((route) => [`${label(route)} (${route.scope})`, route] as const))('integration route %s', (_name, route) => {
    it('answers 401 without a key, and to an admin\'s session token (header or bearer)', async () => {
      expect((await send(route)).statusCode).toBe(401);
      expect((await send(route, undefined, tokens.admin)).statusCode).toBe(401);
      expect((await send(route, `Bearer ${tokens.admin}`)).statusCode).toBe(401);
    });

    it('answers 403 to a key without the route\'s scope, and lets a key with it through', async () => {
      const route_ = route as CatalogRoute & { scope: ApiKeyScope };
      const without = API_KEY_SCOPES.find((scope) => scope !== route_.scope)!;
      const refused = await send(route, `Bearer ${keys[without]}`);
      expect(refused.statusCode, refused.body).toBe(403);
      const allowed = await send(route, `Bearer ${keys[route_.scope]}`);
      expect([401, 403], allowed.body).not.toContain(allowed.statusCode);
    });
  });
});

describe('deny by default', () => {
  /** Registers one /api route under the access-control plugin and starts the app. */
  async function start(config: Record<string, unknown> | undefined) {
    const app = Fastify();
    // No integration route here: the key check is never called.
    await app.register(accessControlPlugin, { checkApiKey: () => Promise.reject(new Error('not an integration route')) });
    app.get('/api/probe', config ? { config } : {}, async () => ({ isOk: true }));
    await app.ready();
    return app;
  }

  it('refuses to start when an /api route declares neither access nor permission', async () => {
    await expect(start(undefined)).rejects.toThrow(/GET \/api\/probe declares neither/);
  });

  it('starts when the same route declares it is public', async () => {
    const app = await start({ access: 'public' });
    const response = await app.inject({ method: 'GET', url: '/api/probe' });
    expect(response.statusCode).toBe(200);
    await app.close();
  });
});

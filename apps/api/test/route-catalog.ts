import type { RouteOptions } from 'fastify';
import { z } from 'zod';
import type { Permission } from '@sf/contract/roles';
import type { ApiKeyScope } from '@sf/contract/integration';

/** One /api route as it was registered: what the platform tests iterate over. */
export type CatalogRoute = {
  method: string;
  url: string;
  /** 'public', or the permission the route demands. */
  access: 'public' | Permission;
  body?: z.ZodType;
  querystring?: z.ZodType;
  params?: z.ZodType;
};

/** Plugin routes (Swagger UI) carry no config of ours and are public files. */
const IGNORED_PREFIXES = ['/api/docs'];

/**
 * Collects every /api route through buildApp's `onRoute` option, so the platform tests cover the
 * routes other modules add without being edited.
 */
export function createRouteCollector() {
  const routes: CatalogRoute[] = [];
  /**
   * Integration API routes (an API key, not a staff session): kept apart, since the staff-token checks
   * (roles, forgery protection, field errors as admin) do not apply; the role matrix checks them apart.
   */
  const integrationRoutes: (CatalogRoute & { scope: ApiKeyScope })[] = [];
  const onRoute = (route: RouteOptions) => {
    if (!route.url.startsWith('/api/') || IGNORED_PREFIXES.some((prefix) => route.url.startsWith(prefix))) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const schema = (route.schema ?? {}) as { body?: z.ZodType; querystring?: z.ZodType; params?: z.ZodType };
    const config = route.config as { access?: 'public'; permission?: Permission; integration?: ApiKeyScope; walletDevice?: true } | undefined;
    // Apple's PassKit web service (a device with the pass's ApplePass token, no cookie): kept apart
    // like the integration API; wallet/passkit.routes.test.ts checks it.
    if (config?.walletDevice) return;
    if (config?.integration !== undefined) {
      for (const method of methods) {
        if (method !== 'HEAD') integrationRoutes.push({ method: String(method), url: route.url, access: 'public', scope: config.integration });
      }
      return;
    }
    for (const method of methods) {
      // Fastify adds HEAD beside every GET; it follows the GET's rules.
      if (method === 'HEAD') continue;
      routes.push({
        method: String(method),
        url: route.url,
        access: config?.permission ?? 'public',
        ...(schema.body ? { body: schema.body } : {}),
        ...(schema.querystring ? { querystring: schema.querystring } : {}),
        ...(schema.params ? { params: schema.params } : {}),
      });
    }
  };
  return { routes, integrationRoutes, onRoute };
}

type JsonSchema = { type?: string | string[]; format?: string; properties?: Record<string, JsonSchema>; required?: string[] };

/** The JSON Schema of a zod schema as the client sends it (input side), or {} when it has none. */
export function jsonSchemaOf(schema: z.ZodType | undefined): JsonSchema {
  if (!schema) return {};
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch {
    return {};
  }
}

/** Top-level property names of a route's body or query schema. */
export function propertyNames(schema: z.ZodType | undefined): string[] {
  return Object.keys(jsonSchemaOf(schema).properties ?? {});
}

export const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000001';

/** Values for path parameters: an id that the demo data has, or one that nothing has. */
export const EXISTING_ID = { numeric: '1', uuid: UNKNOWN_UUID };
export const MISSING_ID = { numeric: '987654321', uuid: '7d3a4e2c-9b1f-4c6a-8e5d-2f0b1a9c8e7d' };

/** The route's path with its parameters filled: a uuid where the schema wants one, the first value of an enum, else a number. */
export function concretePath(route: CatalogRoute, fill: { numeric: string; uuid: string } = EXISTING_ID): string {
  const params = jsonSchemaOf(route.params).properties ?? {};
  const valueOf = (name: string) => {
    const param = params[name];
    if (param?.format === 'uuid') return fill.uuid;
    const first = (param as { enum?: unknown[] } | undefined)?.enum?.[0];
    return typeof first === 'string' ? first : fill.numeric;
  };
  return route.url
    .replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => valueOf(name))
    .replace(/\*$/, 'x');
}

export function isMutating(method: string): boolean {
  return !['GET', 'HEAD', 'OPTIONS'].includes(method);
}

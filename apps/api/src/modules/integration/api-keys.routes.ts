import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { uuidParamSchema } from '@sf/contract/list-query';
import {
  apiKeyPageSchema,
  apiKeySchema,
  createApiKeySchema,
  createdApiKeySchema,
  exportApiKeysQuerySchema,
  listApiKeysQuerySchema,
} from '@sf/contract/integration';
import { callerOf } from '../../lib/caller.ts';
import { registerListRoutes } from '../../lib/list-routes.ts';
import { apiKeyExportColumns, apiKeyExportQuery } from './api-keys.repository.ts';
import { createApiKey, listApiKeys, revokeApiKey, type ApiKeyDeps } from './api-keys.service.ts';

export function apiKeyDeps(app: FastifyInstance): ApiKeyDeps {
  return { db: app.db, clock: app.clock, timeZone: app.env.BUSINESS_TIME_ZONE, pepper: app.apiKeyPepper };
}

/** Chiavi API (admin only): list, export, create (the secret is shown once), revoke. */
export const apiKeyRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = apiKeyDeps(app);

  registerListRoutes(app, {
    tags: ['api-keys'],
    permission: 'apikeys:manage',
    list: {
      summary: 'List the integration API keys: paging, sort, search (name, prefix, merchant), filters status/kind/merchant',
      querystring: listApiKeysQuerySchema,
      response: apiKeyPageSchema,
      page: ({ query }) => listApiKeys(deps, query),
    },
    export: {
      summary: 'The list as CSV for Italian Excel (`;`, BOM, dd/MM/yyyy), with the same search, filters and sort',
      querystring: exportApiKeysQuerySchema,
      fileName: 'chiavi-api.csv',
      prepare: ({ query, request }) => {
        const columns = apiKeyExportColumns(request.language, deps.timeZone);
        return { columns, query: (tx) => apiKeyExportQuery(tx, columns, query) };
      },
    },
  });

  app.post(
    '/',
    {
      config: { permission: 'apikeys:manage' },
      schema: {
        tags: ['api-keys'],
        summary: 'Create a key for a merchant (its till) or for the customers\u2019 app; the answer shows the secret once',
        body: createApiKeySchema,
        response: { 201: createdApiKeySchema },
      },
    },
    async (request, reply) => reply.code(201).send(await createApiKey(deps, callerOf(request), request.body)),
  );

  app.delete(
    '/:id',
    {
      config: { permission: 'apikeys:manage' },
      schema: {
        tags: ['api-keys'],
        summary: 'Revoke a key at once: its next request answers 401. The key stays listed as revoked',
        params: uuidParamSchema,
        response: { 200: apiKeySchema },
      },
    },
    async (request) => revokeApiKey(deps, callerOf(request), request.params.id),
  );
};

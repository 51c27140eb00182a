import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { uuidParamSchema } from '@sf/contract/list-query';
import {
  createMerchantSchema,
  exportMerchantsQuerySchema,
  listMerchantsQuerySchema,
  merchantPageSchema,
  merchantSchema,
  updateMerchantSchema,
} from '@sf/contract/merchants';
import { callerOf, depsOf } from '../../lib/caller.ts';
import { registerListRoutes } from '../../lib/list-routes.ts';
import { merchantExportColumns, merchantExportQuery } from './merchants.repository.ts';
import { createMerchant, deleteMerchant, getMerchant, listMerchants, updateMerchant } from './merchants.service.ts';

/** Esercenti (admin): list, export, create, edit (status: suspend / reactivate / archive), delete. */
export const merchantRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = depsOf(app);

  registerListRoutes(app, {
    tags: ['merchants'],
    permission: 'merchants:read',
    list: {
      summary: 'List merchants: paging, sort, search (name, sign, P.IVA, city, e-mail), filters status/category/province',
      querystring: listMerchantsQuerySchema,
      response: merchantPageSchema,
      page: ({ query }) => listMerchants(deps, query),
    },
    export: {
      summary: 'The list as CSV for Italian Excel (`;`, BOM, dd/MM/yyyy), with the same search, filters and sort',
      querystring: exportMerchantsQuerySchema,
      fileName: 'esercenti.csv',
      prepare: ({ query, request }) => {
        const columns = merchantExportColumns(request.language, deps.timeZone);
        return { columns, query: (tx) => merchantExportQuery(tx, columns, query) };
      },
    },
  });

  app.post(
    '/',
    {
      config: { permission: 'merchants:write' },
      schema: { tags: ['merchants'], summary: 'Create a merchant', body: createMerchantSchema, response: { 201: merchantSchema } },
    },
    async (request, reply) => reply.code(201).send(await createMerchant(deps, callerOf(request), request.body)),
  );

  app.get(
    '/:id',
    {
      config: { permission: 'merchants:read' },
      schema: { tags: ['merchants'], summary: 'One merchant', params: uuidParamSchema, response: { 200: merchantSchema } },
    },
    async (request) => getMerchant(deps, callerOf(request), request.params.id),
  );

  app.patch(
    '/:id',
    {
      config: { permission: 'merchants:write' },
      schema: {
        tags: ['merchants'],
        summary: 'Change a merchant, or its status (suspend / reactivate / archive); `version` as read (409 version_conflict)',
        params: uuidParamSchema,
        body: updateMerchantSchema,
        response: { 200: merchantSchema },
      },
    },
    async (request) => updateMerchant(deps, callerOf(request), request.params.id, request.body),
  );

  app.delete(
    '/:id',
    {
      config: { permission: 'merchants:write' },
      schema: {
        tags: ['merchants'],
        summary: 'Delete a merchant without ledger entries (204); one with entries answers 409 has_ledger_entries: archive it',
        params: uuidParamSchema,
        response: { 204: z.null().describe('Deleted') },
      },
    },
    async (request, reply) => {
      await deleteMerchant(deps, callerOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};

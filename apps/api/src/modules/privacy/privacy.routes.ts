import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { uuidParamSchema } from '@sf/contract/list-query';
import {
  createPrivacyRequestSchema,
  exportPrivacyRequestsQuerySchema,
  listPrivacyRequestsQuerySchema,
  privacyActionInputSchema,
  privacyActionResultSchema,
  privacyRequestPageSchema,
  privacyRequestSchema,
  updatePrivacyRequestSchema,
} from '@sf/contract/privacy';
import { callerOf, depsOf } from '../../lib/caller.ts';
import { registerListRoutes } from '../../lib/list-routes.ts';
import { privacyExportColumns, privacyExportQuery } from './privacy.repository.ts';
import {
  PRIVACY_ENTITY,
  createPrivacyRequest,
  getPrivacyRequest,
  listPrivacyRequests,
  runPrivacyAction,
  updatePrivacyRequest,
} from './privacy.service.ts';

/** Richieste privacy (admin): the GDPR queue, its export, and the actions on a request. */
export const privacyRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = depsOf(app);

  registerListRoutes(app, {
    tags: ['privacy'],
    permission: 'privacy:read',
    list: {
      summary: 'List GDPR requests: q (customer), kind, status, isPending, customerId; sorted by due date by default',
      querystring: listPrivacyRequestsQuerySchema,
      response: privacyRequestPageSchema,
      page: ({ query }) => listPrivacyRequests(deps, query),
    },
    export: {
      summary: 'The queue as CSV for Italian Excel, with its search, filters and sort (audited)',
      querystring: exportPrivacyRequestsQuerySchema,
      fileName: 'richieste-privacy.csv',
      prepare: ({ query, request }) => {
        const columns = privacyExportColumns(request.language, deps.timeZone);
        return { columns, query: (tx) => privacyExportQuery(tx, columns, query) };
      },
      auditEntity: PRIVACY_ENTITY,
    },
  });

  app.post(
    '/',
    {
      config: { permission: 'privacy:write' },
      schema: {
        tags: ['privacy'],
        summary: 'Record a request received from a customer: due one month after receipt',
        body: createPrivacyRequestSchema,
        response: { 201: privacyRequestSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await createPrivacyRequest(deps, callerOf(request), request.body)),
  );

  app.get(
    '/:id',
    {
      config: { permission: 'privacy:read' },
      schema: { tags: ['privacy'], summary: 'One request', params: uuidParamSchema, response: { 200: privacyRequestSchema } },
    },
    async (request) => getPrivacyRequest(deps, request.params.id),
  );

  app.patch(
    '/:id',
    {
      config: { permission: 'privacy:write' },
      schema: {
        tags: ['privacy'],
        summary: 'Notes, status (open / in_progress), or the one extension by two months with extensionReason; `version` as read',
        params: uuidParamSchema,
        body: updatePrivacyRequestSchema,
        response: { 200: privacyRequestSchema },
      },
    },
    async (request) => updatePrivacyRequest(deps, callerOf(request), request.params.id, request.body),
  );

  app.post(
    '/:id/actions',
    {
      config: { permission: 'privacy:write' },
      schema: {
        tags: ['privacy'],
        summary: 'export (JSON of everything held on the person) / erase (anonymise, ledger figures kept) / restrict / lift / close',
        params: uuidParamSchema,
        body: privacyActionInputSchema,
        response: { 200: privacyActionResultSchema },
      },
    },
    async (request) => runPrivacyAction({ ...deps, dataDir: app.env.dataDir }, callerOf(request), request.params.id, request.body),
  );
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditPageSchema, exportAuditQuerySchema, listAuditQuerySchema } from '@sf/contract/audit';
import { registerListRoutes } from '../../lib/list-routes.ts';
import { auditExportColumns, auditExportQuery } from './audit.repository.ts';
import { auditFilterOf } from './audit.service.ts';
import { listAuditWithRecords } from './audit-records.service.ts';

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  registerListRoutes(app, {
    tags: ['audit'],
    permission: 'audit:read',
    hasPeriod: true,
    list: {
      summary: 'Audit log (admin only): every change by staff, newest first',
      description:
        'Filters: actor (account id or e-mail), entity (entity type, e.g. news_post), entityId, action (exact, e.g. read for the reads of personal data, or a prefix ending with a dot, e.g. ledger.), from/to (ISO date-times, both inclusive). Each entry names its record (`record`: a customer, merchant, program, reward, news post, campaign, staff account, invitation or API key by its name while it exists; a membership, ledger entry, voucher, social proof, privacy request or import by its customer, reward or file name and its `parts`; an erased customer without a name), and the records its before/after point at (`references`, by kind and id: a `customerId`, a `membershipId`, …).',
      querystring: listAuditQuerySchema,
      response: auditPageSchema,
      page: ({ query }) => listAuditWithRecords({ db: app.db }, query),
    },
    export: {
      summary: 'The audit log as CSV for Italian Excel, newest first, with the same filters',
      querystring: exportAuditQuerySchema,
      fileName: 'audit.csv',
      prepare: ({ query, request }) => {
        const columns = auditExportColumns(request.language, app.env.BUSINESS_TIME_ZONE);
        const filter = auditFilterOf(query);
        return { columns, query: (tx) => auditExportQuery(tx, columns, filter) };
      },
    },
  });
};

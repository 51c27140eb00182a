import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditPageSchema, exportAuditQuerySchema, listAuditQuerySchema } from '@sf/contract/audit';
import { registerListRoutes } from '../../lib/list-routes.ts';
import { auditExportColumns, auditExportQuery, findAuditEntries, toAuditEntry, type AuditFilter } from './audit.repository.ts';

/** The list's query as the repository's filter (the period's order is checked by the list routes). */
function filterOf(query: {
  actor?: string | undefined;
  entity?: string | undefined;
  action?: string | undefined;
  entityId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}): AuditFilter {
  return {
    ...(query.actor ? { actor: query.actor } : {}),
    ...(query.entity ? { entity: query.entity } : {}),
    ...(query.action ? { action: query.action } : {}),
    ...(query.entityId ? { entityId: query.entityId } : {}),
    ...(query.from ? { from: new Date(query.from) } : {}),
    ...(query.to ? { to: new Date(query.to) } : {}),
  };
}

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  registerListRoutes(app, {
    tags: ['audit'],
    permission: 'audit:read',
    hasPeriod: true,
    list: {
      summary: 'Audit log (admin only): every change by staff, newest first',
      description:
        'Filters: actor (account id or e-mail), entity (entity type, e.g. news_post), entityId, action (exact, e.g. read for the reads of personal data, or a prefix ending with a dot, e.g. ledger.), from/to (ISO date-times, both inclusive).',
      querystring: listAuditQuerySchema,
      response: auditPageSchema,
      page: async ({ query }) => {
        const { page, pageSize } = query;
        const { rows, total } = await findAuditEntries(app.db, filterOf(query), { page, pageSize });
        return { items: rows.map(toAuditEntry), total, page, pageSize };
      },
    },
    export: {
      summary: 'The audit log as CSV for Italian Excel, newest first, with the same filters',
      querystring: exportAuditQuerySchema,
      fileName: 'audit.csv',
      prepare: ({ query }) => {
        const columns = auditExportColumns(app.env.BUSINESS_TIME_ZONE);
        const filter = filterOf(query);
        return { columns, query: (tx) => auditExportQuery(tx, columns, filter) };
      },
    },
  });
};

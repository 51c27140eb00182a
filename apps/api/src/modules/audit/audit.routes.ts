import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditPageSchema, exportAuditQuerySchema, listAuditQuerySchema } from '@sf/contract/audit';
import type { Language } from '@sf/contract/app-info';
import { sendCsv } from '../../db/csv-export.ts';
import { message } from '@sf/contract/messages';
import { validationFailed } from '../../lib/errors.ts';
import { auditExportColumns, auditExportQuery, findAuditEntries, toAuditEntry, type AuditFilter } from './audit.repository.ts';

function filterOf(
  query: { actor?: string | undefined; entity?: string | undefined; action?: string | undefined; entityId?: string | undefined; from?: string | undefined; to?: string | undefined },
  language: Language,
): AuditFilter {
  const from = query.from ? new Date(query.from) : undefined;
  const to = query.to ? new Date(query.to) : undefined;
  if (from && to && from.getTime() > to.getTime()) {
    const text = message('invalid', language, { field: 'to' });
    throw validationFailed(text, [{ field: 'to', message: text }]);
  }
  return {
    ...(query.actor ? { actor: query.actor } : {}),
    ...(query.entity ? { entity: query.entity } : {}),
    ...(query.action ? { action: query.action } : {}),
    ...(query.entityId ? { entityId: query.entityId } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
}

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/',
    {
      config: { permission: 'audit:read' },
      schema: {
        tags: ['audit'],
        summary: 'Audit log (admin only): every change by staff, newest first',
        description:
          'Filters: actor (account id or e-mail), entity (entity type, e.g. news_post), entityId, action (exact, e.g. read for the reads of personal data, or a prefix ending with a dot, e.g. ledger.), from/to (ISO date-times, both inclusive).',
        querystring: listAuditQuerySchema,
        response: { 200: auditPageSchema },
      },
    },
    async (request) => {
      const { page, pageSize } = request.query;
      const { rows, total } = await findAuditEntries(app.db, filterOf(request.query, request.language), { page, pageSize });
      return { items: rows.map(toAuditEntry), total, page, pageSize };
    },
  );

  app.get(
    '/export.csv',
    {
      config: { permission: 'audit:read' },
      schema: {
        tags: ['audit'],
        summary: 'The audit log as CSV for Italian Excel, newest first, with the same filters',
        querystring: exportAuditQuerySchema,
      },
    },
    async (request, reply) => {
      const columns = auditExportColumns(app.env.BUSINESS_TIME_ZONE);
      const filter = filterOf(request.query, request.language);
      return sendCsv(reply, {
        db: app.db,
        fileName: 'audit.csv',
        language: request.language,
        columns,
        query: (tx) => auditExportQuery(tx, columns, filter),
      });
    },
  );
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditPageSchema, listAuditQuerySchema } from '@sf/contract/audit';
import { message } from '@sf/contract/messages';
import { validationFailed } from '../../lib/errors.ts';
import { findAuditEntries, toAuditEntry } from './audit.repository.ts';

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/',
    {
      config: { permission: 'audit:read' },
      schema: {
        tags: ['audit'],
        summary: 'Audit log (admin only): every change by staff, newest first',
        description:
          'Filters: actor (account id or e-mail), entity (entity type, e.g. news_post), from/to (ISO date-times, both inclusive).',
        querystring: listAuditQuerySchema,
        response: { 200: auditPageSchema },
      },
    },
    async (request) => {
      const { page, pageSize, actor, entity } = request.query;
      const from = request.query.from ? new Date(request.query.from) : undefined;
      const to = request.query.to ? new Date(request.query.to) : undefined;
      if (from && to && from.getTime() > to.getTime()) {
        const text = message('invalid', request.language, { field: 'to' });
        throw validationFailed(text, [{ field: 'to', message: text }]);
      }
      const { rows, total } = await findAuditEntries(app.db, { actor, entity, from, to }, { page, pageSize });
      return { items: rows.map(toAuditEntry), total, page, pageSize };
    },
  );
};

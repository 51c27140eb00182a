import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { desc } from 'drizzle-orm';
import { dashboardSchema } from '@sf/contract/dashboard';
import { auditLog } from '../../db/schema.ts';
import { countByEffectiveStatus, findNextScheduled, toNewsPost } from '../news/news.repository.ts';
import { loyaltyFigures } from '../ledger/ledger.service.ts';
import { ledgerDeps } from '../ledger/ledger.routes.ts';
import { countWaitingStaff } from '../staff/staff-admin.service.ts';

export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/',
    {
      config: { permission: 'dashboard:read' },
      schema: {
        tags: ['dashboard'],
        summary:
          'Dashboard figures: posts by (effective) status, the next 5 scheduled posts, the 10 latest changes, customers/merchants/points',
        response: { 200: dashboardSchema },
      },
    },
    async () => {
      const now = app.clock.now();
      const [postsByStatus, next, latest, loyalty, pendingStaff] = await Promise.all([
        countByEffectiveStatus(app.db, now),
        findNextScheduled(app.db, now, 5),
        // before/after can be whole posts: leave them in the database.
        app.db
          .select({
            id: auditLog.id,
            at: auditLog.at,
            actorId: auditLog.actorId,
            actorEmail: auditLog.actorEmail,
            action: auditLog.action,
            entityType: auditLog.entityType,
            entityId: auditLog.entityId,
            requestId: auditLog.requestId,
          })
          .from(auditLog)
          .orderBy(desc(auditLog.at), desc(auditLog.id))
          .limit(10),
        loyaltyFigures(ledgerDeps(app)),
        countWaitingStaff(app),
      ]);
      return {
        postsByStatus,
        nextScheduled: next.map((row) => {
          const post = toNewsPost(row);
          return { id: post.id, title: post.title, publishAt: post.publishAt, author: post.author };
        }),
        latestChanges: latest.map((row) => ({ ...row, at: row.at.toISOString() })),
        loyalty,
        pendingStaff,
      };
    },
  );
};

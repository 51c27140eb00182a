import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { desc } from 'drizzle-orm';
import { dashboardSchema } from '@sf/contract/dashboard';
import { dashboardQuerySchema } from '@sf/contract/dashboard-figures';
import { message } from '@sf/contract/messages';
import { auditLog } from '../../db/schema.ts';
import { validationFailed } from '../../lib/errors.ts';
import { countByEffectiveStatus, findNextScheduled, toNewsPost } from '../news/news.repository.ts';
import { countWaitingStaff } from '../staff/staff-admin.service.ts';
import { integrityFindings } from '../ledger/ledger.integrity.ts';
import { ensureRollupTimeZone } from './dashboard.repository.ts';
import { daysIn, periodFigures, periodOf, type DashboardDeps } from './dashboard.service.ts';

/** The longest period the dashboard sums (its trend has one point per day). */
const MAX_PERIOD_DAYS = 3 * 366;

export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps: DashboardDeps = { db: app.db, clock: app.clock, timeZone: app.env.BUSINESS_TIME_ZONE };
  // The rollups' days are business days: rebuilt once if the zone changed since they were cut.
  await ensureRollupTimeZone(app.db, deps.timeZone);

  app.get(
    '/',
    {
      config: { permission: 'dashboard:read', readReplica: true },
      schema: {
        tags: ['dashboard'],
        summary:
          'Dashboard figures: posts by (effective) status, the next 5 scheduled posts, the 10 latest changes, and the loyalty figures of a period (from/to business days, default the last 30), program and merchant',
        querystring: dashboardQuerySchema,
        response: { 200: dashboardSchema },
      },
    },
    async (request) => {
      const period = periodOf(deps, request.query);
      const days = daysIn(period);
      if (days < 1 || days > MAX_PERIOD_DAYS) {
        const field = request.query.to && days < 1 ? 'to' : 'from';
        const text = message('invalid', request.language, { field });
        throw validationFailed(text, [{ field, message: text }]);
      }
      const now = app.clock.now();
      const [postsByStatus, next, latest, figures, pendingStaff, integrity] = await Promise.all([
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
        periodFigures(deps, request.query),
        countWaitingStaff(app),
        integrityFindings(app.db),
      ]);
      return {
        postsByStatus,
        nextScheduled: next.map((row) => {
          const post = toNewsPost(row);
          return { id: post.id, title: post.title, publishAt: post.publishAt, author: post.author };
        }),
        latestChanges: latest.map((row) => ({ ...row, at: row.at.toISOString() })),
        loyalty: {
          customersTotal: figures.customersTotal,
          customersNew: figures.customersNew,
          activeMerchants: figures.activeMerchants,
          pointsIssued: figures.pointsIssued,
          pointsRedeemed: figures.pointsRedeemed,
          pointsOutstanding: figures.pointsOutstanding,
          periodDays: days,
        },
        period: figures,
        pendingStaff,
        integrity,
      };
    },
  );
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dashboardSchema } from '@sf/contract/dashboard';
import { dashboardQuerySchema } from '@sf/contract/dashboard-figures';
import { ensureRollupTimeZone } from './dashboard.repository.ts';
import { dashboardOverview, type DashboardDeps } from './dashboard.service.ts';

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
    async (request) => dashboardOverview(deps, request.query),
  );
};

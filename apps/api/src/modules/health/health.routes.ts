import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../db/unavailable.ts';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/healthz',
    {
      config: { access: 'public' },
      schema: { tags: ['health'], summary: 'The process is alive', response: { 200: z.object({ status: z.literal('ok') }) } },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      config: { access: 'public' },
      schema: {
        tags: ['health'],
        summary: 'The database answers (degraded: the read replica is skipped, its reads go to the primary)',
        response: {
          200: z.object({
            status: z.enum(['ready', 'degraded']),
            database: z.enum(['pglite', 'postgres']),
            replica: z.object({ state: z.enum(['up', 'lagging', 'down']), lagMs: z.number().nullable() }).optional(),
          }),
        },
      },
    },
    async () => {
      if (app.lifecycle.isDraining) {
        // Shutting down: the load balancer should send new requests elsewhere (server.ts).
        throw new AppError(503, 'unavailable', {
          text: 'shutting_down',
          headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
        });
      }
      try {
        await app.database.ping();
      } catch (error) {
        app.log.error({ err: error }, 'readiness check failed');
        throw new AppError(503, 'unavailable', {
          text: 'database_unreachable',
          headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
        });
      }
      // A replica lagging or down costs the primary its reads, not the service: still 200, so that a
      // load balancer keeps sending; the body says so.
      const replica = app.database.replica?.status();
      if (!replica) return { status: 'ready' as const, database: app.database.kind };
      return { status: replica.state === 'up' ? ('ready' as const) : ('degraded' as const), database: app.database.kind, replica };
    },
  );
};

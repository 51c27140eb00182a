import fp from 'fastify-plugin';
import type { FastifyContextConfig, RouteHandlerMethod } from 'fastify';
import { withReplicaReads } from '../db/read-replica.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route only reads, and may read a moment behind the primary: its handler's queries outside a
     * transaction go to the read replica when there is one (db/read-replica.ts). Set by the list kit
     * (pages and exports) and the dashboard.
     */
    readReplica?: true;
  }
}

/** The primary's WAL position after the caller's last write (read-your-writes, decision record 031). */
export const READ_AFTER_COOKIE = 'sf_read_after';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * With a read replica (DATABASE_READ_URL): runs the handlers of `readReplica` routes in a replica read
 * scope, and gives a caller who has just written a cookie with the primary's WAL position after the
 * write, so that their reads stay on the primary until the replica has replayed it. Without a replica
 * it does nothing.
 */
export const readReplicaPlugin = fp(async (app) => {
  const replica = app.database.replica;
  if (!replica) return;

  app.addHook('onRoute', (route) => {
    if ((route.config as FastifyContextConfig | undefined)?.readReplica !== true) return;
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function readsOnReplica(request, reply) {
      return withReplicaReads(request.cookies[READ_AFTER_COOKIE], () => handler.call(this, request, reply));
    };
  });

  // Past this age the replica has replayed the write, or lags more than REPLICA_MAX_LAG_MS and is skipped.
  const maxAgeSeconds = Math.ceil((app.env.REPLICA_MAX_LAG_MS + 1000) / 1000) + 5;
  app.addHook('onSend', async (request, reply) => {
    // Tills and the customers' app (integration keys) keep no cookies and read no list.
    if (SAFE_METHODS.has(request.method) || reply.statusCode >= 400 || request.routeOptions.config?.integration) return;
    try {
      const position = await replica.writePosition();
      if (position) {
        reply.setCookie(READ_AFTER_COOKIE, position, {
          path: '/api',
          maxAge: maxAgeSeconds,
          httpOnly: true,
          sameSite: 'strict',
          secure: app.env.isProduction,
        });
      }
    } catch (error) {
      // The primary stopped answering after the write: reads go to it anyway while it is down.
      request.log.warn({ err: error }, 'no WAL position for read-your-writes');
    }
  });
});

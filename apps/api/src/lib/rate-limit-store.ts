import type { FastifyInstance } from 'fastify';
import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Database } from '../db/client.ts';
import { poolOf } from '../db/batch.ts';
import { StatementShape } from '../db/statement-shape.ts';
import { sql } from 'drizzle-orm';
import type { JobModule } from './job-runner.ts';

/**
 * The rate limits' counters in PostgreSQL (table `rate_limit_hits`, migration 0020), a store for
 * `@fastify/rate-limit` (its `store` option): every API process counts into the same rows, so a limit
 * of 30 a minute is 30 whichever process each request reaches — in each process's memory it was 30 per
 * process (issue 29). The database's clock decides the windows, so the processes' clocks need not agree.
 *
 * One statement per counted request, one round trip: an upsert that starts a new window when the row's
 * has ended, or adds one hit, and returns the count and the time left. Run as a named prepared
 * statement on a real PostgreSQL (no parsing or planning per request). Ended windows are deleted by a
 * background job (`rateLimitJobs`), not by the requests.
 *
 * Fixed windows, like the plugin's own stores; `continueExceeding` and `exponentialBackoff` are not
 * supported (no route uses them) and are refused rather than ignored.
 */
const hit = new StatementShape<'key' | 'windowMs'>(
  (p) => sql`insert into rate_limit_hits as hit (key, hits, window_ends_at)
    values (${p('key')}, 1, now() + ${p('windowMs')}::int * interval '1 millisecond')
    on conflict (key) do update
      set hits = case when hit.window_ends_at <= now() then 1 else hit.hits + 1 end,
          window_ends_at = case when hit.window_ends_at <= now() then excluded.window_ends_at else hit.window_ends_at end
    returning hit.hits, ceil(extract(epoch from hit.window_ends_at - now()) * 1000)::int as ttl`,
);

type Row = { hits: number | string; ttl: number | string };
type Counter = (key: string, windowMs: number) => Promise<Row>;

function counterOn(db: Database): Counter {
  const pool = poolOf(db);
  if (pool) {
    return async (key, windowMs) => {
      const bound = hit.with({ key, windowMs });
      const result = await pool.query<Row>({ name: bound.shape.name, text: bound.shape.text, values: [...bound.params] });
      return result.rows[0]!;
    };
  }
  return async (key, windowMs) => {
    const result = (await db.execute(hit.with({ key, windowMs }).getSQL())) as unknown as { rows: Row[] };
    return result.rows[0]!;
  };
}

/**
 * The route a store counts for: a route's own limit counts per route (as the plugin's Redis store
 * does), a `groupId` shares one count between the routes that name it.
 */
function prefixOf(options: { groupId?: string; routeInfo?: { method?: unknown; url?: unknown } }): string {
  if (options.groupId) return `group:${options.groupId}|`;
  const method = options.routeInfo?.method;
  const url = options.routeInfo?.url;
  return typeof url === 'string' ? `${Array.isArray(method) ? method.join(',') : String(method)} ${url}|` : '';
}

/** The store class `@fastify/rate-limit` instantiates (`store` option), counting in `db`. */
export function databaseRateLimitStore(db: Database): FastifyRateLimitStoreCtor {
  const count = counterOn(db);

  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    constructor(
      options: FastifyRateLimitOptions,
      private readonly prefix = '',
    ) {
      const { continueExceeding, exponentialBackoff } = options as { continueExceeding?: boolean; exponentialBackoff?: boolean };
      if (continueExceeding || exponentialBackoff) {
        throw new Error('the database rate-limit store counts fixed windows: continueExceeding and exponentialBackoff are not supported');
      }
    }

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      count(this.prefix + key, timeWindow).then(
        (row) => callback(null, { current: Number(row.hits), ttl: Number(row.ttl) }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      const options = routeOptions as unknown as FastifyRateLimitOptions & { groupId?: string; routeInfo?: { method?: unknown; url?: unknown } };
      return new DatabaseRateLimitStore(options, prefixOf(options));
    }
  }
  return DatabaseRateLimitStore;
}

export const RATE_LIMIT_CLEANUP_JOB = 'rate-limit.cleanup';

/** Ended windows are deleted every ten minutes, once across the processes (a recurring job). */
export function rateLimitJobs(app: FastifyInstance): JobModule {
  return {
    every: { [RATE_LIMIT_CLEANUP_JOB]: 10 * 60_000 },
    handlers: {
      [RATE_LIMIT_CLEANUP_JOB]: async () => {
        const result = (await app.db.execute(sql`delete from rate_limit_hits where window_ends_at < now()`)) as unknown as { rowCount?: number | null; affectedRows?: number };
        return { deleted: Number(result.rowCount ?? result.affectedRows ?? 0) };
      },
    },
  };
}

import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../db/client.ts';

/**
 * Background jobs kept in PostgreSQL (docs/architecture.md, "The API"): they survive a restart, and each
 * due job is claimed by one process only (FOR UPDATE SKIP LOCKED). A claimed job carries a lease
 * (`locked_until`): if its process dies, another takes it over when the lease has run out. Handlers
 * must be idempotent (the expiry job is: one entry per lot, ever).
 */
export type JobHandler = (payload: Record<string, unknown>) => Promise<unknown>;

export type JobRunner = { tick(): Promise<number>; stop(): Promise<void> };

/**
 * A module's share of the background work: its job kinds, what it queues before each tick, its
 * recurring kinds with their period in milliseconds (`every`: one row per kind, run again that long
 * after each run, by whichever process claims it), and the lease of a kind that may run longer than
 * LEASE_SECONDS (seconds), so that no other process takes it over while it still runs.
 */
export type JobModule = {
  handlers: Record<string, JobHandler>;
  schedule?: () => Promise<void>;
  every?: Record<string, number>;
  leaseSeconds?: Record<string, number>;
};

const LEASE_SECONDS = 300;

/** Queues a job; with a dedupe key, only once ever (e.g. one expiry run per business day). */
export async function enqueueJob(
  db: Executor,
  job: { kind: string; dedupeKey?: string; payload?: Record<string, unknown>; runAt?: Date },
): Promise<void> {
  await db.execute(
    sql`insert into jobs (kind, dedupe_key, payload, run_at)
        values (${job.kind}, ${job.dedupeKey ?? null}, ${JSON.stringify(job.payload ?? {})}::jsonb, ${job.runAt ?? new Date()})
        on conflict (dedupe_key) do nothing`,
  );
}

/**
 * A recurring kind is one row for ever (dedupe key `every:<kind>`), queued once by whichever process
 * comes first and put back in the queue after each run: it runs once per period across all processes,
 * where a timer in each process ran it once per period in each (issue 29).
 */
async function queueRecurring(db: Database, kinds: string[]): Promise<void> {
  if (kinds.length === 0) return;
  await db.execute(
    sql`insert into jobs (kind, dedupe_key)
        select kind, 'every:' || kind from unnest(array[${sql.join(
          kinds.map((kind) => sql`${kind}`),
          sql`, `,
        )}]::text[]) as kind
        on conflict (dedupe_key) do nothing`,
  );
}

/** Claims one due job (queued, or running with an expired lease), or null. */
async function claim(db: Database, leases: Record<string, number>): Promise<{ id: number; kind: string; payload: Record<string, unknown> } | null> {
  const result = (await db.execute(
    sql`update jobs set status = 'running', attempts = attempts + 1,
          locked_until = now() + make_interval(secs => coalesce((${JSON.stringify(leases)}::jsonb ->> kind)::int, ${LEASE_SECONDS}))
        where id = (
          select id from jobs
          where run_at <= now() and (status = 'queued' or (status = 'running' and locked_until < now()))
          order by run_at, id
          for update skip locked
          limit 1)
        returning id, kind, payload`,
  )) as unknown as { rows: { id: string | number; kind: string; payload: unknown }[] };
  const row = result.rows[0];
  if (!row) return null;
  const payload = typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload;
  return { id: Number(row.id), kind: row.kind, payload: (payload ?? {}) as Record<string, unknown> };
}

export function createJobRunner(options: {
  db: Database;
  handlers: Record<string, JobHandler>;
  log: FastifyBaseLogger;
  /** Called before each tick: queue the jobs of the day (idempotently, with dedupe keys). */
  schedule?: () => Promise<void>;
  /** Recurring kinds and their period in milliseconds (JobModule.every). */
  every?: Record<string, number>;
  intervalMs: number;
  /** false: no timer; tests call tick() themselves. */
  isAutomatic?: boolean;
  /** Longer leases for the kinds that need them (see JobModule). */
  leaseSeconds?: Record<string, number>;
}): JobRunner {
  let running: Promise<number> | null = null;
  let stopped = false;

  const every = options.every ?? {};
  const recurringKinds = Object.keys(every);

  async function runOnce(): Promise<number> {
    await queueRecurring(options.db, recurringKinds);
    await options.schedule?.();
    let done = 0;
    for (;;) {
      if (stopped) return done;
      const job = await claim(options.db, options.leaseSeconds ?? {});
      if (!job) return done;
      const handler = options.handlers[job.kind];
      const startedAt = Date.now();
      try {
        if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
        const result = await handler(job.payload);
        options.log.debug({ jobId: job.id, kind: job.kind, ms: Date.now() - startedAt }, 'background job done');
        const period = every[job.kind];
        await options.db.execute(
          period === undefined
            ? sql`update jobs set status = 'done', finished_at = now(), locked_until = null,
                    result = ${JSON.stringify(result ?? null)}::jsonb where id = ${job.id}`
            : sql`update jobs set status = 'queued', finished_at = now(), locked_until = null, attempts = 0, last_error = null,
                    run_at = now() + make_interval(secs => ${period / 1000}::double precision), result = ${JSON.stringify(result ?? null)}::jsonb
                  where id = ${job.id}`,
        );
        done += 1;
      } catch (error) {
        options.log.error({ err: error, jobId: job.id, kind: job.kind }, 'background job failed');
        // Retried later (up to 5 attempts), with a growing delay; a recurring job is never given up,
        // and waits at most its period.
        const period = every[job.kind];
        await options.db.execute(
          period === undefined
            ? sql`update jobs set status = case when attempts >= 5 then 'failed' else 'queued' end,
                    run_at = now() + make_interval(secs => attempts * 60), locked_until = null,
                    last_error = ${String((error as Error)?.message ?? error)} where id = ${job.id}`
            : sql`update jobs set status = 'queued', run_at = now() + make_interval(secs => least(attempts * 60, ${period / 1000}::double precision)),
                    locked_until = null, last_error = ${String((error as Error)?.message ?? error)} where id = ${job.id}`,
        );
      }
    }
  }

  const tick = () => {
    running ??= runOnce().finally(() => {
      running = null;
    });
    return running;
  };

  const timer =
    options.isAutomatic === false
      ? null
      : setInterval(() => {
          tick().catch((error: unknown) => options.log.error({ err: error }, 'job runner tick failed'));
        }, options.intervalMs);
  timer?.unref();

  return {
    tick,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}

/**
 * The automatic runners of this process (normally one, started by src/jobs.ts), so that new work can
 * start without waiting.
 */
export const automaticRunners = new Set<JobRunner>();

/**
 * Asks the process's runner to look for due jobs now rather than at its next interval (an import
 * just queued by a person waiting for its progress bar). Does nothing where no runner runs (tests).
 */
export function nudgeBackgroundJobs(log?: FastifyBaseLogger): void {
  for (const runner of automaticRunners) runner.tick().catch((error: unknown) => log?.error({ err: error }, 'job runner tick failed'));
}

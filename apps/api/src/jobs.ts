import type { FastifyInstance } from 'fastify';
import { createJobRunner, type JobModule, type JobRunner } from './lib/job-runner.ts';
import { ledgerJobs } from './modules/ledger/ledger.jobs.ts';
import { bonusJobs } from './modules/bonuses/bonuses.jobs.ts';

/**
 * The one background-job runner of a process. Every job kind of every module must be known to it:
 * the runner claims any due job from the shared table, and a kind without a handler would fail.
 * A module with background work adds its JobModule to this list (one line).
 */
function jobModules(app: FastifyInstance): JobModule[] {
  return [ledgerJobs(app), bonusJobs(app)];
}

export function startBackgroundJobs(app: FastifyInstance, options: { isAutomatic?: boolean } = {}): JobRunner {
  const modules = jobModules(app);
  const handlers: JobModule['handlers'] = {};
  for (const module of modules) {
    for (const [kind, handler] of Object.entries(module.handlers)) {
      if (handlers[kind]) throw new Error(`two modules handle the job kind ${kind}`);
      handlers[kind] = handler;
    }
  }
  return createJobRunner({
    db: app.db,
    log: app.log,
    intervalMs: app.env.JOBS_INTERVAL_MS,
    ...(options.isAutomatic === undefined ? {} : { isAutomatic: options.isAutomatic }),
    schedule: async () => {
      for (const module of modules) await module.schedule?.();
    },
    handlers,
  });
}

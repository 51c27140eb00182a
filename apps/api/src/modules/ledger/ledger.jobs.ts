import type { FastifyInstance } from 'fastify';
import { createJobRunner, enqueueJob, type JobRunner } from '../../lib/job-runner.ts';
import { expireDueLots } from './ledger.service.ts';
import { localDate } from './ledger.rules.ts';
import { ledgerDeps } from './ledger.routes.ts';

export const EXPIRY_JOB = 'ledger.expire';

/**
 * The ledger's background work: once per business day, write off the points whose day has passed.
 * The day's job is queued by every process, but its dedupe key lets only one row exist.
 */
export function startLedgerJobs(app: FastifyInstance, options: { isAutomatic?: boolean } = {}): JobRunner {
  const deps = ledgerDeps(app);
  return createJobRunner({
    db: app.db,
    log: app.log,
    intervalMs: app.env.JOBS_INTERVAL_MS,
    ...(options.isAutomatic === undefined ? {} : { isAutomatic: options.isAutomatic }),
    schedule: () => enqueueJob(app.db, { kind: EXPIRY_JOB, dedupeKey: `${EXPIRY_JOB}:${localDate(app.clock.now(), deps.timeZone)}` }),
    handlers: {
      [EXPIRY_JOB]: async () => ({ expired: await expireDueLots(deps) }),
    },
  });
}

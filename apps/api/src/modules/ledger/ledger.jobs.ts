import type { FastifyInstance } from 'fastify';
import { enqueueJob, type JobModule } from '../../lib/job-runner.ts';
import { expireDueLots } from './ledger.service.ts';
import { localDate } from '../../lib/business-days.ts';
import { depsOf } from '../../lib/caller.ts';

export const EXPIRY_JOB = 'ledger.expire';

/**
 * The ledger's background work: once per business day, write off the points whose day has passed.
 * The day's job is queued by every process, but its dedupe key lets only one row exist.
 */
export function ledgerJobs(app: FastifyInstance): JobModule {
  const deps = depsOf(app);
  return {
    schedule: () => enqueueJob(app.db, { kind: EXPIRY_JOB, dedupeKey: `${EXPIRY_JOB}:${localDate(app.clock.now(), deps.timeZone)}` }),
    handlers: {
      [EXPIRY_JOB]: async () => ({ expired: await expireDueLots(deps) }),
    },
  };
}

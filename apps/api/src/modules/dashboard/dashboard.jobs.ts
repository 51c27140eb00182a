import type { FastifyInstance } from 'fastify';
import { enqueueJob, type JobModule } from '../../lib/job-runner.ts';
import { addDays, localDate } from '../../lib/business-days.ts';
import { foldRollupStripes } from './dashboard.repository.ts';

export const FOLD_JOB = 'dashboard.fold-stripes';

/**
 * Once per business day, the rollups' stripes of the days before yesterday are merged into one row
 * per key (decision 019, "Stripes"): today's and yesterday's rows keep theirs, as writers still add
 * to them (a transaction begun just before midnight commits after it). Queued by every process under
 * the day's dedupe key; the fold itself may run twice without changing a figure.
 */
export function dashboardJobs(app: FastifyInstance): JobModule {
  const timeZone = app.env.BUSINESS_TIME_ZONE;
  return {
    schedule: () => enqueueJob(app.db, { kind: FOLD_JOB, dedupeKey: `${FOLD_JOB}:${localDate(app.clock.now(), timeZone)}` }),
    handlers: {
      [FOLD_JOB]: async () => ({ folded: await foldRollupStripes(app.db, addDays(localDate(app.clock.now(), timeZone), -1)) }),
    },
  };
}

import type { FastifyInstance } from 'fastify';
import { enqueueJob, type JobModule } from '../../lib/job-runner.ts';
import { localDate } from '../../lib/business-days.ts';
import { payBirthdayBonuses, payReferralBonuses } from './bonuses.service.ts';
import { depsOf } from '../../lib/caller.ts';

export const REFERRAL_JOB = 'bonus.referral';
export const BIRTHDAY_JOB = 'bonus.birthday';

/** Referral bonuses are looked for every ten minutes: a referee sees them soon after the first purchase. */
const REFERRAL_BUCKET_MS = 10 * 60_000;

/**
 * The automatic bonuses' background work. Each run is queued by every process under a dedupe key
 * (referral: per ten minutes; birthday: per business day), so one row exists per period; the work
 * itself pays each bonus once whatever runs it (bonuses.service.ts).
 */
export function bonusJobs(app: FastifyInstance): JobModule {
  const deps = depsOf(app);
  return {
    schedule: async () => {
      const now = app.clock.now();
      const bucket = new Date(Math.floor(now.getTime() / REFERRAL_BUCKET_MS) * REFERRAL_BUCKET_MS).toISOString();
      await enqueueJob(app.db, { kind: REFERRAL_JOB, dedupeKey: `${REFERRAL_JOB}:${bucket}` });
      await enqueueJob(app.db, { kind: BIRTHDAY_JOB, dedupeKey: `${BIRTHDAY_JOB}:${localDate(now, deps.timeZone)}` });
    },
    handlers: {
      [REFERRAL_JOB]: async () => payReferralBonuses(deps),
      [BIRTHDAY_JOB]: async () => payBirthdayBonuses(deps),
    },
  };
}

import type { FastifyInstance } from 'fastify';
import { localDate } from '../../lib/business-days.ts';
import { enqueueJob, type JobModule } from '../../lib/job-runner.ts';
import { walletDepsOf } from '../wallet/wallet.service.ts';
import {
  SERVICE_EMAIL_EXPIRING_JOB,
  SERVICE_EMAIL_SEND_JOB,
  queueExpiringReminders,
  sendServiceMessage,
  type ServiceEmailDeps,
} from './service-emails.service.ts';

export function serviceEmailDepsOf(app: FastifyInstance): ServiceEmailDeps {
  return { ...walletDepsOf(app), mailer: app.mailer, leaseSeconds: app.env.CAMPAIGN_LEASE_SECONDS };
}

/**
 * One job per message (`service-email-send`, dedupe key per message): the job's lease (the runner's
 * default) is longer than the message's claim, so a job taken over after a crash finds the claim run
 * out and settles the message as `unknown`. The expiring-points reminders are queued once per
 * business day (`service-email-expiring`).
 */
export function serviceEmailJobs(app: FastifyInstance): JobModule {
  const deps = serviceEmailDepsOf(app);
  return {
    schedule: () =>
      enqueueJob(app.db, { kind: SERVICE_EMAIL_EXPIRING_JOB, dedupeKey: `${SERVICE_EMAIL_EXPIRING_JOB}:${localDate(app.clock.now(), deps.timeZone)}` }),
    handlers: {
      [SERVICE_EMAIL_SEND_JOB]: async (payload) => sendServiceMessage(deps, Number(payload['messageId'])),
      [SERVICE_EMAIL_EXPIRING_JOB]: async () => queueExpiringReminders(deps),
    },
  };
}

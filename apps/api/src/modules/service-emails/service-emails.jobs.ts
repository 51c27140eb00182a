import type { FastifyInstance } from 'fastify';
import type { JobModule } from '../../lib/job-runner.ts';
import { walletDepsOf } from '../wallet/wallet.service.ts';
import { SERVICE_EMAIL_SEND_JOB, sendServiceMessage, type ServiceEmailDeps } from './service-emails.service.ts';

export function serviceEmailDepsOf(app: FastifyInstance): ServiceEmailDeps {
  return { ...walletDepsOf(app), mailer: app.mailer, leaseSeconds: app.env.CAMPAIGN_LEASE_SECONDS };
}

/**
 * One job per message (`service-email-send`, dedupe key per message): the job's lease (the runner's
 * default) is longer than the message's claim, so a job taken over after a crash finds the claim run
 * out and settles the message as `unknown`.
 */
export function serviceEmailJobs(app: FastifyInstance): JobModule {
  const deps = serviceEmailDepsOf(app);
  return {
    handlers: {
      [SERVICE_EMAIL_SEND_JOB]: async (payload) => sendServiceMessage(deps, Number(payload['messageId'])),
    },
  };
}

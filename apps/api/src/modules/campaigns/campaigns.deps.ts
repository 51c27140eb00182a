import type { FastifyInstance } from 'fastify';
import { depsOf } from '../../lib/caller.ts';
import type { CampaignDeps } from './campaigns.service.ts';

/** The campaigns' deps from the app: the mailer, APP_URL for the unsubscribe links, the pace and the lease. */
export function campaignDepsOf(app: FastifyInstance): CampaignDeps {
  return {
    ...depsOf(app),
    mailer: app.mailer,
    appUrl: app.env.APP_URL,
    ratePerMinute: app.env.CAMPAIGN_RATE_PER_MINUTE,
    leaseSeconds: app.env.CAMPAIGN_LEASE_SECONDS,
  };
}

import type { FastifyInstance } from 'fastify';
import type { JobModule } from '../../lib/job-runner.ts';
import { campaignDepsOf } from './campaigns.deps.ts';
import { CAMPAIGN_SEND_JOB, runCampaignSlice } from './campaigns.service.ts';

/**
 * Sending runs on the job runner, one slice per job (campaigns.service.ts runCampaignSlice). The
 * job's lease is the campaign lease, and a slice lasts at most half of it: a process that dies leaves
 * its slice to another process once the lease has run out.
 */
export function campaignJobs(app: FastifyInstance): JobModule {
  const deps = campaignDepsOf(app);
  return {
    leaseSeconds: { [CAMPAIGN_SEND_JOB]: app.env.CAMPAIGN_LEASE_SECONDS },
    handlers: {
      [CAMPAIGN_SEND_JOB]: async (payload) =>
        runCampaignSlice(deps, {
          campaignId: String(payload['campaignId']),
          version: Number(payload['version']),
          slice: Number(payload['slice'] ?? 0),
        }),
    },
  };
}

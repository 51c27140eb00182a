import type { FastifyInstance } from 'fastify';
import { automaticRunners, createJobRunner, type JobModule, type JobRunner } from './lib/job-runner.ts';
import { ledgerJobs } from './modules/ledger/ledger.jobs.ts';
import { integrityJobs } from './modules/ledger/ledger-integrity.service.ts';
import { privacyJobs } from './modules/privacy/privacy.retention.ts';
import { importJobs } from './modules/imports/imports.jobs.ts';
import { bonusJobs } from './modules/bonuses/bonuses.jobs.ts';
import { dashboardJobs } from './modules/dashboard/dashboard.jobs.ts';
import { socialProofJobs } from './modules/social-proofs/social-proofs.service.ts';
import { newsJobs } from './modules/news/news.scheduler.ts';
import { identityJobs } from './identity/housekeeping.ts';
import { rateLimitJobs } from './lib/rate-limit-store.ts';
import { walletJobs } from './modules/wallet/wallet.jobs.ts';
import { campaignJobs } from './modules/campaigns/campaigns.jobs.ts';
import { serviceEmailJobs } from './modules/service-emails/service-emails.jobs.ts';

/**
 * The one background-job runner of a process. Every job kind of every module must be known to it:
 * the runner claims any due job from the shared table, and a kind without a handler would fail.
 * A module with background work adds its JobModule to this list (one line).
 */
function jobModules(app: FastifyInstance): JobModule[] {
  return [
    ledgerJobs(app),
    privacyJobs(app),
    importJobs(app),
    bonusJobs(app),
    dashboardJobs(app),
    newsJobs(app),
    identityJobs(app),
    rateLimitJobs(app),
    socialProofJobs(app),
    integrityJobs(app),
    walletJobs(app),
    campaignJobs(app),
    serviceEmailJobs(app),
  ];
}

export function startBackgroundJobs(app: FastifyInstance, options: { isAutomatic?: boolean } = {}): JobRunner {
  const modules = jobModules(app);
  const handlers: JobModule['handlers'] = {};
  const every: Record<string, number> = {};
  const leaseSeconds: Record<string, number> = {};
  for (const module of modules) {
    for (const [kind, handler] of Object.entries(module.handlers)) {
      if (handlers[kind]) throw new Error(`two modules handle the job kind ${kind}`);
      handlers[kind] = handler;
    }
    Object.assign(every, module.every);
    Object.assign(leaseSeconds, module.leaseSeconds);
  }
  const runner = createJobRunner({
    db: app.db,
    log: app.log,
    // Often enough for the shortest recurring job (the news promotion, SCHEDULER_INTERVAL_MS).
    intervalMs: Math.min(app.env.JOBS_INTERVAL_MS, ...Object.values(every)),
    every,
    ...(options.isAutomatic === undefined ? {} : { isAutomatic: options.isAutomatic }),
    leaseSeconds,
    schedule: async () => {
      for (const module of modules) await module.schedule?.();
    },
    handlers,
  });
  if (options.isAutomatic !== false) automaticRunners.add(runner);
  return {
    tick: runner.tick,
    async stop() {
      automaticRunners.delete(runner);
      await runner.stop();
    },
  };
}

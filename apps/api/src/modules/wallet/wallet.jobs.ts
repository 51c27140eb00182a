import type { FastifyInstance } from 'fastify';
import type { JobModule } from '../../lib/job-runner.ts';
import { deliverGooglePatch, deliverPush, syncWallet, walletDepsOf } from './wallet.service.ts';

/**
 * The wallet's background work (decision record 033): `wallet.sync` looks for changed memberships every
 * WALLET_SYNC_INTERVAL_MS (only when a wallet is configured) and queues `wallet.apns` (one push to one
 * device) and `wallet.google` (one object's patch). A push or patch that fails is retried by the job
 * runner with a growing delay (1, 2, 3, 4 minutes); a ledger write never waits for any of them.
 */
export function walletJobs(app: FastifyInstance): JobModule {
  const deps = walletDepsOf(app);
  const isConfigured = app.wallet.apple !== null || app.wallet.google !== null;
  return {
    handlers: {
      'wallet.sync': () => syncWallet(deps),
      'wallet.apns': (payload) => deliverPush(deps, String(payload['pushToken'])),
      'wallet.google': (payload) => deliverGooglePatch(deps, String(payload['membershipId'])),
    },
    every: isConfigured ? { 'wallet.sync': app.env.WALLET_SYNC_INTERVAL_MS } : {},
  };
}

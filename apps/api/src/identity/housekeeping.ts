import { and, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Executor } from '../db/client.ts';
import type { JobModule } from '../lib/job-runner.ts';
import { loginThrottles, passwordResetTokens, sessions, users } from '../db/schema.ts';

/** Dead rows are kept a day after they die, for support questions ("why was I signed out?"). */
const KEEP_AFTER_DEATH_MS = 24 * 60 * 60_000;
/** A self-registration whose address was never confirmed is deleted after a week (its link lived 24 h). */
export const UNCONFIRMED_ACCOUNT_TTL_MS = 7 * 24 * 60 * 60_000;

/**
 * Deletes what can never be accepted again: sessions past their 10 days or revoked (their refresh
 * tokens go with them by cascade), reset tokens expired or used, and lock-out counts nobody has
 * touched for a day. Without it an attacker spraying addresses would grow login_throttles forever.
 */
export async function purgeDeadIdentityData(executor: Executor, now: Date) {
  const before = new Date(now.getTime() - KEEP_AFTER_DEATH_MS);
  const deadSessions = await executor
    .delete(sessions)
    .where(or(lt(sessions.expiresAt, before), lt(sessions.revokedAt, before)))
    .returning({ id: sessions.id });
  const deadResetTokens = await executor
    .delete(passwordResetTokens)
    .where(or(lt(passwordResetTokens.expiresAt, before), lt(passwordResetTokens.usedAt, before)))
    .returning({ id: passwordResetTokens.tokenHash });
  const staleThrottles = await executor
    .delete(loginThrottles)
    .where(
      and(
        lt(loginThrottles.lastFailureAt, before),
        or(isNull(loginThrottles.lockedUntil), lt(loginThrottles.lockedUntil, sql`${now.toISOString()}::timestamptz`)),
      ),
    )
    .returning({ key: loginThrottles.key });
  // Never confirmed, never given a role: nothing but a claim on an address (and on its e-mails).
  const unconfirmed = await executor
    .delete(users)
    .where(
      and(
        isNull(users.emailConfirmedAt),
        isNull(users.role),
        lt(users.createdAt, new Date(now.getTime() - UNCONFIRMED_ACCOUNT_TTL_MS)),
      ),
    )
    .returning({ id: users.id });
  return {
    sessions: deadSessions.length,
    resetTokens: deadResetTokens.length,
    throttles: staleThrottles.length,
    unconfirmedAccounts: unconfirmed.length,
  };
}

export const HOUSEKEEPING_JOB = 'identity.housekeeping';

/** Hourly, once across the processes (a recurring background job); a failed purge is retried. */
export function identityJobs(app: FastifyInstance): JobModule {
  return {
    every: { [HOUSEKEEPING_JOB]: 60 * 60_000 },
    handlers: { [HOUSEKEEPING_JOB]: () => purgeDeadIdentityData(app.db, app.clock.now()) },
  };
}

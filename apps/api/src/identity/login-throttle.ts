import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { loginThrottles } from '../db/schema.ts';

/** Failures allowed before the first lock-out, and its growth (OWASP ASVS 2.2.1). */
export const FAILURES_BEFORE_LOCK = 5;
const FIRST_LOCK_MS = 30_000;
const MAX_LOCK_MS = 15 * 60_000;
/** A failure this long after the previous one starts the count again. */
const FAILURE_MEMORY_MS = 24 * 60 * 60_000;

/**
 * Counted per account AND client address: an attacker guessing from one address is slowed down, but
 * cannot lock the real owner out from everywhere else.
 */
export function throttleKey(normalisedEmail: string, clientAddress: string): string {
  return `${normalisedEmail}|${clientAddress}`;
}

/** 30 s at the 5th failure, doubling with each further one, at most 15 minutes. */
export function lockDurationMs(failures: number): number {
  if (failures < FAILURES_BEFORE_LOCK) return 0;
  return Math.min(FIRST_LOCK_MS * 2 ** Math.min(failures - FAILURES_BEFORE_LOCK, 20), MAX_LOCK_MS);
}

export async function isLocked(executor: Executor, key: string, now: Date): Promise<boolean> {
  const [row] = await executor
    .select({ lockedUntil: loginThrottles.lockedUntil })
    .from(loginThrottles)
    .where(eq(loginThrottles.key, key))
    .limit(1);
  return row?.lockedUntil != null && row.lockedUntil.getTime() > now.getTime();
}

/** Counts one failure in a single statement, so that parallel guesses cannot skip the lock. */
export async function recordFailure(executor: Executor, key: string, now: Date): Promise<number> {
  const forgetBefore = new Date(now.getTime() - FAILURE_MEMORY_MS);
  const [row] = await executor
    .insert(loginThrottles)
    .values({ key, failures: 1, lastFailureAt: now })
    .onConflictDoUpdate({
      target: loginThrottles.key,
      set: {
        failures: sql`case when ${loginThrottles.lastFailureAt} < ${forgetBefore.toISOString()}::timestamptz then 1 else ${loginThrottles.failures} + 1 end`,
        lastFailureAt: now,
      },
    })
    .returning({ failures: loginThrottles.failures });
  const failures = row?.failures ?? 1;
  const lockMs = lockDurationMs(failures);
  if (lockMs > 0) {
    await executor
      .update(loginThrottles)
      .set({ lockedUntil: new Date(now.getTime() + lockMs) })
      .where(eq(loginThrottles.key, key));
  }
  return failures;
}

export async function clearFailures(executor: Executor, key: string): Promise<void> {
  await executor.delete(loginThrottles).where(eq(loginThrottles.key, key));
}

/** A password reset proves the owner: every client's count for the account starts again. */
export async function clearFailuresOfAccount(executor: Executor, normalisedEmail: string): Promise<void> {
  await executor.delete(loginThrottles).where(sql`starts_with(${loginThrottles.key}, ${`${normalisedEmail}|`})`);
}

import { eq, inArray, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/client.ts';
import { loginThrottles } from '../db/schema.ts';

/** Failures allowed before the first lock-out, and its growth (OWASP ASVS 2.2.1). */
export const FAILURES_BEFORE_LOCK = 5;
const FIRST_LOCK_MS = 30_000;
const MAX_LOCK_MS = 15 * 60_000;
/**
 * Per account, from every address together: NIST SP 800-63B 5.2.2 allows at most 100 consecutive
 * failures. From the 100th on the account is locked for 15 minutes at a time — long enough to make
 * guessing from many addresses pointless, short enough not to shut its owner out for long (and a
 * password reset, which proves the owner, clears it at once).
 */
export const ACCOUNT_FAILURES_BEFORE_LOCK = 100;
const ACCOUNT_LOCK_MS = 15 * 60_000;
/** A failure this long after the previous one starts the count again. */
const FAILURE_MEMORY_MS = 24 * 60 * 60_000;

/**
 * Counted per account AND client address: an attacker guessing from one address is slowed down, but
 * cannot lock the real owner out from everywhere else.
 */
export function throttleKey(normalisedEmail: string, clientAddress: string): string {
  return `${normalisedEmail}|${clientAddress}`;
}

/** The account-wide count, whatever the address (it starts like the others, so a reset clears it too). */
export function accountThrottleKey(normalisedEmail: string): string {
  return `${normalisedEmail}|*`;
}

/** 30 s at the 5th failure, doubling with each further one, at most 15 minutes. */
export function lockDurationMs(failures: number): number {
  if (failures < FAILURES_BEFORE_LOCK) return 0;
  return Math.min(FIRST_LOCK_MS * 2 ** Math.min(failures - FAILURES_BEFORE_LOCK, 20), MAX_LOCK_MS);
}

export function accountLockDurationMs(failures: number): number {
  return failures < ACCOUNT_FAILURES_BEFORE_LOCK ? 0 : ACCOUNT_LOCK_MS;
}

/**
 * Reserves one sign-in attempt BEFORE the password is checked: each key's count goes up by one, and
 * the lock its new count earns is set, in one transaction, on the condition that the key is not
 * locked now. The conditional upsert takes the row lock, so parallel attempts queue on it and those
 * that come after a lock was set find it: at most one attempt per unlocked moment reaches the
 * password check. Resolves to false (nothing counted) when a key is locked. A success then clears
 * the counts (`clearFailures`); a failure leaves its reserved count, which is the failure's record.
 */
export async function reserveAttempt(db: Database, addressKey: string, accountKey: string, now: Date): Promise<boolean> {
  const forgetBefore = new Date(now.getTime() - FAILURE_MEMORY_MS).toISOString();
  const nowIso = now.toISOString();
  const keys: [string, (failures: number) => number][] = [
    [addressKey, lockDurationMs],
    [accountKey, accountLockDurationMs],
  ];
  try {
    await db.transaction(async (tx) => {
      for (const [key, lockFor] of keys) {
        const [row] = await tx
          .insert(loginThrottles)
          .values({ key, failures: 1, lastFailureAt: now })
          .onConflictDoUpdate({
            target: loginThrottles.key,
            set: {
              failures: sql`case when ${loginThrottles.lastFailureAt} < ${forgetBefore}::timestamptz then 1 else ${loginThrottles.failures} + 1 end`,
              lastFailureAt: now,
            },
            setWhere: sql`${loginThrottles.lockedUntil} is null or ${loginThrottles.lockedUntil} <= ${nowIso}::timestamptz`,
          })
          .returning({ failures: loginThrottles.failures });
        if (!row) throw new KeyLocked();
        const lockMs = lockFor(row.failures);
        await tx
          .update(loginThrottles)
          .set({ lockedUntil: lockMs > 0 ? new Date(now.getTime() + lockMs) : null })
          .where(eq(loginThrottles.key, key));
      }
    });
    return true;
  } catch (error) {
    if (error instanceof KeyLocked) return false;
    throw error;
  }
}

class KeyLocked extends Error {}

/** A successful sign-in: this client's count and the account's consecutive-failure count start again. */
export async function clearFailures(executor: Executor, keys: string[]): Promise<void> {
  await executor.delete(loginThrottles).where(inArray(loginThrottles.key, keys));
}

/** A password reset proves the owner: every client's count for the account starts again. */
export async function clearFailuresOfAccount(executor: Executor, normalisedEmail: string): Promise<void> {
  await executor.delete(loginThrottles).where(sql`starts_with(${loginThrottles.key}, ${`${normalisedEmail}|`})`);
}

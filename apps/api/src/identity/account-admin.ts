import { and, eq } from 'drizzle-orm';
import type { Database, Executor } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { recordAudit, type AuditActor } from '../lib/audit.ts';
import type { Account } from './accounts.ts';
import { revokeUserSessions } from './sessions.ts';

export type AccountChanges = Partial<Pick<Account, 'role' | 'status'>>;

export function accountSummary(account: Pick<Account, 'email' | 'role' | 'status' | 'displayName'>) {
  return { email: account.email, displayName: account.displayName, role: account.role, status: account.status };
}

/**
 * Changes an account's role or status for an admin or the CLI, with its audit record, in one
 * transaction. Disabling also ends every session: the guard already refuses the account's ID tokens,
 * and its refresh tokens must not mint new ones. Resolves to undefined when the account is gone.
 */
export async function changeAccount(
  db: Database,
  account: Account,
  changes: AccountChanges,
  actor: AuditActor,
  now: Date,
  hooks: {
    /** Runs first inside the same transaction (e.g. `keepAnActiveAdmin`) and may throw to refuse. */
    check?: (tx: Executor) => Promise<void>;
    /** The identity provider's part once the change is committed (Firebase: the `role` custom claim follows). */
    afterChange?: (account: Account) => Promise<void>;
  } = {},
): Promise<Account | undefined> {
  const changed = await db.transaction(async (tx) => {
    if (hooks.check) await hooks.check(tx);
    const [updated] = await tx.update(users).set({ ...changes, updatedAt: now }).where(eq(users.id, account.id)).returning();
    if (!updated) return undefined;
    if (changes.status === 'disabled') await revokeUserSessions(tx, account.id, now, 'disabled');
    const action =
      changes.status !== undefined && changes.status !== account.status
        ? changes.status === 'disabled'
          ? 'staff.disable'
          : 'staff.enable'
        : changes.role === null
          ? 'staff.revoke_role'
          : 'staff.grant_role';
    await recordAudit(tx, actor, {
      action,
      entityType: 'user',
      entityId: account.id,
      before: accountSummary(account),
      after: accountSummary(updated),
    });
    return updated;
  });
  // Our database decides on every request whatever the provider holds; a failure here is reported to
  // the caller (the change stands, running it again brings the provider in line).
  if (changed && hooks.afterChange) await hooks.afterChange(changed);
  return changed;
}

/**
 * Refuses (with `refuse()`'s error) a change that would leave no active admin. The active admins'
 * rows are locked first, so two admins demoting each other at once cannot both succeed: the second
 * waits, then sees that only one is left.
 */
export async function keepAnActiveAdmin(tx: Executor, accountId: string, changes: AccountChanges, refuse: () => Error): Promise<void> {
  const admins = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.status, 'active')))
    .for('update');
  const isActiveAdmin = admins.some((admin) => admin.id === accountId);
  const staysActiveAdmin = (changes.role === undefined || changes.role === 'admin') && (changes.status === undefined || changes.status === 'active');
  if (isActiveAdmin && !staysActiveAdmin && admins.length <= 1) throw refuse();
}

import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
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
  /** The identity provider's part once the change is committed (Firebase: the `role` custom claim follows). */
  afterChange?: (account: Account) => Promise<void>,
): Promise<Account | undefined> {
  const changed = await db.transaction(async (tx) => {
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
  if (changed && afterChange) await afterChange(changed);
  return changed;
}

import { eq } from 'drizzle-orm';
import type { ChangePasswordResponse, StaffProfile, StaffUser } from '@sf/contract/auth';
import type { z } from 'zod';
import type { changePasswordRequestSchema } from '@sf/contract/auth';
import type { updateProfileRequestSchema } from '@sf/contract/profile';
import { users } from '../../db/schema.ts';
import { fieldError, notFound } from '../../lib/errors.ts';
import { recordAudit } from '../../lib/audit.ts';
import type { Caller, RequestTrace, ServiceDeps } from '../../lib/caller.ts';
import type { IdentityProvider } from '../../identity/provider.ts';
import type { TokenSigner } from '../../identity/token-signer.ts';
import { hashPassword, verifyPassword } from '../../identity/passwords.ts';
import { assertUncommonPassword } from '../../identity/password-policy.ts';
import { displayNameOf, findAccountById, passwordChangeInstant, signIdToken, toStaffUser, type Account } from '../../identity/accounts.ts';
import { createSession, revokeUserSessions } from '../../identity/sessions.ts';

type ProfileUpdate = z.infer<typeof updateProfileRequestSchema>;
type PasswordChange = z.infer<typeof changePasswordRequestSchema>;

/** The password change signs in anew: our token signer, or the provider that keeps the passwords itself. */
export type SelfDeps = ServiceDeps & { tokenSigner: TokenSigner; identity: Pick<IdentityProvider, 'changeOwnPassword'> };

/** The signed-in account: as the guard read it for this request (`known`; no second read of the same row), else read now. */
export async function currentAccount(deps: Pick<ServiceDeps, 'db'>, caller: Caller, known: Account | null): Promise<Account> {
  const account = known ?? (await findAccountById(deps.db, caller.userId));
  if (!account) throw notFound('user');
  return account;
}

export async function updateOwnProfile(deps: ServiceDeps, caller: Caller, changes: ProfileUpdate): Promise<StaffUser> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const account = await findAccountById(tx, caller.userId);
    if (!account) throw notFound('user');
    const before = toStaffUser(account);
    const { uid: _uid, email: _email, displayName: _displayName, role: _role, ...currentProfile } = before;
    const profile: StaffProfile = { ...currentProfile, ...changes };
    const isRenamed = changes.firstName !== undefined || changes.lastName !== undefined;
    const displayName = isRenamed ? displayNameOf(profile.firstName, profile.lastName) || account.displayName : account.displayName;
    const [updated] = await tx
      .update(users)
      .set({ profile, displayName, updatedAt: now })
      .where(eq(users.id, account.id))
      .returning();
    if (!updated) throw notFound('user');
    const after = toStaffUser(updated);
    await recordAudit(tx, caller.actor, { action: 'account.update_profile', entityType: 'user', entityId: account.id, before, after });
    return after;
  });
}

/**
 * Verifies the current password, stores the new one and ends EVERY session of the account (a thief
 * holding a refresh token loses it); the caller gets a fresh sign-in in the answer. Simpler and
 * safer than trusting the client to say which session is its own.
 */
export async function changeOwnPassword(
  deps: SelfDeps,
  caller: Caller & RequestTrace,
  body: PasswordChange,
  known: Account | null,
): Promise<ChangePasswordResponse> {
  const account = await currentAccount(deps, caller, known);
  // Typing the current password again as the new one changes nothing but ends every session: said,
  // not done. Both values are the caller's own, so the check reveals nothing and holds for any provider.
  if (body.newPassword === body.currentPassword) throw fieldError('newPassword', 'samePassword');
  // A provider that keeps the passwords itself (Firebase) changes it there.
  if (deps.identity.changeOwnPassword) return deps.identity.changeOwnPassword(caller, account, body);
  if (!(await verifyPassword(account.passwordHash, body.currentPassword))) {
    throw fieldError('currentPassword', 'invalid');
  }
  assertUncommonPassword(body.newPassword, 'newPassword');
  const passwordHash = await hashPassword(body.newPassword);
  const now = deps.clock.now();
  const { updated, refreshToken, sessionId } = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ passwordHash, passwordChangedAt: passwordChangeInstant(now), updatedAt: now })
      .where(eq(users.id, account.id))
      .returning();
    if (!row) throw notFound('user');
    const revokedSessions = await revokeUserSessions(tx, account.id, now, 'password_change');
    const session = await createSession(tx, account.id, now);
    await recordAudit(tx, caller.actor, {
      action: 'account.change_password',
      entityType: 'user',
      entityId: account.id,
      after: { revokedSessions },
    });
    return { updated: row, refreshToken: session.refreshToken, sessionId: session.sessionId };
  });
  return {
    idToken: await signIdToken(deps.tokenSigner, updated, sessionId, now),
    refreshToken,
    expiresIn: deps.tokenSigner.ttlSeconds,
    localId: updated.id,
  };
}

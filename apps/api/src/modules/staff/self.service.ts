import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ChangePasswordResponse, StaffProfile, StaffUser } from '@sf/contract/auth';
import type { z } from 'zod';
import type { changePasswordRequestSchema, updateProfileRequestSchema } from '@sf/contract/auth';
import { users } from '../../db/schema.ts';
import { fieldError, notFound } from '../../lib/errors.ts';
import { actorOf, recordAudit } from '../../lib/audit.ts';
import { hashPassword, verifyPassword } from '../../identity/passwords.ts';
import { assertUncommonPassword } from '../../identity/password-policy.ts';
import { displayNameOf, findAccountById, passwordChangeInstant, signIdToken, toStaffUser, type Account } from '../../identity/accounts.ts';
import { createSession, revokeUserSessions } from '../../identity/sessions.ts';

type ProfileUpdate = z.infer<typeof updateProfileRequestSchema>;
type PasswordChange = z.infer<typeof changePasswordRequestSchema>;

/** The signed-in account as the guard read it for this request (no second read of the same row). */
export async function currentAccount(app: FastifyInstance, request: FastifyRequest): Promise<Account> {
  const account = request.user ? (request.account ?? (await findAccountById(app.db, request.user.id))) : undefined;
  if (!account) throw notFound('user');
  return account;
}

export async function updateOwnProfile(app: FastifyInstance, request: FastifyRequest, changes: ProfileUpdate): Promise<StaffUser> {
  const now = app.clock.now();
  return app.db.transaction(async (tx) => {
    const account = await findAccountById(tx, request.user?.id ?? '');
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
    await recordAudit(tx, actorOf(request), { action: 'account.update_profile', entityType: 'user', entityId: account.id, before, after });
    return after;
  });
}

/**
 * Verifies the current password, stores the new one and ends EVERY session of the account (a thief
 * holding a refresh token loses it); the caller gets a fresh sign-in in the answer. Simpler and
 * safer than trusting the client to say which session is its own.
 */
export async function changeOwnPassword(
  app: FastifyInstance,
  request: FastifyRequest,
  body: PasswordChange,
): Promise<ChangePasswordResponse> {
  const account = await currentAccount(app, request);
  // A provider that keeps the passwords itself (Firebase) changes it there.
  if (app.identity.changeOwnPassword) return app.identity.changeOwnPassword(request, account, body);
  if (!(await verifyPassword(account.passwordHash, body.currentPassword))) {
    throw fieldError('currentPassword', 'invalid');
  }
  assertUncommonPassword(body.newPassword, 'newPassword');
  const passwordHash = await hashPassword(body.newPassword);
  const now = app.clock.now();
  const { updated, refreshToken, sessionId } = await app.db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ passwordHash, passwordChangedAt: passwordChangeInstant(now), updatedAt: now })
      .where(eq(users.id, account.id))
      .returning();
    if (!row) throw notFound('user');
    const revokedSessions = await revokeUserSessions(tx, account.id, now, 'password_change');
    const session = await createSession(tx, account.id, now);
    await recordAudit(tx, actorOf(request), {
      action: 'account.change_password',
      entityType: 'user',
      entityId: account.id,
      after: { revokedSessions },
    });
    return { updated: row, refreshToken: session.refreshToken, sessionId: session.sessionId };
  });
  return {
    idToken: await signIdToken(app.tokenSigner, updated, sessionId, now),
    refreshToken,
    expiresIn: app.tokenSigner.ttlSeconds,
    localId: updated.id,
  };
}

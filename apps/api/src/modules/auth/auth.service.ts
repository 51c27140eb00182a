import { and, eq, isNull } from 'drizzle-orm';
import type {
  ForgotPasswordRequest,
  LoginRequest,
  LoginResponse,
  RegisterRequest,
  ResetPasswordRequest,
  TokenResponse,
} from '@sf/contract/auth';
import { isStaffRole } from '@sf/contract/roles';
import { passwordResetTokens, users } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { actorAs, recordAudit } from '../../lib/audit.ts';
import type { PublicCaller, ServiceDeps } from '../../lib/caller.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { TokenSigner } from '../../identity/token-signer.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../identity/passwords.ts';
import { assertUncommonPassword } from '../../identity/password-policy.ts';
import { hashOpaqueToken, newOpaqueToken } from '../../identity/opaque-tokens.ts';
import {
  defaultProfile,
  displayNameOf,
  findAccountByEmail,
  findAccountById,
  normaliseEmail,
  passwordChangeInstant,
  signIdToken,
  type Account,
} from '../../identity/accounts.ts';
import { createSession, revokeSession, revokeUserSessions, rotateRefreshToken, sessionOfRefreshToken } from '../../identity/sessions.ts';
import { accountThrottleKey, clearFailures, clearFailuresOfAccount, reserveAttempt, throttleKey } from '../../identity/login-throttle.ts';
import { emailConfirmationMail, passwordResetMail, registrationAttemptMail } from './auth-mails.ts';
import { EMAIL_CONFIRMATION_TTL_MS, type ConfirmEmailRequest } from '@sf/contract/email-confirmation';
import type { AfterReply } from '../../identity/provider.ts';

export const RESET_TOKEN_TTL_MS = 30 * 60_000;

/**
 * What the built-in identity flows need besides the database and the clock: the ID tokens' signer,
 * the mailer and the web app's address for the links of the e-mails (APP_URL only: a forged Host
 * header must not put an attacker's site in a link).
 */
export type AuthDeps = ServiceDeps & { tokenSigner: TokenSigner; mailer: Mailer; appUrl: string };

/** For the flows whose e-mails go out after the answer (register, forgot-password). */
export type AuthDepsAfterReply = AuthDeps & { afterReply: AfterReply };

/** One answer for a wrong password, an unknown, disabled or locked account: nothing to enumerate. */
export function invalidCredentials(): AppError {
  return new AppError(400, 'invalid_credentials');
}

export function invalidGrant(): AppError {
  return new AppError(400, 'invalid_grant');
}

export function invalidResetToken(): AppError {
  return new AppError(400, 'invalid_reset_token', { text: 'invalid_reset_token', fields: [{ field: 'token', message: 'invalid' }] });
}

/** A fresh sign-in: session + first refresh token, and an ID token carrying the current role. */
export async function issueSignIn(deps: Pick<AuthDeps, 'db' | 'clock' | 'tokenSigner'>, account: Account): Promise<LoginResponse> {
  const now = deps.clock.now();
  const { sessionId, refreshToken } = await createSession(deps.db, account.id, now);
  return {
    idToken: await signIdToken(deps.tokenSigner, account, sessionId, now),
    refreshToken,
    expiresIn: deps.tokenSigner.ttlSeconds,
    localId: account.id,
  };
}

export async function login(deps: AuthDeps, caller: PublicCaller, body: LoginRequest): Promise<LoginResponse> {
  const email = normaliseEmail(body.email);
  const keys = [throttleKey(email, caller.ip), accountThrottleKey(email)] as const;
  const now = deps.clock.now();
  // The attempt is counted BEFORE the password check, atomically: parallel guesses cannot all slip
  // through between a check and a count. A locked key (this address, or the account as a whole) is
  // refused without looking at the password: guessing on is pointless.
  if (!(await reserveAttempt(deps.db, keys[0], keys[1], now))) {
    caller.log.info({ reason: 'locked' }, 'sign-in refused');
    throw invalidCredentials();
  }
  const account = await findAccountByEmail(deps.db, email);
  // Unknown accounts cost one argon2 verification too, so timing does not reveal which exist.
  const isPasswordRight = await verifyPassword(account?.passwordHash ?? (await dummyPasswordHash()), body.password);
  // S1: only an active account with a staff role may sign in; any other gets the wrong-password
  // answer, after the same password check, so that nothing tells which addresses exist.
  const refusal = !account ? 'unknown' : !isPasswordRight ? 'password' : account.status !== 'active' ? 'disabled' : !isStaffRole(account.role) ? 'no_staff_role' : !account.emailConfirmedAt ? 'unconfirmed' : null;
  if (!account || refusal) {
    // The reserved attempt stays counted: it was a failure.
    caller.log.info({ reason: refusal }, 'sign-in refused');
    throw invalidCredentials();
  }
  await clearFailures(deps.db, [...keys]);
  return issueSignIn(deps, account);
}

export async function register(deps: AuthDepsAfterReply, caller: PublicCaller, body: RegisterRequest) {
  assertUncommonPassword(body.password, 'password');
  const email = normaliseEmail(body.email);
  // Hashed whether or not the address is taken, so both answers take as long.
  const passwordHash = await hashPassword(body.password);
  const displayName = displayNameOf(body.firstName, body.lastName);
  const now = deps.clock.now();
  const details = {
    passwordHash,
    displayName,
    profile: defaultProfile(body.firstName, body.lastName, caller.language),
    passwordChangedAt: now,
  };
  const outcome = await deps.db.transaction(async (tx): Promise<{ kind: 'confirm'; userId: string } | { kind: 'taken' }> => {
    const [row] = await tx
      .insert(users)
      .values({ email, role: null, status: 'active', emailConfirmedAt: null, ...details })
      .onConflictDoNothing({ target: users.email })
      .returning({ id: users.id, email: users.email, displayName: users.displayName, role: users.role });
    if (row) {
      await recordAudit(tx, actorAs(caller.actor, { id: row.id, email: row.email }), {
        action: 'account.register',
        entityType: 'user',
        entityId: row.id,
        after: { email: row.email, displayName: row.displayName, role: row.role, status: 'active', emailConfirmed: false },
      });
      return { kind: 'confirm', userId: row.id };
    }
    // An address nobody has confirmed proves nothing: the newest registration replaces it, and only
    // the newest link can confirm it (an older one, perhaps someone else's, dies here).
    const [unconfirmed] = await tx
      .update(users)
      .set({ ...details, updatedAt: now })
      .where(and(eq(users.email, email), isNull(users.emailConfirmedAt)))
      .returning({ id: users.id });
    if (!unconfirmed) return { kind: 'taken' };
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.userId, unconfirmed.id), isNull(passwordResetTokens.usedAt)));
    await recordAudit(tx, actorAs(caller.actor, { id: unconfirmed.id, email }), {
      action: 'account.register',
      entityType: 'user',
      entityId: unconfirmed.id,
      after: { email, displayName, replacedUnconfirmed: true },
    });
    return { kind: 'confirm', userId: unconfirmed.id };
  });
  if (outcome.kind === 'confirm') {
    deps.afterReply('address confirmation e-mail', async () => {
      const { token, hash } = newOpaqueToken();
      await deps.db.insert(passwordResetTokens).values({
        tokenHash: hash,
        purpose: 'email_confirmation',
        userId: outcome.userId,
        createdAt: now,
        expiresAt: new Date(now.getTime() + EMAIL_CONFIRMATION_TTL_MS),
      });
      const link = `${deps.appUrl}/auth/confirm-email?token=${encodeURIComponent(token)}`;
      await deps.mailer.send(emailConfirmationMail(email, displayName, link, caller.language));
    });
  } else {
    // The same 201 as for a new account; only the owner learns of the attempt, by e-mail.
    deps.afterReply('registration attempt e-mail', async () => {
      const owner = await findAccountByEmail(deps.db, email);
      if (!owner) return;
      const link = `${deps.appUrl}/auth/forgot-password`;
      await deps.mailer.send(registrationAttemptMail(owner.email, owner.displayName, link, owner.profile.language));
    });
  }
  return { email };
}

/**
 * B7: the single-use link of the confirmation e-mail. Only then may an admin approve the account (and
 * only then does the staff list show it as waiting).
 */
export async function confirmEmail(deps: ServiceDeps, caller: PublicCaller, body: ConfirmEmailRequest) {
  const now = deps.clock.now();
  const isDone = await deps.db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(passwordResetTokens.tokenHash, hashOpaqueToken(body.token)),
          eq(passwordResetTokens.purpose, 'email_confirmation'),
          isNull(passwordResetTokens.usedAt),
        ),
      )
      .returning({ userId: passwordResetTokens.userId, expiresAt: passwordResetTokens.expiresAt });
    if (!claimed || claimed.expiresAt.getTime() <= now.getTime()) return false;
    const [confirmed] = await tx
      .update(users)
      .set({ emailConfirmedAt: now, updatedAt: now })
      .where(and(eq(users.id, claimed.userId), isNull(users.emailConfirmedAt)))
      .returning({ id: users.id, email: users.email });
    if (!confirmed) return false;
    await recordAudit(tx, actorAs(caller.actor, confirmed), {
      action: 'account.confirm_email',
      entityType: 'user',
      entityId: confirmed.id,
      after: { emailConfirmed: true },
    });
    return true;
  });
  if (!isDone) {
    throw new AppError(400, 'invalid_confirmation_token', { text: 'invalid_confirmation_token', fields: [{ field: 'token', message: 'invalid' }] });
  }
  return { ok: true as const };
}

/**
 * Answers at once; everything that depends on whether the address exists (look-up, token, e-mail)
 * runs after the reply, so neither the body nor the timing tells.
 */
export function forgotPassword(deps: AuthDepsAfterReply, body: ForgotPasswordRequest) {
  const email = normaliseEmail(body.email);
  const requestedAt = deps.clock.now();
  deps.afterReply('password reset e-mail', async () => {
    const account = await findAccountByEmail(deps.db, email);
    if (!account || account.status !== 'active') return;
    const { token, hash } = newOpaqueToken();
    await deps.db.insert(passwordResetTokens).values({
      tokenHash: hash,
      userId: account.id,
      createdAt: requestedAt,
      expiresAt: new Date(requestedAt.getTime() + RESET_TOKEN_TTL_MS),
    });
    const link = `${deps.appUrl}/auth/reset-password?token=${encodeURIComponent(token)}`;
    await deps.mailer.send(passwordResetMail(account.email, account.displayName, link, account.profile.language));
  });
  return { ok: true as const };
}

export async function resetPassword(deps: ServiceDeps, caller: PublicCaller, body: ResetPasswordRequest) {
  assertUncommonPassword(body.password, 'password', 'newPassword');
  const passwordHash = await hashPassword(body.password);
  const now = deps.clock.now();
  const tokenHash = hashOpaqueToken(body.token);
  const isDone = await deps.db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(passwordResetTokens.tokenHash, tokenHash),
          eq(passwordResetTokens.purpose, 'password_reset'),
          isNull(passwordResetTokens.usedAt),
        ),
      )
      .returning({ userId: passwordResetTokens.userId, expiresAt: passwordResetTokens.expiresAt });
    if (!claimed || claimed.expiresAt.getTime() <= now.getTime()) return false;
    const account = await findAccountById(tx, claimed.userId);
    if (!account) return false;
    await tx
      .update(users)
      // The reset link reached the mailbox: that proves the address too.
      .set({ passwordHash, passwordChangedAt: passwordChangeInstant(now), updatedAt: now, emailConfirmedAt: account.emailConfirmedAt ?? now })
      .where(eq(users.id, account.id));
    const revokedSessions = await revokeUserSessions(tx, account.id, now, 'password_reset');
    // Any other reset link still in a mailbox dies with this one.
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(passwordResetTokens.userId, account.id),
          eq(passwordResetTokens.purpose, 'password_reset'),
          isNull(passwordResetTokens.usedAt),
        ),
      );
    await clearFailuresOfAccount(tx, account.email);
    await recordAudit(tx, actorAs(caller.actor, { id: account.id, email: account.email }), {
      action: 'account.password_reset',
      entityType: 'user',
      entityId: account.id,
      after: { revokedSessions },
    });
    return true;
  });
  // An expired token was still marked used above; rolling that back is not worth a second query.
  if (!isDone) throw invalidResetToken();
  return { ok: true as const };
}

export async function refreshTokens(deps: AuthDeps, caller: PublicCaller, refreshToken: string): Promise<TokenResponse> {
  const now = deps.clock.now();
  const rotation = await rotateRefreshToken(deps.db, refreshToken, now);
  if (!rotation.ok) {
    if (rotation.reason === 'reused') caller.log.warn('refresh token replayed: its whole family is revoked');
    throw invalidGrant();
  }
  const account = await findAccountById(deps.db, rotation.userId);
  // An account disabled, or left without a staff role, since the sign-in gets no new tokens (S1).
  if (!account || account.status !== 'active' || !isStaffRole(account.role)) {
    await revokeSession(deps.db, rotation.sessionId, now, 'disabled');
    throw invalidGrant();
  }
  // S10: the new ID token carries the account's role as it is now.
  const idToken = await signIdToken(deps.tokenSigner, account, rotation.sessionId, now);
  return {
    access_token: idToken,
    id_token: idToken,
    refresh_token: rotation.refreshToken,
    expires_in: deps.tokenSigner.ttlSeconds,
    token_type: 'Bearer',
  };
}

export async function logout(deps: ServiceDeps, refreshToken: string) {
  const sessionId = await sessionOfRefreshToken(deps.db, refreshToken);
  if (sessionId) await revokeSession(deps.db, sessionId, deps.clock.now(), 'logout');
  return { ok: true as const };
}

import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { PublicCaller } from '../../lib/caller.ts';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DecodedIdToken } from 'firebase-admin/auth';
import { isStaffRole } from '@sf/contract/roles';
import type { LoginResponse } from '@sf/contract/auth';
import { users } from '../../db/schema.ts';
import { AppError, fieldError, unauthenticated } from '../../lib/errors.ts';
import { actorAs, recordAudit } from '../../lib/audit.ts';
import { assertUncommonPassword } from '../../identity/password-policy.ts';
import { defaultProfile, displayNameOf, findAccountByEmail, normaliseEmail, type Account } from '../../identity/accounts.ts';
import { accountThrottleKey, clearFailures, clearFailuresOfAccount, reserveAttempt, throttleKey } from '../../identity/login-throttle.ts';
import type { IdentityProvider } from '../../identity/provider.ts';
import { createFirebaseAdmin, FIREBASE_MANAGED_PASSWORD, type FirebaseAdmin } from '../../identity/firebase/firebase-admin.ts';
import { createFirebaseRest, FirebaseRestError, type FirebaseRest } from '../../identity/firebase/firebase-rest.ts';
import { decodeJwt } from 'jose';
import { invalidCredentials, invalidGrant, invalidResetToken } from './auth.service.ts';
import { emailConfirmationMail, passwordResetMail, registrationAttemptMail } from './auth-mails.ts';

/** Firebase cannot end a single sign-in; a Firebase sign-in is its user and the time it signed in. */
export function firebaseSessionId(claims: { uid?: string; sub?: string; auth_time?: unknown }): string {
  const uid = claims.uid ?? claims.sub ?? '';
  return createHash('sha256').update(`firebase|${uid}|${String(claims.auth_time)}`).digest('hex').slice(0, 32);
}

/** Whole seconds: Firebase's `auth_time` has no more. */
function seconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

function unavailable(): AppError {
  return new AppError(503, 'unavailable', { text: 'identity_unavailable' });
}

/** The Admin SDK could not reach Firebase or Google's keys. */
function isOutage(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? '';
  return code.startsWith('app/network') || code === 'auth/internal-error';
}

/** Anything but "those credentials/codes are wrong" (a 400 from Firebase) means Firebase is out of reach. */
function isRefusal(error: unknown): error is FirebaseRestError {
  return error instanceof FirebaseRestError && error.status >= 400 && error.status < 500;
}

/** The code of a Firebase e-mail action link (`…?mode=…&oobCode=…`), which our own pages take as `token`. */
function oobCodeOf(link: string): string {
  const code = new URL(link).searchParams.get('oobCode');
  if (!code) throw new Error('Firebase returned an action link without oobCode');
  return code;
}

/**
 * Firebase Authentication as the identity provider (B1, AUTH_PROVIDER=firebase, decision 023). The
 * browser still talks only to our `/api/auth/*`: we call Firebase's REST endpoints with the project's
 * Web API key, verify its ID tokens with the Admin SDK, and keep our own account row (linked by
 * `firebase_uid`) as the authority on role and status, read on every request.
 */
export function createFirebaseProvider(app: FastifyInstance): IdentityProvider {
  const env = app.env;
  const admin: FirebaseAdmin = createFirebaseAdmin(env);
  const rest: FirebaseRest = createFirebaseRest({
    // The emulator takes any key; a real project needs its own (env.ts requires it there).
    apiKey: env.FIREBASE_API_KEY ?? 'emulator',
    emulatorHost: env.FIREBASE_AUTH_EMULATOR_HOST,
  });

  let findByUid: ReturnType<typeof prepareFindByUid> | undefined;
  const prepareFindByUid = () =>
    app.db.select().from(users).where(eq(users.firebaseUid, sql.placeholder('uid'))).limit(1).prepare('firebase_account');

  async function accountOfUid(uid: string): Promise<Account | undefined> {
    findByUid ??= prepareFindByUid();
    const [account] = await findByUid.execute({ uid });
    return account;
  }

  /**
   * Our account for a Firebase user: the one linked to its uid; else, once Firebase has verified the
   * address, the unlinked account with that address (now linked); else, for a user whose `role` claim
   * is a staff role (set by an admin of the Firebase project), a new account with that role. A
   * customer of the mobile app (no staff claim) never gets a row.
   */
  async function accountFor(decoded: DecodedIdToken, caller: PublicCaller): Promise<Account | undefined> {
    const linked = await accountOfUid(decoded.uid);
    if (linked) return linked;
    if (!decoded.email) return undefined;
    const email = normaliseEmail(decoded.email);
    const now = app.clock.now();
    return app.db.transaction(async (tx) => {
      if (decoded.email_verified) {
        const [row] = await tx
          .update(users)
          .set({ firebaseUid: decoded.uid, updatedAt: now })
          .where(and(eq(users.email, email), isNull(users.firebaseUid)))
          .returning();
        if (row) {
          await recordAudit(tx, actorAs(caller.actor, { id: row.id, email: row.email }), {
            action: 'account.link_firebase',
            entityType: 'user',
            entityId: row.id,
            after: { firebaseUid: decoded.uid },
          });
          return row;
        }
      }
      const claim = decoded['role'] as unknown;
      if (!isStaffRole(claim)) return undefined;
      const name = typeof decoded['name'] === 'string' ? decoded['name'] : (email.split('@')[0] ?? '');
      const [firstName = '', ...rest] = name.trim().split(/\s+/);
      const [row] = await tx
        .insert(users)
        .values({
          email,
          passwordHash: FIREBASE_MANAGED_PASSWORD,
          role: claim,
          status: 'active',
          displayName: name.trim(),
          profile: defaultProfile(firstName, rest.join(' '), caller.language),
          // Vouched for by whoever gave the staff claim in the Firebase project.
          emailConfirmedAt: now,
          firebaseUid: decoded.uid,
          passwordChangedAt: new Date(0),
        })
        .onConflictDoNothing()
        .returning();
      if (!row) return undefined;
      await recordAudit(tx, actorAs(caller.actor, { id: row.id, email: row.email }), {
        action: 'account.import_firebase',
        entityType: 'user',
        entityId: row.id,
        after: { email, role: claim, firebaseUid: decoded.uid },
      });
      return row;
    });
  }

  /** Ends every sign-in of the account in this app up to now (Firebase cannot end just one). */
  async function endSignIns(accountId: string) {
    const now = app.clock.now();
    await app.db.update(users).set({ passwordChangedAt: new Date(seconds(now) * 1000), updatedAt: now }).where(eq(users.id, accountId));
  }

  /** A sign-in that began before the account's last password change or logout is over. */
  function isEndedSignIn(decoded: DecodedIdToken, account: Account): boolean {
    return decoded.auth_time < seconds(account.passwordChangedAt);
  }

  async function verify(idToken: string, checkRevoked = false): Promise<DecodedIdToken> {
    return admin.auth.verifyIdToken(idToken, checkRevoked);
  }

  async function signIn(email: string, password: string, caller: PublicCaller) {
    try {
      return await rest.signInWithPassword(email, password);
    } catch (error) {
      if (isRefusal(error)) {
        caller.log.info({ reason: `firebase:${error.reason}` }, 'sign-in refused');
        throw invalidCredentials();
      }
      caller.log.error({ err: error }, 'Firebase sign-in failed');
      throw unavailable();
    }
  }

  const provider: IdentityProvider = {
    kind: 'firebase',

    async login(body, caller): Promise<LoginResponse> {
      const email = normaliseEmail(body.email);
      const keys = [throttleKey(email, caller.ip), accountThrottleKey(email)] as const;
      // Our lock-out first (ADR 008), whatever Firebase's own throttling does.
      if (!(await reserveAttempt(app.db, keys[0], keys[1], app.clock.now()))) {
        caller.log.info({ reason: 'locked' }, 'sign-in refused');
        throw invalidCredentials();
      }
      const answer = await signIn(email, body.password, caller);
      const decoded = await verify(answer.idToken).catch((error: unknown) => {
        caller.log.error({ err: error }, 'Firebase ID token not verified');
        throw unavailable();
      });
      let account = await accountFor(decoded, caller);
      if (account && decoded.email_verified && !account.emailConfirmedAt) {
        // B7: the address was confirmed at Firebase (its own link): an admin may approve the account now.
        [account] = await app.db.update(users).set({ emailConfirmedAt: app.clock.now() }).where(eq(users.id, account.id)).returning();
      }
      // S1: the token's `role` claim must be a staff role, AND our database must agree that the
      // account is active, confirmed and has a staff role; anything else is the wrong-password answer.
      const refusal = !account
        ? 'no_account'
        : account.status !== 'active'
          ? 'disabled'
          : !isStaffRole(account.role)
            ? 'no_staff_role'
            : !isStaffRole(decoded['role'])
              ? 'no_staff_claim'
              : !account.emailConfirmedAt
                ? 'unconfirmed'
                : null;
      if (!account || refusal) {
        caller.log.info({ reason: refusal }, 'sign-in refused');
        throw invalidCredentials();
      }
      await clearFailures(app.db, [...keys]);
      // Our database wins: a claim that differs from it is put right, so the next refresh carries our role.
      if (decoded['role'] !== account.role) {
        await admin.syncClaims(account).catch((error: unknown) => caller.log.warn({ err: error }, 'custom claims not updated'));
      }
      return { idToken: answer.idToken, refreshToken: answer.refreshToken, expiresIn: Number(answer.expiresIn), localId: account.id };
    },

    async register(body, caller, afterReply) {
      assertUncommonPassword(body.password, 'password');
      const email = normaliseEmail(body.email);
      const displayName = displayNameOf(body.firstName, body.lastName);
      let created;
      try {
        created = await rest.signUp(email, body.password, displayName);
      } catch (error) {
        if (!(error instanceof FirebaseRestError && error.reason === 'EMAIL_EXISTS')) {
          caller.log.error({ err: error }, 'Firebase registration failed');
          throw isRefusal(error) ? fieldError('email') : unavailable();
        }
        // The same 201 as for a new account; only an owner we know learns of the attempt, by e-mail.
        afterReply('registration attempt e-mail', async () => {
          const owner = await findAccountByEmail(app.db, email);
          if (!owner) return;
          await app.mailer.send(registrationAttemptMail(owner.email, owner.displayName, `${env.APP_URL}/auth/forgot-password`, owner.profile.language));
        });
        return { email };
      }
      const now = app.clock.now();
      const details = {
        firebaseUid: created.localId,
        passwordHash: FIREBASE_MANAGED_PASSWORD,
        displayName,
        profile: defaultProfile(body.firstName, body.lastName, caller.language),
        passwordChangedAt: new Date(0),
      };
      const userId = await app.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(users)
          .values({ email, role: null, status: 'active', emailConfirmedAt: null, ...details })
          .onConflictDoNothing({ target: users.email })
          .returning({ id: users.id });
        // An unconfirmed account with this address (a registration under the built-in provider) is replaced;
        // a confirmed one is left alone: the new Firebase user links to it only once Firebase verified the address.
        const [replaced] = row
          ? [row]
          : await tx
              .update(users)
              .set({ ...details, updatedAt: now })
              .where(and(eq(users.email, email), isNull(users.emailConfirmedAt)))
              .returning({ id: users.id });
        if (!replaced) return null;
        await recordAudit(tx, actorAs(caller.actor, { id: replaced.id, email }), {
          action: 'account.register',
          entityType: 'user',
          entityId: replaced.id,
          after: { email, displayName, role: null, status: 'active', emailConfirmed: false, firebaseUid: created.localId },
        });
        return replaced.id;
      });
      if (userId) {
        afterReply('address confirmation e-mail', async () => {
          // Firebase makes the single-use code; the e-mail and the page that applies it are ours.
          const code = oobCodeOf(await admin.auth.generateEmailVerificationLink(email));
          const link = `${env.APP_URL}/auth/confirm-email?token=${encodeURIComponent(code)}`;
          await app.mailer.send(emailConfirmationMail(email, displayName, link, caller.language));
        });
      }
      return { email };
    },

    async confirmEmail(body, caller) {
      let confirmed;
      try {
        confirmed = await rest.applyEmailVerification(body.token);
      } catch (error) {
        if (!isRefusal(error)) throw unavailable();
        throw new AppError(400, 'invalid_confirmation_token', { text: 'invalid_confirmation_token', fields: [{ field: 'token', message: 'invalid' }] });
      }
      const now = app.clock.now();
      await app.db.transaction(async (tx) => {
        const [row] = await tx
          .update(users)
          .set({ emailConfirmedAt: now, updatedAt: now })
          .where(and(eq(users.firebaseUid, confirmed.localId), isNull(users.emailConfirmedAt)))
          .returning({ id: users.id, email: users.email });
        if (!row) return;
        await recordAudit(tx, actorAs(caller.actor, row), { action: 'account.confirm_email', entityType: 'user', entityId: row.id, after: { emailConfirmed: true } });
      });
      return { ok: true as const };
    },

    forgotPassword(body, _caller, afterReply) {
      const email = normaliseEmail(body.email);
      afterReply('password reset e-mail', async () => {
        const account = await findAccountByEmail(app.db, email);
        if (!account || account.status !== 'active') return;
        let code;
        try {
          code = oobCodeOf(await admin.auth.generatePasswordResetLink(email));
        } catch (error) {
          // No Firebase user with that address: nothing to reset.
          if ((error as { code?: string }).code === 'auth/email-not-found' || (error as { code?: string }).code === 'auth/user-not-found') return;
          throw error;
        }
        const link = `${env.APP_URL}/auth/reset-password?token=${encodeURIComponent(code)}`;
        await app.mailer.send(passwordResetMail(account.email, account.displayName, link, account.profile.language));
      });
      return { ok: true as const };
    },

    async resetPassword(body, caller) {
      assertUncommonPassword(body.password, 'password', 'newPassword');
      let reset;
      try {
        reset = await rest.resetPassword(body.token, body.password);
      } catch (error) {
        if (!isRefusal(error)) throw unavailable();
        throw invalidResetToken();
      }
      const account = await findAccountByEmail(app.db, reset.email);
      if (account) {
        const now = app.clock.now();
        await app.db.transaction(async (tx) => {
          // Every earlier sign-in ends (Firebase ends its refresh tokens; we refuse older ID tokens),
          // and the link reached the mailbox: that proves the address too.
          await tx
            .update(users)
            .set({ passwordChangedAt: new Date(seconds(now) * 1000), emailConfirmedAt: account.emailConfirmedAt ?? now, updatedAt: now })
            .where(eq(users.id, account.id));
          await clearFailuresOfAccount(tx, account.email);
          await recordAudit(tx, actorAs(caller.actor, { id: account.id, email: account.email }), {
            action: 'account.password_reset',
            entityType: 'user',
            entityId: account.id,
            after: { provider: 'firebase' },
          });
        });
      }
      return { ok: true as const };
    },

    async refresh(refreshToken, caller) {
      let answer;
      try {
        answer = await rest.refresh(refreshToken);
      } catch (error) {
        if (!isRefusal(error)) throw unavailable();
        caller.log.info({ reason: `firebase:${error.reason}` }, 'refresh refused');
        throw invalidGrant();
      }
      let decoded;
      try {
        decoded = await verify(answer.id_token);
      } catch (error) {
        // e.g. a sign-in Firebase revoked since (the emulator checks revocation on every verification).
        caller.log.info({ reason: (error as { code?: string }).code }, 'refresh refused');
        throw invalidGrant();
      }
      const account = await accountOfUid(decoded.uid);
      // An account disabled, left without a staff role, or signed out since (S1, S10) gets no new tokens.
      if (!account || account.status !== 'active' || !isStaffRole(account.role) || isEndedSignIn(decoded, account)) {
        caller.log.info('refresh refused: the account may no longer enter, or its sign-in ended');
        throw invalidGrant();
      }
      return {
        access_token: answer.id_token,
        id_token: answer.id_token,
        refresh_token: answer.refresh_token,
        expires_in: Number(answer.expires_in),
        token_type: 'Bearer' as const,
      };
    },

    async logout(refreshToken) {
      // Firebase's refresh tokens cannot be ended one by one, and revoking them at Firebase would also
      // sign the person out of the customers' app: every sign-in of the account in THIS app ends.
      try {
        const answer = await rest.refresh(refreshToken);
        const account = await accountOfUid(answer.user_id);
        if (account) await endSignIns(account.id);
      } catch (error) {
        if (!isRefusal(error)) throw unavailable();
      }
      return { ok: true as const };
    },

    sessionIdOf(idToken) {
      return firebaseSessionId(decodeJwt(idToken));
    },

    async authenticate(token, options) {
      let decoded;
      try {
        decoded = await verify(token, options.checkRevoked);
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'auth/id-token-expired') throw unauthenticated('token_expired');
        // Firebase (or Google's keys) out of reach says nothing about the token: not a sign-out.
        if (isOutage(error)) throw unavailable();
        throw unauthenticated('invalid_token');
      }
      const account = await accountOfUid(decoded.uid);
      if (!account || account.status !== 'active') throw unauthenticated('invalid_token', 'account_inactive');
      if (isEndedSignIn(decoded, account)) throw unauthenticated('invalid_token', 'token_revoked');
      return { account, sessionId: firebaseSessionId(decoded) };
    },

    async changeOwnPassword(caller, account, body) {
      const currentWrong = () => {
        return fieldError('currentPassword', 'invalid');
      };
      if (!account.firebaseUid) throw currentWrong();
      try {
        await rest.signInWithPassword(account.email, body.currentPassword);
      } catch (error) {
        if (!isRefusal(error)) throw unavailable();
        throw currentWrong();
      }
      assertUncommonPassword(body.newPassword, 'newPassword');
      await admin.auth.updateUser(account.firebaseUid, { password: body.newPassword });
      await endSignIns(account.id);
      await recordAudit(app.db, caller.actor, { action: 'account.change_password', entityType: 'user', entityId: account.id, after: { provider: 'firebase' } });
      const answer = await signIn(account.email, body.newPassword, caller);
      return { idToken: answer.idToken, refreshToken: answer.refreshToken, expiresIn: Number(answer.expiresIn), localId: account.id };
    },

    async provisionInvitedAccount(tx, account, password) {
      const existing = await admin.auth.getUserByEmail(account.email).catch((error: unknown) => {
        if ((error as { code?: string }).code === 'auth/user-not-found') return null;
        throw error;
      });
      const details = { password, displayName: account.displayName || undefined, emailVerified: true };
      const user = existing
        ? await admin.auth.updateUser(existing.uid, details)
        : await admin.auth.createUser({ email: account.email, ...details });
      // The password lives at Firebase now; ours can never match it.
      const [linked] = await tx
        .update(users)
        .set({ firebaseUid: user.uid, passwordHash: FIREBASE_MANAGED_PASSWORD })
        .where(eq(users.id, account.id))
        .returning();
      // The sign-in that follows needs the staff claim on the token (S1 checks both it and our row).
      await admin.syncClaims(linked!);
      return linked!;
    },

    accountChanged: (account) => admin.syncClaims(account),
    close: () => admin.close(),
  };
  return provider;
}

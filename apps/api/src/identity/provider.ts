import type {
  ChangePasswordResponse,
  ForgotPasswordRequest,
  LoginRequest,
  LoginResponse,
  RegisterRequest,
  ResetPasswordRequest,
  TokenResponse,
} from '@sf/contract/auth';
import type { ConfirmEmailRequest } from '@sf/contract/email-confirmation';
import type { Executor } from '../db/client.ts';
import type { Account } from './accounts.ts';
import type { BoundStatement } from '../db/statement-shape.ts';
import type { PublicCaller } from '../lib/caller.ts';

/** Work done after the answer went out (so that its timing tells nothing). */
export type AfterReply = (what: string, work: () => Promise<void>) => void;

export type PasswordChange = { currentPassword: string; newPassword: string };

/** Who a verified ID token belongs to: the account row as it is NOW, and the sign-in the token is part of. */
export type Authenticated = { account: Account; sessionId: string };

/** The part of the account the guard decides on, read in a write's own first batch (decision 028). */
export type CheckedAccount = Pick<Account, 'id' | 'email' | 'displayName' | 'role' | 'status'>;

/**
 * A token already verified (signature, expiry, a sign-in named), whose account is still to be read:
 * by the caller, as one statement of its own first round trip to the database (decision 028).
 */
export type DeferredAccountCheck = {
  /** The sign-in the token names (binds the forgery-protection token; `conclude` checks it is live). */
  sessionId: string;
  /** Reads the account and that sign-in as they are now: one statement. */
  statement: BoundStatement;
  /** What `authenticate` would have answered, from the statement's rows; throws the same 401s. */
  conclude(rows: Record<string, unknown>[]): { account: CheckedAccount; sessionId: string };
};

/**
 * The identity provider behind `/api/auth/*` and the guard of `/api/admin/*` (B1): the built-in one
 * (`modules/auth/builtin-provider.ts`) or Firebase Authentication (`firebase/firebase-provider.ts`),
 * chosen by AUTH_PROVIDER. Both answer the web app with the same shapes, so the web app does not know
 * which one runs (decision 023). Whatever the provider, the account's role and status come from OUR
 * database on every request.
 */
export interface IdentityProvider {
  readonly kind: 'builtin' | 'firebase';
  /** S1: tokens only for an active, confirmed account with a staff role; else 400 invalid_credentials. */
  login(body: LoginRequest, caller: PublicCaller): Promise<LoginResponse>;
  /** S6/B7: an account without a role, whose address must be confirmed. */
  register(body: RegisterRequest, caller: PublicCaller, afterReply: AfterReply): Promise<{ email: string }>;
  confirmEmail(body: ConfirmEmailRequest, caller: PublicCaller): Promise<{ ok: true }>;
  /** S7: same answer for any address; the work happens after the reply. */
  forgotPassword(body: ForgotPasswordRequest, caller: PublicCaller, afterReply: AfterReply): { ok: true };
  resetPassword(body: ResetPasswordRequest, caller: PublicCaller): Promise<{ ok: true }>;
  /** S10: the secure-token endpoint; 400 invalid_grant for an account that may no longer enter. */
  refresh(refreshToken: string, caller: PublicCaller): Promise<TokenResponse>;
  logout(refreshToken: string, caller: PublicCaller): Promise<{ ok: true }>;
  /** The sign-in an ID token this provider just issued belongs to (binds the forgery-protection cookie). */
  sessionIdOf(idToken: string): string;
  /**
   * The guard's check of a presented ID token; throws a 401 AppError. `checkRevoked`: also ask the
   * provider whether the sign-in was revoked since (a network round trip with Firebase).
   */
  authenticate(token: string, options: { checkRevoked: boolean }): Promise<Authenticated>;
  /**
   * The same check in two steps, for a write whose first round trip can carry the account's read
   * (decision 028). Absent: the provider cannot (Firebase asks its own servers about revocation).
   */
  deferAccountCheck?(token: string): Promise<DeferredAccountCheck>;
  /** How many times the guard read an account so far, for tests and benchmarks. */
  readonly accountCheckStats?: { readonly requests: number };
  /**
   * The profile dialog's password change, for a provider that keeps the passwords itself (Firebase);
   * absent: ours, in `modules/staff/self.service.ts`. Ends every session, answers with a fresh sign-in.
   */
  changeOwnPassword?(caller: PublicCaller, account: Account, body: PasswordChange): Promise<ChangePasswordResponse>;
  /**
   * An invited person's account, just created in our database inside `tx`, gets its credentials where
   * the provider keeps them; absent: ours (the built-in provider stored the password's hash already).
   * Firebase: the Firebase user of the address (created, or the existing one given this password: the
   * invitation link proved the mailbox), linked by uid, with its `role` claim. Returns the account.
   */
  provisionInvitedAccount?(tx: Executor, account: Account, password: string): Promise<Account>;
  /** After an admin or the CLI changed an account's role or status (Firebase: the custom claims follow). */
  accountChanged(account: Account): Promise<void>;
  close(): Promise<void>;
}

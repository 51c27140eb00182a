import { eq, sql, type SQL } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import type { Language } from '@sf/contract/app-info';
import type { StaffProfile, StaffUser } from '@sf/contract/auth';
import type { Executor } from '../db/client.ts';
import { users } from '../db/schema.ts';
import type { TokenSigner } from './token-signer.ts';

export type Account = typeof users.$inferSelect;

/** Addresses are stored lower-cased (the unique index relies on it); surrounding blanks never matter. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findAccountByEmail(executor: Executor, email: string): Promise<Account | undefined> {
  const [account] = await executor.select().from(users).where(eq(users.email, normaliseEmail(email))).limit(1);
  return account;
}

export async function findAccountById(executor: Executor, id: string): Promise<Account | undefined> {
  const [account] = await executor.select().from(users).where(eq(users.id, id)).limit(1);
  return account;
}

/** A new account's profile: the given names, the request's language, Rome's time zone, blanks elsewhere. */
export function defaultProfile(firstName: string, lastName: string, language: Language): StaffProfile {
  return {
    firstName,
    lastName,
    fullname: displayNameOf(firstName, lastName),
    occupation: '',
    companyName: '',
    phone: '',
    language,
    timeZone: 'Europe/Rome',
    website: '',
    pic: '',
    communication: { email: false, sms: false, phone: false },
    address: { addressLine: '', city: '', state: '', postCode: '' },
    socialNetworks: { linkedIn: '', facebook: '', twitter: '', instagram: '' },
  };
}

export function displayNameOf(firstName: string, lastName: string): string {
  return `${firstName} ${lastName}`.trim();
}

/**
 * S3 + the profile. Profiles written by older code may miss a field; the defaults fill it so that the
 * answer always matches the contract.
 */
export function toStaffUser(account: Account): StaffUser {
  const base = defaultProfile('', '', 'it');
  const profile = account.profile;
  return {
    ...base,
    ...profile,
    communication: { ...base.communication, ...profile.communication },
    address: { ...base.address, ...profile.address },
    socialNetworks: { ...base.socialNetworks, ...profile.socialNetworks },
    uid: account.id,
    email: account.email,
    displayName: account.displayName,
    role: account.role ?? null,
  };
}

/**
 * The guard refuses ID tokens issued before the account's last password change (compared in whole
 * seconds), so a token is never dated before that instant: otherwise a sign-in in the same second as
 * a reset would get a token that is dead on arrival.
 */
export function signIdToken(signer: TokenSigner, account: Account, sessionId: string, now: Date): Promise<string> {
  const issuedAt = new Date(Math.max(now.getTime(), account.passwordChangedAt.getTime()));
  return signer.sign(
    // `sid` ties the token to its sign-in: the guard refuses it once that session is revoked or over.
    { sub: account.id, email: account.email, name: account.displayName, role: account.role ?? null, sid: sessionId },
    { now: issuedAt },
  );
}

/** The session of an ID token we just signed (no need to verify it again). */
export function sessionIdOf(idToken: string): string {
  const { sid } = decodeJwt(idToken);
  if (typeof sid !== 'string') throw new Error('an ID token without sid');
  return sid;
}

/**
 * The value to store as `password_changed_at`: the next whole second, so that every ID token issued
 * up to now (its `iat` has whole seconds) counts as issued before it; and never earlier than the
 * previous change, since tokens were issued up to that instant too (a clock set back must not revive them).
 */
export function passwordChangeInstant(now: Date): SQL {
  const nextSecond = new Date((Math.floor(now.getTime() / 1000) + 1) * 1000);
  return sql`greatest(${nextSecond.toISOString()}::timestamptz, date_trunc('second', ${users.passwordChangedAt}) + interval '1 second')`;
}

import { randomBytes } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { ACCOUNT_ROLES, type AccountRole } from '@sf/contract/roles';
import { BOUNDS, emailSchema } from '@sf/contract/validation';
import type { Database } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { recordAudit, type AuditActor } from '../lib/audit.ts';
import { hashPassword } from '../identity/passwords.ts';
import { isCommonPassword } from '../identity/password-policy.ts';
import { defaultProfile, displayNameOf, findAccountByEmail, normaliseEmail, type Account } from '../identity/accounts.ts';
import { accountSummary, changeAccount, type AccountChanges } from '../identity/account-admin.ts';
import { FIREBASE_MANAGED_PASSWORD, type FirebaseAdmin } from '../identity/firebase/firebase-admin.ts';

/** With AUTH_PROVIDER=firebase: the Admin SDK, so that accounts link to their Firebase user and claims follow. */
export type CliFirebase = FirebaseAdmin | null;

/** A mistake of the operator: printed as is, exit code 1, no stack. */
export class CliError extends Error {}

/** Audit records of the CLI name no account: the operator is whoever runs it on the server. */
export const CLI_ACTOR: AuditActor = { id: null, email: 'cli' };

function validEmail(email: string | undefined): string {
  if (!email) throw new CliError('--email is required');
  const parsed = emailSchema.safeParse(normaliseEmail(email));
  if (!parsed.success) throw new CliError(`--email "${email}" is not a valid e-mail address`);
  return parsed.data;
}

async function existingAccount(db: Database, email: string | undefined, firebase: CliFirebase = null): Promise<Account> {
  const address = validEmail(email);
  let account = await findAccountByEmail(db, address);
  if (firebase && !account?.firebaseUid) account = await linkFirebaseUser(db, address, account, firebase);
  if (!account) throw new CliError(`No account with the e-mail ${address}${firebase ? ', here or in the Firebase project' : ''}`);
  return account;
}

/**
 * With Firebase: the operator names a person by e-mail, so the Firebase user with that address is
 * theirs: an account of ours without a Firebase user is linked to it, and a Firebase user we have no
 * account for (a business already on Firebase) gets one, confirmed, without a role until granted.
 */
async function linkFirebaseUser(db: Database, email: string, account: Account | undefined, firebase: FirebaseAdmin): Promise<Account | undefined> {
  const user = await firebase.auth.getUserByEmail(email).catch((error: { code?: string }) => {
    if (error.code === 'auth/user-not-found') return null;
    throw error;
  });
  if (!user) return account;
  return db.transaction(async (tx) => {
    const now = new Date();
    if (account) {
      const [linked] = await tx.update(users).set({ firebaseUid: user.uid, updatedAt: now }).where(eq(users.id, account.id)).returning();
      await recordAudit(tx, CLI_ACTOR, { action: 'staff.link_firebase', entityType: 'user', entityId: account.id, after: { firebaseUid: user.uid } });
      return linked;
    }
    const [firstName = '', ...rest] = (user.displayName?.trim() || email.split('@')[0] || '').split(/\s+/);
    const [row] = await tx
      .insert(users)
      .values({
        email,
        passwordHash: FIREBASE_MANAGED_PASSWORD,
        role: null,
        status: 'active',
        displayName: displayNameOf(firstName, rest.join(' ')),
        profile: defaultProfile(firstName, rest.join(' '), 'it'),
        emailConfirmedAt: now,
        firebaseUid: user.uid,
        passwordChangedAt: new Date(0),
      })
      .returning();
    if (!row) throw new Error('account insert returned no row');
    await recordAudit(tx, CLI_ACTOR, { action: 'staff.import_firebase', entityType: 'user', entityId: row.id, after: { ...summary(row), firebaseUid: user.uid } });
    return row;
  });
}

const summary = accountSummary;

/** 18 random bytes: 24 URL-safe characters, far beyond any guessing. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

export async function createAdmin(
  db: Database,
  options: { email?: string | undefined; name?: string | undefined; password?: string | undefined },
  now: Date,
  firebase: CliFirebase = null,
): Promise<{ email: string; generatedPassword: string | null }> {
  const email = validEmail(options.email);
  const password = options.password ?? generatePassword();
  if (password.length < BOUNDS.passwordMin || password.length > BOUNDS.passwordMax) {
    throw new CliError(`--password must be ${BOUNDS.passwordMin}–${BOUNDS.passwordMax} characters long`);
  }
  if (isCommonPassword(password)) throw new CliError('--password is one of the most common passwords: choose another');
  if (await findAccountByEmail(db, email)) {
    throw new CliError(`An account with the e-mail ${email} exists already: use "grant --email ${email} --role admin"`);
  }
  const [firstName = '', ...rest] = (options.name?.trim() || email.split('@')[0] || '').split(/\s+/);
  const lastName = rest.join(' ');
  // With Firebase the password lives there: a new Firebase user, its address taken as confirmed.
  const firebaseUser = firebase
    ? await firebase.auth
        .createUser({ email, password, displayName: displayNameOf(firstName, lastName) || undefined, emailVerified: true })
        .catch((error: { code?: string }) => {
          if (error.code === 'auth/email-already-exists') {
            throw new CliError(`A Firebase user with the e-mail ${email} exists already: use "grant --email ${email} --role admin"`);
          }
          throw error;
        })
    : null;
  const passwordHash = firebaseUser ? FIREBASE_MANAGED_PASSWORD : await hashPassword(password);
  const created = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(users)
      .values({
        email,
        passwordHash,
        role: 'admin',
        status: 'active',
        displayName: displayNameOf(firstName, lastName),
        profile: defaultProfile(firstName, lastName, 'it'),
        passwordChangedAt: firebaseUser ? new Date(0) : now,
        firebaseUid: firebaseUser?.uid ?? null,
      })
      .returning();
    if (!row) throw new Error('account insert returned no row');
    await recordAudit(tx, CLI_ACTOR, { action: 'staff.create_admin', entityType: 'user', entityId: row.id, after: summary(row) });
    return row;
  });
  await firebase?.syncClaims(created);
  return { email, generatedPassword: options.password ? null : password };
}

async function updateAccount(db: Database, account: Account, changes: AccountChanges, now: Date, firebase: CliFirebase): Promise<Account> {
  const updated = await changeAccount(db, account, changes, CLI_ACTOR, now, firebase ? { afterChange: (changed) => firebase.syncClaims(changed) } : {});
  if (!updated) throw new CliError(`No account with the e-mail ${account.email}`);
  return updated;
}

export async function grantRole(
  db: Database,
  options: { email?: string | undefined; role?: string | undefined },
  now: Date,
  firebase: CliFirebase = null,
) {
  if (!options.role || !(ACCOUNT_ROLES as readonly string[]).includes(options.role)) {
    throw new CliError(`--role must be one of: ${ACCOUNT_ROLES.join(', ')}`);
  }
  const account = await existingAccount(db, options.email, firebase);
  if (!account.emailConfirmedAt) {
    throw new CliError(`${account.email} has not confirmed its address yet (B7): it cannot be given a role before it does`);
  }
  return summary(await updateAccount(db, account, { role: options.role as AccountRole }, now, firebase));
}

export async function revokeRole(db: Database, options: { email?: string | undefined }, now: Date, firebase: CliFirebase = null) {
  const account = await existingAccount(db, options.email, firebase);
  return summary(await updateAccount(db, account, { role: null }, now, firebase));
}

export async function setStatus(
  db: Database,
  options: { email?: string | undefined },
  status: 'active' | 'disabled',
  now: Date,
  firebase: CliFirebase = null,
) {
  const account = await existingAccount(db, options.email, firebase);
  return summary(await updateAccount(db, account, { status }, now, firebase));
}

export async function listAccounts(db: Database) {
  const rows = await db.select().from(users).orderBy(asc(users.email));
  return rows.map(summary);
}

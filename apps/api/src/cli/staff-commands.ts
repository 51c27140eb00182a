import { randomBytes } from 'node:crypto';
import { asc } from 'drizzle-orm';
import { ACCOUNT_ROLES, type AccountRole } from '@sf/contract/roles';
import { BOUNDS, emailSchema } from '@sf/contract/validation';
import type { Database } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { recordAudit, type AuditActor } from '../lib/audit.ts';
import { hashPassword } from '../identity/passwords.ts';
import { isCommonPassword } from '../identity/password-policy.ts';
import { defaultProfile, displayNameOf, findAccountByEmail, normaliseEmail, type Account } from '../identity/accounts.ts';
import { accountSummary, changeAccount, type AccountChanges } from '../identity/account-admin.ts';

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

async function existingAccount(db: Database, email: string | undefined): Promise<Account> {
  const address = validEmail(email);
  const account = await findAccountByEmail(db, address);
  if (!account) throw new CliError(`No account with the e-mail ${address}`);
  return account;
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
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(users)
      .values({
        email,
        passwordHash,
        role: 'admin',
        status: 'active',
        displayName: displayNameOf(firstName, lastName),
        profile: defaultProfile(firstName, lastName, 'it'),
        passwordChangedAt: now,
      })
      .returning();
    if (!row) throw new Error('account insert returned no row');
    await recordAudit(tx, CLI_ACTOR, { action: 'staff.create_admin', entityType: 'user', entityId: row.id, after: summary(row) });
  });
  return { email, generatedPassword: options.password ? null : password };
}

async function updateAccount(db: Database, account: Account, changes: AccountChanges, now: Date): Promise<Account> {
  const updated = await changeAccount(db, account, changes, CLI_ACTOR, now);
  if (!updated) throw new CliError(`No account with the e-mail ${account.email}`);
  return updated;
}

export async function grantRole(db: Database, options: { email?: string | undefined; role?: string | undefined }, now: Date) {
  if (!options.role || !(ACCOUNT_ROLES as readonly string[]).includes(options.role)) {
    throw new CliError(`--role must be one of: ${ACCOUNT_ROLES.join(', ')}`);
  }
  const account = await existingAccount(db, options.email);
  if (!account.emailConfirmedAt) {
    throw new CliError(`${account.email} has not confirmed its address yet (B7): it cannot be given a role before it does`);
  }
  return summary(await updateAccount(db, account, { role: options.role as AccountRole }, now));
}

export async function revokeRole(db: Database, options: { email?: string | undefined }, now: Date) {
  const account = await existingAccount(db, options.email);
  return summary(await updateAccount(db, account, { role: null }, now));
}

export async function setStatus(db: Database, options: { email?: string | undefined }, status: 'active' | 'disabled', now: Date) {
  const account = await existingAccount(db, options.email);
  return summary(await updateAccount(db, account, { status }, now));
}

export async function listAccounts(db: Database) {
  const rows = await db.select().from(users).orderBy(asc(users.email));
  return rows.map(summary);
}

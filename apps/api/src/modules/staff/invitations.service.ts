import { and, eq, gt, ilike, inArray, isNull, or } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { LoginResponse } from '@sf/contract/auth';
import {
  INVITATION_TTL_MS,
  type AcceptInvitationRequest,
  type CreateInvitationRequest,
  type InvitationDetails,
  type ListInvitationsQuery,
  type StaffInvitation,
} from '@sf/contract/staff-invitations';
import type { Executor } from '../../db/client.ts';
import { allOf, containsPattern, findPage, orderFor, type ListDefinition } from '../../db/list.ts';
import { csvCell, csvSelection, type CsvColumns } from '../../db/csv-export.ts';
import type { Language } from '@sf/contract/app-info';
import { VALUE_LABELS } from '@sf/contract/value-labels';
import type { CsvSource } from '../../lib/list-routes.ts';
import { users } from '../../db/schema.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { actorAs, recordAudit } from '../../lib/audit.ts';
import type { Caller, PublicCaller, RequestTrace, ServiceDeps } from '../../lib/caller.ts';
import { sendAwaitedMail } from '../../lib/mailer.ts';
import type { IdentityProvider } from '../../identity/provider.ts';
import { hashOpaqueToken, newOpaqueToken } from '../../identity/opaque-tokens.ts';
import { hashPassword } from '../../identity/passwords.ts';
import { assertUncommonPassword } from '../../identity/password-policy.ts';
import { defaultProfile, displayNameOf, findAccountByEmail, normaliseEmail } from '../../identity/accounts.ts';
import { clearFailuresOfAccount } from '../../identity/login-throttle.ts';
import { issueSignIn, type AuthDeps } from '../auth/auth.service.ts';
import { invitationMail } from './invitation-mails.ts';
import { staffInvitations } from './staff.schema.ts';

type InvitationRow = typeof staffInvitations.$inferSelect;

/**
 * The invitation e-mail (mailer, APP_URL for its link) and the invitee's first sign-in: ours (token
 * signer), or the provider's when it keeps the credentials itself (Firebase).
 */
export type InvitationDeps = Pick<AuthDeps, 'db' | 'clock' | 'timeZone' | 'mailer' | 'appUrl' | 'tokenSigner'> & {
  identity: Pick<IdentityProvider, 'login' | 'provisionInvitedAccount'>;
};

/** The inviting admin, named in the e-mail. */
export type Inviter = Caller & RequestTrace & { displayName: string };

const inviter = alias(users, 'inviter');

/** Open: neither accepted nor revoked (expired ones stay open until resent or revoked). */
const isOpen = and(isNull(staffInvitations.acceptedAt), isNull(staffInvitations.revokedAt));

function toInvitation(row: InvitationRow, invitedBy: string | null, now: Date): StaffInvitation {
  return {
    id: row.id,
    email: row.email,
    displayName: row.displayName,
    role: row.role,
    status: row.expiresAt.getTime() <= now.getTime() ? 'expired' : 'pending',
    invitedBy,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

function summary(row: Pick<InvitationRow, 'email' | 'displayName' | 'role' | 'expiresAt'>) {
  return { email: row.email, displayName: row.displayName, role: row.role, expiresAt: row.expiresAt.toISOString() };
}

/** One answer for an unknown, used, revoked or expired link, and for an address taken meanwhile. */
function invalidInvitation(): AppError {
  return new AppError(400, 'invalid_invitation_token');
}

const invitationList: ListDefinition<ListInvitationsQuery['sort']> = {
  sorts: { sentAt: staffInvitations.sentAt, email: staffInvitations.email, expiresAt: staffInvitations.expiresAt },
  tieBreaker: staffInvitations.id,
};

function invitationConditions(query: Pick<ListInvitationsQuery, 'q'>) {
  const pattern = query.q ? containsPattern(query.q) : undefined;
  return allOf(isOpen, pattern !== undefined && or(ilike(staffInvitations.email, pattern), ilike(staffInvitations.displayName, pattern)));
}

export async function listInvitations(deps: Pick<ServiceDeps, 'db' | 'clock'>, query: ListInvitationsQuery) {
  const now = deps.clock.now();
  const { rows, total } = await findPage(
    deps.db,
    invitationList,
    (count) =>
      deps.db
        .select({ invitation: staffInvitations, inviterEmail: inviter.email, _total: count })
        .from(staffInvitations)
        .leftJoin(inviter, eq(inviter.id, staffInvitations.invitedBy))
        .$dynamic(),
    invitationConditions(query),
    query,
  );
  return { items: rows.map((row) => toInvitation(row.invitation, row.inviterEmail, now)), total, page: query.page, pageSize: query.pageSize };
}

export function invitationsExport(deps: Pick<ServiceDeps, 'timeZone'>, query: Omit<ListInvitationsQuery, 'page' | 'pageSize'>, language: Language = 'it'): CsvSource {
  const { timeZone } = deps;
  const columns: CsvColumns = {
    email: { header: { it: 'Email', en: 'Email' }, value: csvCell.text(staffInvitations.email) },
    displayName: { header: { it: 'Nome', en: 'Name' }, value: csvCell.text(staffInvitations.displayName) },
    role: { header: { it: 'Ruolo', en: 'Role' }, value: csvCell.label(staffInvitations.role, VALUE_LABELS.staffRole, language) },
    invitedBy: { header: { it: 'Invitato da', en: 'Invited by' }, value: csvCell.text(inviter.email) },
    sentAt: { header: { it: 'Inviato il', en: 'Sent at' }, value: csvCell.dateTime(staffInvitations.sentAt, timeZone) },
    expiresAt: { header: { it: 'Scade il', en: 'Expires at' }, value: csvCell.dateTime(staffInvitations.expiresAt, timeZone) },
  };
  return {
    fileName: 'inviti-staff.csv',
    columns,
    query: (tx) =>
      tx
        .select(csvSelection(columns))
        .from(staffInvitations)
        .leftJoin(inviter, eq(inviter.id, staffInvitations.invitedBy))
        .where(invitationConditions(query))
        .orderBy(...orderFor(invitationList.sorts, query.sort, query.order, invitationList.tieBreaker)),
  };
}

function linkFor(deps: Pick<InvitationDeps, 'appUrl'>, token: string): string {
  // APP_URL only: a forged Host header must not put an attacker's site in the link.
  return `${deps.appUrl}/auth/invitation?token=${encodeURIComponent(token)}`;
}

/**
 * The e-mail goes out after the commit and the admin waits for it: a mail server that cannot be
 * reached (503 `mail_unavailable`, as every e-mail someone waits for) or refuses it is worth telling
 * them, with what became of the invitation (it stays, and can be resent).
 */
async function mailInvitation(deps: InvitationDeps, inviter: Inviter, row: InvitationRow, token: string) {
  const mail = invitationMail(row.email, row.displayName, inviter.displayName, row.role, linkFor(deps, token), row.language);
  try {
    await sendAwaitedMail({ mailer: deps.mailer, log: inviter.log }, mail, { what: 'invitation', text: 'invitation_mail_failed' });
  } catch (error) {
    if (error instanceof AppError) throw error;
    inviter.log.error({ err: error }, 'invitation e-mail failed');
    // `mail_unavailable`, not `unavailable`: the web app words `unavailable` itself ("service
    // unavailable") and would hide that the invitation was saved.
    throw new AppError(503, 'mail_unavailable', { text: 'invitation_mail_failed' });
  }
}

/**
 * An admin invites someone. An address that already has a confirmed account answers 409
 * `account_exists` (admins see every account anyway); an unconfirmed self-registration proves nothing
 * and does not block. A second invitation to the same address replaces the open one (its link dies).
 */
export async function createInvitation(deps: InvitationDeps, inviter: Inviter, body: CreateInvitationRequest): Promise<StaffInvitation> {
  const email = normaliseEmail(body.email);
  const now = deps.clock.now();
  const { token, hash } = newOpaqueToken();
  const row = await deps.db.transaction(async (tx) => {
    const existing = await findAccountByEmail(tx, email);
    if (existing?.emailConfirmedAt) {
      throw new AppError(409, 'account_exists', { fields: [{ field: 'email', text: 'account_exists' }] });
    }
    const replaced = await tx
      .update(staffInvitations)
      .set({ revokedAt: now })
      .where(and(eq(staffInvitations.email, email), isOpen))
      .returning({ id: staffInvitations.id });
    const [created] = await tx
      .insert(staffInvitations)
      .values({
        email,
        displayName: body.displayName,
        role: body.role,
        language: inviter.language,
        tokenHash: hash,
        invitedBy: inviter.userId,
        createdAt: now,
        sentAt: now,
        expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
      })
      .returning();
    if (!created) throw new Error('insert returned no row');
    await recordAudit(tx, inviter.actor, {
      action: 'staff.invite',
      entityType: 'staff_invitation',
      entityId: created.id,
      ...(replaced.length > 0 ? { before: { replaced: replaced.map((r) => r.id) } } : {}),
      after: summary(created),
    });
    return created;
  });
  await mailInvitation(deps, inviter, row, token);
  return toInvitation(row, inviter.actor.email, now);
}

async function openInvitation(executor: Executor, id: string) {
  const [row] = await executor
    .select()
    .from(staffInvitations)
    .where(and(eq(staffInvitations.id, id), isOpen))
    .for('update');
  return row;
}

/** A new link (the old one dies: its hash is replaced) and 7 more days. */
export async function resendInvitation(deps: InvitationDeps, inviter: Inviter, id: string): Promise<StaffInvitation> {
  const now = deps.clock.now();
  const { token, hash } = newOpaqueToken();
  const row = await deps.db.transaction(async (tx) => {
    const current = await openInvitation(tx, id);
    if (!current) throw notFound('invitation');
    const [updated] = await tx
      .update(staffInvitations)
      .set({ tokenHash: hash, sentAt: now, expiresAt: new Date(now.getTime() + INVITATION_TTL_MS), language: inviter.language })
      .where(eq(staffInvitations.id, id))
      .returning();
    if (!updated) throw new Error('update returned no row');
    await recordAudit(tx, inviter.actor, {
      action: 'staff.invite_resend',
      entityType: 'staff_invitation',
      entityId: id,
      before: summary(current),
      after: summary(updated),
    });
    return updated;
  });
  await mailInvitation(deps, inviter, row, token);
  const [inviterRow] = row.invitedBy ? await deps.db.select({ email: users.email }).from(users).where(eq(users.id, row.invitedBy)) : [];
  return toInvitation(row, inviterRow?.email ?? null, now);
}

export async function revokeInvitation(deps: Pick<ServiceDeps, 'db' | 'clock'>, caller: Caller, id: string): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const current = await openInvitation(tx, id);
    if (!current) throw notFound('invitation');
    await tx.update(staffInvitations).set({ revokedAt: now }).where(eq(staffInvitations.id, id));
    await recordAudit(tx, caller.actor, {
      action: 'staff.invite_revoke',
      entityType: 'staff_invitation',
      entityId: id,
      before: summary(current),
    });
  });
}

/** Open and not expired, by the token of its link. */
function usableByToken(token: string, now: Date) {
  return and(eq(staffInvitations.tokenHash, hashOpaqueToken(token)), isOpen, gt(staffInvitations.expiresAt, now));
}

/** What the invitee's page shows above the form. */
export async function invitationDetails(deps: Pick<ServiceDeps, 'db' | 'clock'>, token: string): Promise<InvitationDetails> {
  const [row] = await deps.db.select().from(staffInvitations).where(usableByToken(token, deps.clock.now()));
  if (!row) throw invalidInvitation();
  return { email: row.email, displayName: row.displayName, role: row.role };
}

/**
 * The invitee sets their name and password: the account is created with the invited role and a
 * confirmed address (the link reached the mailbox), the invitation is used up, and the answer is a
 * sign-in. An address that got a confirmed account meanwhile gets the same answer as a bad link; an
 * unconfirmed self-registration of the address is replaced, as a newer registration would replace it.
 */
export async function acceptInvitation(deps: InvitationDeps, caller: PublicCaller, body: AcceptInvitationRequest): Promise<LoginResponse> {
  assertUncommonPassword(body.password, 'password');
  const passwordHash = await hashPassword(body.password);
  const now = deps.clock.now();
  const account = await deps.db.transaction(async (tx) => {
    // The claim is the conditional UPDATE: of two simultaneous acceptances only one finds the row open.
    const [claimed] = await tx
      .update(staffInvitations)
      .set({ acceptedAt: now })
      .where(usableByToken(body.token, now))
      .returning();
    if (!claimed) throw invalidInvitation();
    const details = {
      passwordHash,
      displayName: displayNameOf(body.firstName, body.lastName),
      profile: defaultProfile(body.firstName, body.lastName, claimed.language),
      role: claimed.role,
      status: 'active' as const,
      emailConfirmedAt: now,
      passwordChangedAt: now,
      updatedAt: now,
    };
    const [created] = await tx
      .insert(users)
      .values({ email: claimed.email, ...details, createdAt: now })
      .onConflictDoUpdate({ target: users.email, set: details, setWhere: isNull(users.emailConfirmedAt) })
      .returning();
    // A confirmed account took the address meanwhile: the claim rolls back with this error.
    if (!created) throw invalidInvitation();
    await tx.update(staffInvitations).set({ acceptedUserId: created.id }).where(eq(staffInvitations.id, claimed.id));
    const provisioned = deps.identity.provisionInvitedAccount ? await deps.identity.provisionInvitedAccount(tx, created, body.password) : created;
    await clearFailuresOfAccount(tx, created.email);
    await recordAudit(tx, actorAs(caller.actor, { id: created.id, email: created.email }), {
      action: 'account.accept_invitation',
      entityType: 'user',
      entityId: created.id,
      after: { email: created.email, displayName: created.displayName, role: created.role, status: created.status, invitation: claimed.id },
    });
    return provisioned;
  });
  // Firebase issues that provider's tokens: sign in there with the password just set.
  return deps.identity.provisionInvitedAccount
    ? deps.identity.login({ email: account.email, password: body.password }, caller)
    : issueSignIn(deps, account);
}

/** For the audit list: these invitations' invitees by name (else e-mail), in one query. */
export async function invitationNames(executor: Executor, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await executor
    .select({ id: staffInvitations.id, displayName: staffInvitations.displayName, email: staffInvitations.email })
    .from(staffInvitations)
    .where(inArray(staffInvitations.id, ids));
  return new Map(rows.map((row) => [row.id, row.displayName.trim() || row.email]));
}

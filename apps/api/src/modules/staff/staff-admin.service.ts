import type { Caller, ServiceDeps } from '../../lib/caller.ts';
import type { Executor } from '../../db/client.ts';
import type { IdentityProvider } from '../../identity/provider.ts';
import { and, count, eq, ilike, inArray, isNotNull, isNull, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { allOf, containsPattern, findPage, orderFor, type ListDefinition } from '../../db/list.ts';
import { csvCell, csvSelection, type CsvColumns } from '../../db/csv-export.ts';
import type { Language } from '@sf/contract/app-info';
import { VALUE_LABELS } from '@sf/contract/value-labels';
import type { CsvSource } from '../../lib/list-routes.ts';
import type { ListStaffQuery, StaffAccount, UpdateStaffRequest } from '@sf/contract/staff';
import { users } from '../../db/schema.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { findAccountById, type Account } from '../../identity/accounts.ts';
import { changeAccount, keepAnActiveAdmin } from '../../identity/account-admin.ts';

/** An admin's change of an account reaches the identity provider too (Firebase: the custom claims). */
export type StaffAdminDeps = ServiceDeps & { identity: Pick<IdentityProvider, 'accountChanged'> };

function toStaffAccount(account: Account): StaffAccount {
  return {
    uid: account.id,
    email: account.email,
    displayName: account.displayName,
    role: account.role ?? null,
    status: account.status,
    createdAt: account.createdAt.toISOString(),
  };
}

/** An account waiting for approval (B7): address confirmed (every listed account), active, no role yet. */
const isWaiting = and(isNull(users.role), eq(users.status, 'active'));

/**
 * The staff list. `waiting` (the default) puts the accounts waiting for approval first, then everyone
 * by e-mail; the id breaks ties (e-mail is unique anyway).
 */
const staffList: ListDefinition<ListStaffQuery['sort']> = {
  sorts: {
    waiting: [sql`(case when ${isWaiting} then 0 else 1 end)`, users.email],
    email: users.email,
    displayName: sql`lower(${users.displayName})`,
    role: { expression: users.role, nullsLast: false },
    status: users.status,
    createdAt: users.createdAt,
  },
  tieBreaker: users.id,
};

type StaffFilter = Pick<ListStaffQuery, 'q' | 'role' | 'status' | 'sort' | 'order'>;

function staffConditions(query: StaffFilter) {
  const pattern = query.q ? containsPattern(query.q) : undefined;
  return allOf(
    // B7: a self-registered account whose address is not confirmed is nobody's to approve yet.
    isNotNull(users.emailConfirmedAt),
    pattern !== undefined && or(ilike(users.email, pattern), ilike(users.displayName, pattern)),
    query.role === 'none' && isNull(users.role),
    query.role !== undefined && query.role !== 'none' && eq(users.role, query.role),
    query.status !== undefined && eq(users.status, query.status),
  );
}

/** The staff list as CSV (Italian Excel), with the same filters, by e-mail. */
export function staffExport(deps: Pick<ServiceDeps, 'timeZone'>, query: StaffFilter, language: Language = 'it'): CsvSource {
  const columns: CsvColumns = {
    email: { header: { it: 'Email', en: 'Email' }, value: csvCell.text(users.email) },
    displayName: { header: { it: 'Nome', en: 'Name' }, value: csvCell.text(users.displayName) },
    role: { header: { it: 'Ruolo', en: 'Role' }, value: csvCell.label(users.role, VALUE_LABELS.staffRole, language) },
    status: { header: { it: 'Stato', en: 'Status' }, value: csvCell.label(users.status, VALUE_LABELS.staffStatus, language) },
    createdAt: { header: { it: 'Creato il', en: 'Created at' }, value: csvCell.dateTime(users.createdAt, deps.timeZone) },
  };
  return {
    fileName: 'staff.csv',
    columns,
    query: (tx) =>
      tx
        .select(csvSelection(columns))
        .from(users)
        .where(staffConditions(query))
        .orderBy(...orderFor(staffList.sorts, query.sort, query.order, staffList.tieBreaker)),
  };
}

export async function listStaff(deps: Pick<ServiceDeps, 'db'>, query: ListStaffQuery) {
  const where = staffConditions(query);
  const { rows, total } = await findPage(
    deps.db,
    staffList,
    (count) => deps.db.select({ account: users, _total: count }).from(users).$dynamic(),
    where,
    { page: query.page, pageSize: query.pageSize, sort: query.sort, order: query.order },
  );
  return { items: rows.map((row) => toStaffAccount(row.account)), total, page: query.page, pageSize: query.pageSize };
}

/** The dashboard's badge and the menu's: accounts waiting for an admin to grant a role. */
export async function countWaitingStaff(deps: Pick<ServiceDeps, 'db'>): Promise<number> {
  const [row] = await deps.db
    .select({ n: count() })
    .from(users)
    .where(and(isNotNull(users.emailConfirmedAt), isWaiting));
  return Number(row?.n ?? 0);
}

export async function updateStaff(deps: StaffAdminDeps, caller: Caller, id: string, body: UpdateStaffRequest) {
  const notFoundError = () => notFound('user');
  // An admin demoting or disabling themselves could leave nobody able to administer; another admin must.
  if (id === caller.userId) throw new AppError(409, 'own_account');
  const account = await findAccountById(deps.db, id);
  // Unconfirmed self-registrations are not listed, and cannot be approved either (B7).
  if (!account || !account.emailConfirmedAt) throw notFoundError();
  const changes = {
    ...(body.role !== undefined ? { role: body.role } : {}),
    ...(body.status !== undefined ? { status: body.status } : {}),
  };
  const updated = await changeAccount(deps.db, account, changes, caller.actor, deps.clock.now(), {
    check: (tx) => keepAnActiveAdmin(tx, account.id, changes, () => new AppError(409, 'last_admin')),
    afterChange: (changed) => deps.identity.accountChanged(changed),
  });
  if (!updated) throw notFoundError();
  return toStaffAccount(updated);
}

/**
 * Staff members as a person reads them on other screens (Importazioni's "Da", Richieste privacy's
 * "Gestita da", the Audit list's record): each id's name, or its e-mail for an account without one. One query for a whole
 * page's ids; ids that are no account (deleted) are left out. Takes the caller's executor, so a service
 * can ask inside its own transaction.
 */
export async function staffNames(executor: Executor, ids: readonly (string | null | undefined)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => typeof id === 'string'))];
  if (wanted.length === 0) return new Map();
  const found = await executor.select({ id: users.id, displayName: users.displayName, email: users.email }).from(users).where(inArray(users.id, wanted));
  return new Map(found.map((account) => [account.id, account.displayName.trim() || account.email]));
}

/**
 * staffNames for an export, where each row is written by PostgreSQL: the name (the e-mail for an account
 * without one) of the staff account whose id `id` holds, or null for none.
 */
export function staffNameOf(id: SQLWrapper): SQL {
  return sql`(select coalesce(nullif(btrim(${users.displayName}), ''), ${users.email}) from ${users} where ${users.id} = ${id})`;
}

import { eq, ilike, isNull, or } from 'drizzle-orm';
import { allOf, containsPattern, findPage, type ListDefinition } from '../../db/list.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { message } from '@sf/contract/messages';
import type { ListStaffQuery, StaffAccount, UpdateStaffRequest } from '@sf/contract/staff';
import { users } from '../../db/schema.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { actorOf } from '../../lib/audit.ts';
import { findAccountById, type Account } from '../../identity/accounts.ts';
import { changeAccount } from '../../identity/account-admin.ts';

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

/** The staff list: by e-mail (unique, so it is its own tie-breaker). */
const staffList: ListDefinition<'email'> = { sorts: { email: users.email }, tieBreaker: users.id };

export async function listStaff(app: FastifyInstance, query: ListStaffQuery) {
  const pattern = query.q ? containsPattern(query.q) : undefined;
  const where = allOf(
    pattern !== undefined && or(ilike(users.email, pattern), ilike(users.displayName, pattern)),
    query.role === 'none' && isNull(users.role),
    query.role !== undefined && query.role !== 'none' && eq(users.role, query.role),
    query.status !== undefined && eq(users.status, query.status),
  );
  const { rows, total } = await findPage(
    app.db,
    staffList,
    (count) => app.db.select({ account: users, _total: count }).from(users).$dynamic(),
    where,
    { page: query.page, pageSize: query.pageSize, sort: 'email', order: 'asc' },
  );
  return { items: rows.map((row) => toStaffAccount(row.account)), total, page: query.page, pageSize: query.pageSize };
}

export async function updateStaff(app: FastifyInstance, request: FastifyRequest, id: string, body: UpdateStaffRequest) {
  const notFoundError = () => notFound(message('notFound', request.language, { field: 'user' }));
  // An admin demoting or disabling themselves could leave nobody able to administer.
  if (id === request.user?.id) throw conflict('You cannot change your own role or status');
  const account = await findAccountById(app.db, id);
  if (!account) throw notFoundError();
  const changes = {
    ...(body.role !== undefined ? { role: body.role } : {}),
    ...(body.status !== undefined ? { status: body.status } : {}),
  };
  const updated = await changeAccount(app.db, account, changes, actorOf(request), app.clock.now());
  if (!updated) throw notFoundError();
  return toStaffAccount(updated);
}

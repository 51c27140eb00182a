import { and, asc, count, eq, ilike, isNotNull, isNull, or, type SQL } from 'drizzle-orm';
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

/** `%` and `_` typed in the search box are literal characters, not patterns. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listStaff(app: FastifyInstance, query: ListStaffQuery) {
  // B7: a self-registered account whose address is not confirmed is nobody's to approve yet.
  const filters: SQL[] = [isNotNull(users.emailConfirmedAt)];
  if (query.q) {
    const pattern = containsPattern(query.q);
    const match = or(ilike(users.email, pattern), ilike(users.displayName, pattern));
    if (match) filters.push(match);
  }
  if (query.role === 'none') filters.push(isNull(users.role));
  else if (query.role) filters.push(eq(users.role, query.role));
  if (query.status) filters.push(eq(users.status, query.status));
  const where = filters.length > 0 ? and(...filters) : undefined;
  const [rows, [total]] = await Promise.all([
    app.db
      .select()
      .from(users)
      .where(where)
      .orderBy(asc(users.email))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    app.db.select({ value: count() }).from(users).where(where),
  ]);
  return { items: rows.map(toStaffAccount), total: total?.value ?? 0, page: query.page, pageSize: query.pageSize };
}

export async function updateStaff(app: FastifyInstance, request: FastifyRequest, id: string, body: UpdateStaffRequest) {
  const notFoundError = () => notFound(message('notFound', request.language, { field: 'user' }));
  // An admin demoting or disabling themselves could leave nobody able to administer.
  if (id === request.user?.id) throw conflict('You cannot change your own role or status');
  const account = await findAccountById(app.db, id);
  // Not listed until its address is confirmed, and not to be approved before either (B7).
  if (!account || !account.emailConfirmedAt) throw notFoundError();
  const changes = {
    ...(body.role !== undefined ? { role: body.role } : {}),
    ...(body.status !== undefined ? { status: body.status } : {}),
  };
  const updated = await changeAccount(app.db, account, changes, actorOf(request), app.clock.now());
  if (!updated) throw notFoundError();
  return toStaffAccount(updated);
}

import { and, count, desc, eq, gte, lte, type SQL } from 'drizzle-orm';
import type { AuditEntry } from '@sf/contract/audit';
import type { Executor } from '../../db/client.ts';
import { auditLog } from '../../db/schema.ts';

type AuditRow = typeof auditLog.$inferSelect;

export function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actorId: row.actorId,
    actorEmail: row.actorEmail,
    action: row.action,
    entityType: row.entityType,
    entityId: row.entityId,
    before: row.before ?? null,
    after: row.after ?? null,
    requestId: row.requestId,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type AuditFilter = { actor?: string; entity?: string; from?: Date; to?: Date };

function conditions(filter: AuditFilter): SQL | undefined {
  const parts: SQL[] = [];
  if (filter.actor) {
    // An account id or an e-mail address (stored lower-cased, like the accounts' own).
    parts.push(UUID.test(filter.actor) ? eq(auditLog.actorId, filter.actor) : eq(auditLog.actorEmail, filter.actor.toLowerCase()));
  }
  if (filter.entity) parts.push(eq(auditLog.entityType, filter.entity));
  if (filter.from) parts.push(gte(auditLog.at, filter.from));
  if (filter.to) parts.push(lte(auditLog.at, filter.to));
  return parts.length > 0 ? and(...parts) : undefined;
}

export async function findAuditEntries(
  executor: Executor,
  filter: AuditFilter,
  paging: { page: number; pageSize: number },
): Promise<{ rows: AuditRow[]; total: number }> {
  const where = conditions(filter);
  const [rows, totals] = await Promise.all([
    executor
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(paging.pageSize)
      .offset((paging.page - 1) * paging.pageSize),
    executor.select({ total: count() }).from(auditLog).where(where),
  ]);
  return { rows, total: totals[0]?.total ?? 0 };
}

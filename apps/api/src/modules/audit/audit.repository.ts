import { and, desc, eq, gte, like, lte, type SQL } from 'drizzle-orm';
import { findPage, orderFor, type ListDefinition } from '../../db/list.ts';
import { csvCell, csvSelection, type CsvColumns } from '../../db/csv-export.ts';
import type { Language } from '@sf/contract/app-info';
import type { AuditEntry } from '@sf/contract/audit';
import { VALUE_LABELS } from '@sf/contract/value-labels';
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

export type AuditFilter = { actor?: string; entity?: string; action?: string; entityId?: string; from?: Date; to?: Date };

function conditions(filter: AuditFilter): SQL | undefined {
  const parts: SQL[] = [];
  if (filter.actor) {
    // An account id or an e-mail address (stored lower-cased, like the accounts' own).
    parts.push(UUID.test(filter.actor) ? eq(auditLog.actorId, filter.actor) : eq(auditLog.actorEmail, filter.actor.toLowerCase()));
  }
  if (filter.entity) parts.push(eq(auditLog.entityType, filter.entity));
  if (filter.action) {
    // `ledger.` is every ledger action; LIKE's own wildcards in the text are taken literally.
    parts.push(
      filter.action.endsWith('.')
        ? like(auditLog.action, `${filter.action.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
        : eq(auditLog.action, filter.action),
    );
  }
  if (filter.entityId) parts.push(eq(auditLog.entityId, filter.entityId));
  if (filter.from) parts.push(gte(auditLog.at, filter.from));
  if (filter.to) parts.push(lte(auditLog.at, filter.to));
  return parts.length > 0 ? and(...parts) : undefined;
}

/** The audit list: newest first, always (the id breaks ties within one instant). */
const auditList: ListDefinition<'at'> = { sorts: { at: auditLog.at }, tieBreaker: auditLog.id };

export async function findAuditEntries(
  executor: Executor,
  filter: AuditFilter,
  paging: { page: number; pageSize: number },
): Promise<{ rows: AuditRow[]; total: number }> {
  const { rows, total } = await findPage(
    executor,
    auditList,
    (count) => executor.select({ entry: auditLog, _total: count }).from(auditLog).$dynamic(),
    conditions(filter),
    { ...paging, sort: 'at', order: 'desc' },
  );
  return { rows: rows.map((row) => row.entry), total };
}

/** Columns of the audit export (before/after as JSON text). */
export function auditExportColumns(language: Language, timeZone: string): CsvColumns {
  return {
    at: { header: { it: 'Data e ora', en: 'Date and time' }, value: csvCell.dateTime(auditLog.at, timeZone) },
    actor: { header: { it: 'Utente', en: 'User' }, value: csvCell.label(auditLog.actorEmail, VALUE_LABELS.auditActor, language) },
    action: { header: { it: 'Azione', en: 'Action' }, value: csvCell.text(auditLog.action) },
    entityType: { header: { it: 'Entità', en: 'Entity' }, value: csvCell.text(auditLog.entityType) },
    entityId: { header: { it: 'Id entità', en: 'Entity id' }, value: csvCell.text(auditLog.entityId) },
    before: { header: { it: 'Prima', en: 'Before' }, value: csvCell.text(auditLog.before) },
    after: { header: { it: 'Dopo', en: 'After' }, value: csvCell.text(auditLog.after) },
    requestId: { header: { it: 'Richiesta', en: 'Request' }, value: csvCell.text(auditLog.requestId) },
  };
}

export function auditExportQuery(executor: Executor, columns: CsvColumns, filter: AuditFilter) {
  return executor
    .select(csvSelection(columns))
    .from(auditLog)
    .where(conditions(filter))
    .orderBy(...orderFor(auditList.sorts, 'at', 'desc', auditList.tieBreaker))
    .$dynamic();
}

/** One entity's audit entries, newest first (a deleted record keeps its history). */
export async function findEntityHistory(executor: Executor, entityType: string, entityId: string): Promise<AuditRow[]> {
  return executor
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityType, entityType), eq(auditLog.entityId, entityId)))
    .orderBy(desc(auditLog.at), desc(auditLog.id));
}

/** The latest changes without their before/after (which can be whole posts: left in the database). */
export async function findLatestChanges(executor: Executor, limit: number) {
  return executor
    .select({
      id: auditLog.id,
      at: auditLog.at,
      actorId: auditLog.actorId,
      actorEmail: auditLog.actorEmail,
      action: auditLog.action,
      entityType: auditLog.entityType,
      entityId: auditLog.entityId,
      requestId: auditLog.requestId,
    })
    .from(auditLog)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(limit);
}

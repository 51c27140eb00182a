import type { AuditEntry, ListAuditQuery } from '@sf/contract/audit';
import type { ServiceDeps } from '../../lib/caller.ts';
import { findAuditEntries, findEntityHistory, findLatestChanges, toAuditEntry, type AuditFilter } from './audit.repository.ts';

/**
 * The audit log's front door: its list, one entity's history (a news post's) and the latest changes
 * (the dashboard's). Writing an audit row is lib/audit.ts `recordAudit`, in the writer's transaction.
 */

/** The list's query as the repository's filter (the period's order is checked by the list routes). */
export function auditFilterOf(query: {
  actor?: string | undefined;
  entity?: string | undefined;
  action?: string | undefined;
  entityId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}): AuditFilter {
  return {
    ...(query.actor ? { actor: query.actor } : {}),
    ...(query.entity ? { entity: query.entity } : {}),
    ...(query.action ? { action: query.action } : {}),
    ...(query.entityId ? { entityId: query.entityId } : {}),
    ...(query.from ? { from: new Date(query.from) } : {}),
    ...(query.to ? { to: new Date(query.to) } : {}),
  };
}

export async function listAudit(deps: Pick<ServiceDeps, 'db'>, query: ListAuditQuery) {
  const { page, pageSize } = query;
  const { rows, total } = await findAuditEntries(deps.db, auditFilterOf(query), { page, pageSize });
  return { items: rows.map(toAuditEntry), total, page, pageSize };
}

/** One entity's audit entries, newest first. */
export async function entityHistory(deps: Pick<ServiceDeps, 'db'>, input: { entityType: string; entityId: string }): Promise<AuditEntry[]> {
  return (await findEntityHistory(deps.db, input.entityType, input.entityId)).map(toAuditEntry);
}

/** The latest changes, without their before/after. */
export async function latestChanges(deps: Pick<ServiceDeps, 'db'>, input: { limit: number }) {
  const rows = await findLatestChanges(deps.db, input.limit);
  return rows.map((row) => ({ ...row, at: row.at.toISOString() }));
}

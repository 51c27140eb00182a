import { listAuditQuerySchema, type AuditListEntry } from '@sf/contract/audit';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';

export const AUDIT_PATH = '/admin/audit';

type AuditPage = { items: AuditListEntry[]; total: number; page: number; pageSize: number };

export const auditKeys = { all: ['audit'] as const, list: (query: Record<string, string>) => ['audit', 'list', query] as const };

export function getAudit(query: Record<string, string>, signal?: AbortSignal): Promise<AuditPage> {
  return apiClient.get<AuditPage>(AUDIT_PATH, { params: query, signal });
}

export function useAudit(query: Record<string, string>) {
  return useQuery(queryOptions({ queryKey: auditKeys.list(query), queryFn: ({ signal }) => getAudit(query, signal), placeholderData: keepPreviousData }));
}

/** What the list's prefetch needs (app/prefetch-routes.ts): the schema its screen reads its address with, and its key. */
export const listDeclaration = { schema: listAuditQuerySchema, queryKey: auditKeys.list };

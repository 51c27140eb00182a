import { listLedgerQuerySchema, type LedgerPage } from '@sf/contract/ledger';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';

export const LEDGER_PATH = '/admin/ledger';

export const ledgerKeys = {
  all: ['ledger'] as const,
  lists: () => [...ledgerKeys.all, 'list'] as const,
  list: (query: Record<string, string>) => [...ledgerKeys.lists(), query] as const,
  memberships: (customerId: string) => [...ledgerKeys.all, 'memberships', customerId] as const,
};

export function getLedger(query: Record<string, string>, signal?: AbortSignal): Promise<LedgerPage> {
  return apiClient.get<LedgerPage>(LEDGER_PATH, { params: query, signal });
}

export function useLedger(query: Record<string, string>) {
  return useQuery(queryOptions({ queryKey: ledgerKeys.list(query), queryFn: ({ signal }) => getLedger(query, signal), placeholderData: keepPreviousData }));
}

/** What the list's prefetch needs (app/prefetch-routes.ts): the schema its screen reads its address with, and its key. */
export const listDeclaration = { schema: listLedgerQuerySchema, queryKey: ledgerKeys.list };

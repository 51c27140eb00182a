import { listPrivacyRequestsQuerySchema, type PrivacyRequest } from '@sf/contract/privacy';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';

export type PrivacyRequestPage = { items: PrivacyRequest[]; total: number; page: number; pageSize: number };

export const PRIVACY_PATH = '/admin/privacy-requests';

export const privacyKeys = {
  all: ['privacy-requests'] as const,
  lists: () => [...privacyKeys.all, 'list'] as const,
  list: (query: Record<string, string>) => [...privacyKeys.lists(), query] as const,
  request: (id: string) => [...privacyKeys.all, 'request', id] as const,
};

export function getPrivacyRequests(query: Record<string, string>, signal?: AbortSignal): Promise<PrivacyRequestPage> {
  return apiClient.get<PrivacyRequestPage>(PRIVACY_PATH, { params: query, signal });
}

export function usePrivacyRequests(query: Record<string, string>) {
  return useQuery(queryOptions({ queryKey: privacyKeys.list(query), queryFn: ({ signal }) => getPrivacyRequests(query, signal), placeholderData: keepPreviousData }));
}

/** What the list's prefetch needs (app/prefetch-routes.ts): the schema its screen reads its address with, and its key. */
export const listDeclaration = { schema: listPrivacyRequestsQuerySchema, queryKey: privacyKeys.list };

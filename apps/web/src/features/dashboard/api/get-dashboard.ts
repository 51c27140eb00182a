import type { Dashboard } from '@sf/contract/dashboard';
import type { DashboardQuery } from '@sf/contract/dashboard-figures';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { DASHBOARD_QUERY_ROOT } from '../../../lib/query-client.ts';

/** Under DASHBOARD_QUERY_ROOT, which every successful write invalidates (lib/query-client.ts). */
export const dashboardKeys = { all: [DASHBOARD_QUERY_ROOT] as const, period: (query: DashboardQuery) => [DASHBOARD_QUERY_ROOT, query] as const };

export function getDashboard(query: DashboardQuery = {}, signal?: AbortSignal): Promise<Dashboard> {
  const search = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => Boolean(entry[1])));
  const suffix = search.size > 0 ? `?${search.toString()}` : '';
  // The page says its own failure (its alert, `StaleDataNotice`): a toast as well said it twice.
  return apiClient.get<Dashboard>(`/admin/dashboard${suffix}`, { signal, isSilent: true });
}

export function getDashboardQueryOptions(query: DashboardQuery = {}) {
  return queryOptions({
    queryKey: dashboardKeys.period(query),
    queryFn: ({ signal }) => getDashboard(query, signal),
    // Figures a minute old are fine; coming back to the tab refreshes them.
    staleTime: 60_000,
    // Changing the period keeps the old figures on screen until the new ones arrive.
    placeholderData: keepPreviousData,
  });
}

export function useDashboard(query: DashboardQuery = {}) {
  return useQuery(getDashboardQueryOptions(query));
}

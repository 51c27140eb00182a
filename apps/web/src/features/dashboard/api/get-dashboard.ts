import type { Dashboard } from '@sf/contract/dashboard';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';

export const dashboardKeys = { all: ['dashboard'] as const };

export function getDashboard(signal?: AbortSignal): Promise<Dashboard> {
  return apiClient.get<Dashboard>('/admin/dashboard', { signal });
}

export function getDashboardQueryOptions() {
  return queryOptions({
    queryKey: dashboardKeys.all,
    queryFn: ({ signal }) => getDashboard(signal),
    // Figures a minute old are fine; coming back to the tab refreshes them.
    staleTime: 60_000,
  });
}

export function useDashboard() {
  return useQuery(getDashboardQueryOptions());
}

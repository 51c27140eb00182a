import { queryOptions, useQuery } from '@tanstack/react-query';
import type { StaffUser } from '@sf/contract/auth';
import { apiClient } from '../../../lib/api-client.ts';

export function getProfile({ signal }: { signal?: AbortSignal } = {}): Promise<StaffUser> {
  // The dialog says its own failure (its alert, `StaleDataNotice`): a toast as well said it twice.
  return apiClient.get<StaffUser>('/admin/me', { isSilent: true, ...(signal ? { signal } : {}) });
}

export const profileQueryKey = ['admin', 'me'] as const;

export function profileQueryOptions() {
  return queryOptions({ queryKey: profileQueryKey, queryFn: ({ signal }) => getProfile({ signal }) });
}

export function useProfile(options: { isEnabled?: boolean } = {}) {
  return useQuery({ ...profileQueryOptions(), enabled: options.isEnabled ?? true });
}

import type { PrivacyRequest } from '@sf/contract/privacy';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { PRIVACY_PATH, privacyKeys } from './get-privacy-requests.ts';

export function getPrivacyRequest(id: string, signal?: AbortSignal): Promise<PrivacyRequest> {
  // No toast: the drawer that asks says what failed.
  return apiClient.get<PrivacyRequest>(`${PRIVACY_PATH}/${id}`, { signal, isSilent: true });
}

export function usePrivacyRequest(id: string | null) {
  return useQuery({
    ...queryOptions({ queryKey: privacyKeys.request(id ?? ''), queryFn: ({ signal }) => getPrivacyRequest(id ?? '', signal) }),
    enabled: id !== null,
  });
}

import type { Campaign } from '@sf/contract/campaigns';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { CAMPAIGNS_PATH, campaignKeys } from './get-campaigns.ts';

export function getCampaign(id: string, signal?: AbortSignal): Promise<Campaign> {
  // No toast: the drawer that asks says what failed.
  return apiClient.get<Campaign>(`${CAMPAIGNS_PATH}/${id}`, { signal, isSilent: true });
}

/** One campaign; while it sends, its report is read again every two seconds. */
export function useCampaign(id: string | null) {
  return useQuery({
    ...queryOptions({ queryKey: campaignKeys.campaign(id ?? ''), queryFn: ({ signal }) => getCampaign(id ?? '', signal) }),
    enabled: id !== null && id !== 'new',
    refetchInterval: (query) => (query.state.data?.status === 'sending' ? 2000 : false),
  });
}

import type { Campaign } from '@sf/contract/campaigns';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';

export type CampaignPage = { items: Campaign[]; total: number; page: number; pageSize: number };

export const CAMPAIGNS_PATH = '/admin/campaigns';

export const campaignKeys = {
  all: ['campaigns'] as const,
  lists: () => [...campaignKeys.all, 'list'] as const,
  list: (page: number) => [...campaignKeys.lists(), page] as const,
  campaign: (id: string) => [...campaignKeys.all, 'campaign', id] as const,
  audience: (query: Record<string, string>) => [...campaignKeys.all, 'audience', query] as const,
  customerMessages: (customerId: string) => [...campaignKeys.all, 'customer', customerId] as const,
};

export function getCampaigns(page: number, signal?: AbortSignal): Promise<CampaignPage> {
  return apiClient.get<CampaignPage>(CAMPAIGNS_PATH, { params: { page, pageSize: 25 }, signal });
}

/** The list refreshes every few seconds while a campaign is sending: its counts fill in. */
export function useCampaigns(page: number) {
  return useQuery({
    ...queryOptions({ queryKey: campaignKeys.list(page), queryFn: ({ signal }) => getCampaigns(page, signal), placeholderData: keepPreviousData }),
    refetchInterval: (query) => (query.state.data?.items.some((campaign) => campaign.status === 'sending') ? 2000 : false),
  });
}

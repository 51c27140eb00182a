import { listCampaignsQuerySchema, type campaignPageSchema } from '@sf/contract/campaigns';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiClient } from '../../../lib/api-client.ts';

export type CampaignPage = z.infer<typeof campaignPageSchema>;
/** The list's query as the list kit sends it (`useList`: the contract's fields as strings). */
export type CampaignListQuery = Record<string, string>;

/** The list's API path (its CSV export is `<path>/export.csv`). */
export const CAMPAIGNS_PATH = '/admin/campaigns';

export const campaignKeys = {
  all: ['campaigns'] as const,
  lists: () => [...campaignKeys.all, 'list'] as const,
  list: (query: CampaignListQuery) => [...campaignKeys.lists(), query] as const,
  campaign: (id: string) => [...campaignKeys.all, 'campaign', id] as const,
  audience: (query: Record<string, string>) => [...campaignKeys.all, 'audience', query] as const,
  customerMessages: (customerId: string) => [...campaignKeys.all, 'customer', customerId] as const,
};

export function getCampaigns(query: CampaignListQuery, signal?: AbortSignal): Promise<CampaignPage> {
  return apiClient.get<CampaignPage>(CAMPAIGNS_PATH, { params: query, signal });
}

export function getCampaignsQueryOptions(query: CampaignListQuery) {
  return queryOptions({
    queryKey: campaignKeys.list(query),
    queryFn: ({ signal }) => getCampaigns(query, signal),
    // The table keeps the previous page on screen while the next one loads (no flicker when paging).
    placeholderData: keepPreviousData,
  });
}

/** The list refreshes every few seconds while a campaign on the page is sending: its counts fill in. */
export function useCampaigns(query: CampaignListQuery) {
  return useQuery({
    ...getCampaignsQueryOptions(query),
    refetchInterval: (current) => (current.state.data?.items.some((campaign) => campaign.status === 'sending') ? 2000 : false),
  });
}

/** What the list's prefetch needs (app/prefetch-routes.ts): the schema its screen reads its address with, and its key. */
export const listDeclaration = { schema: listCampaignsQuerySchema, queryKey: campaignKeys.list };

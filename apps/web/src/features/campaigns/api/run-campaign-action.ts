import type { Campaign } from '@sf/contract/campaigns';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { CAMPAIGNS_PATH, campaignKeys } from './get-campaigns.ts';

export function sendCampaign({ id, scheduledAt }: { id: string; scheduledAt?: string }): Promise<Campaign> {
  return apiClient.post<Campaign>(`${CAMPAIGNS_PATH}/${id}/send`, scheduledAt ? { scheduledAt } : {});
}

export function cancelCampaign(id: string): Promise<Campaign> {
  return apiClient.post<Campaign>(`${CAMPAIGNS_PATH}/${id}/cancel`, {});
}

export function sendCampaignTest(id: string): Promise<{ to: string }> {
  return apiClient.post<{ to: string }>(`${CAMPAIGNS_PATH}/${id}/test`, {});
}

function useRefresh() {
  const client = useQueryClient();
  return (campaign: Campaign) => {
    client.setQueryData(campaignKeys.campaign(campaign.id), campaign);
    return client.invalidateQueries({ queryKey: campaignKeys.lists() });
  };
}

export function useSendCampaign() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: sendCampaign, onSuccess: refresh });
}

export function useCancelCampaign() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: cancelCampaign, onSuccess: refresh });
}

export function useSendCampaignTest() {
  return useMutation({ mutationFn: sendCampaignTest });
}

import type { Campaign, CreateCampaign, UpdateCampaign } from '@sf/contract/campaigns';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { VERSION_CONFLICT_CODES } from '../../../lib/version-conflict.ts';
import { CAMPAIGNS_PATH, campaignKeys } from './get-campaigns.ts';

export function createCampaign(body: CreateCampaign): Promise<Campaign> {
  return apiClient.post<Campaign>(CAMPAIGNS_PATH, body);
}

export function updateCampaign({ id, ...body }: UpdateCampaign & { id: string }): Promise<Campaign> {
  // The editor shows a version conflict itself, with its reload (`VersionConflictNotice`).
  return apiClient.patch<Campaign>(`${CAMPAIGNS_PATH}/${id}`, body, { inlineCodes: VERSION_CONFLICT_CODES });
}

function useRefresh() {
  const client = useQueryClient();
  return (campaign: Campaign) => {
    client.setQueryData(campaignKeys.campaign(campaign.id), campaign);
    return client.invalidateQueries({ queryKey: campaignKeys.lists() });
  };
}

export function useCreateCampaign() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: createCampaign, onSuccess: refresh });
}

export function useUpdateCampaign() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: updateCampaign, onSuccess: refresh });
}

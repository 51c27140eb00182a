import type { AudienceAnswer, CampaignAudience } from '@sf/contract/campaigns';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { CAMPAIGNS_PATH, campaignKeys } from './get-campaigns.ts';

/** The filters as the audience query's parameters (empty ones left out). */
export function audienceParams(audience: CampaignAudience): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(audience)) if (value !== null && value !== '') params[key] = String(value);
  return params;
}

export function getCampaignAudience(params: Record<string, string>, signal?: AbortSignal): Promise<AudienceAnswer> {
  return apiClient.get<AudienceAnswer>(`${CAMPAIGNS_PATH}/audience`, { params, signal });
}

/** The count and five recipients for these filters (the editor's live count, and the figure its send asks about). */
export function campaignAudienceQuery(audience: CampaignAudience) {
  const params = audienceParams(audience);
  return queryOptions({ queryKey: campaignKeys.audience(params), queryFn: ({ signal }) => getCampaignAudience(params, signal) });
}

/** The live count and five recipients for the filters being edited. */
export function useCampaignAudience(audience: CampaignAudience, isEnabled: boolean) {
  return useQuery({ ...campaignAudienceQuery(audience), placeholderData: keepPreviousData, enabled: isEnabled });
}

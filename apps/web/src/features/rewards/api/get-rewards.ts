import { listRewardsQuerySchema, type Reward, type RewardPage } from '@sf/contract/rewards';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';

export const REWARDS_PATH = '/admin/rewards';

export const rewardKeys = {
  all: ['rewards'] as const,
  lists: () => [...rewardKeys.all, 'list'] as const,
  list: (query: Record<string, string>) => [...rewardKeys.lists(), query] as const,
  reward: (id: string) => [...rewardKeys.all, 'reward', id] as const,
  vouchers: (id: string, query: Record<string, string>) => [...rewardKeys.all, 'vouchers', id, query] as const,
};

export function getRewards(query: Record<string, string>, signal?: AbortSignal): Promise<RewardPage> {
  return apiClient.get<RewardPage>(REWARDS_PATH, { params: query, signal });
}

export function useRewards(query: Record<string, string>, options: { isEnabled?: boolean } = {}) {
  return useQuery(
    queryOptions({ queryKey: rewardKeys.list(query), queryFn: ({ signal }) => getRewards(query, signal), placeholderData: keepPreviousData, enabled: options.isEnabled ?? true }),
  );
}

/** No toast: the reward's page and its form's drawer say what failed. */
export function getReward(id: string, signal?: AbortSignal): Promise<Reward> {
  return apiClient.get<Reward>(`${REWARDS_PATH}/${id}`, { signal, isSilent: true });
}

export function useReward(id: string | null) {
  return useQuery(
    queryOptions({
      queryKey: rewardKeys.reward(id ?? ''),
      queryFn: ({ signal }) => getReward(id ?? '', signal),
      enabled: Boolean(id),
    }),
  );
}

/** What the list's prefetch needs (app/prefetch-routes.ts): the schema its screen reads its address with, and its key. */
export const listDeclaration = { schema: listRewardsQuerySchema, queryKey: rewardKeys.list };

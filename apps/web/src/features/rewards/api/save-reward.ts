import type { CreateReward, Reward, UpdateReward } from '@sf/contract/rewards';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { REWARDS_PATH, rewardKeys } from './get-rewards.ts';

export function createReward(body: CreateReward): Promise<Reward> {
  return apiClient.post<Reward>(REWARDS_PATH, body, { isSilent: true });
}

export function updateReward({ id, ...body }: UpdateReward & { id: string }): Promise<Reward> {
  return apiClient.patch<Reward>(`${REWARDS_PATH}/${id}`, body, { isSilent: true });
}

/** Creates or changes a reward; the lists and the reward's own cache follow. */
export function useSaveReward() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string | null; body: CreateReward | UpdateReward }) =>
      input.id ? updateReward({ id: input.id, ...(input.body as UpdateReward) }) : createReward(input.body as CreateReward),
    onSuccess: (reward) => {
      client.setQueryData(rewardKeys.reward(reward.id), reward);
      return client.invalidateQueries({ queryKey: rewardKeys.lists() });
    },
  });
}

/** Uploads a reward image (checked by the API like a news cover); answers its id and URL. */
export function uploadRewardImage(file: File): Promise<{ id: string; url: string }> {
  const form = new FormData();
  form.append('file', file);
  return apiClient.upload<{ id: string; url: string }>(`${REWARDS_PATH}/image`, form);
}

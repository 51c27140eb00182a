import { listSocialProofsQuerySchema, type DecideSocialProofs, type DecideSocialProofsResult, type SocialProofPage } from '@sf/contract/social-proofs';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';

export const SOCIAL_PROOFS_PATH = '/admin/social-proofs';

export const proofKeys = {
  all: ['social-proofs'] as const,
  list: (query: Record<string, string>) => [...proofKeys.all, 'list', query] as const,
};

export function useSocialProofs(query: Record<string, string>) {
  return useQuery(
    queryOptions({
      queryKey: proofKeys.list(query),
      queryFn: ({ signal }) => apiClient.get<SocialProofPage>(SOCIAL_PROOFS_PATH, { params: query, signal }),
      placeholderData: keepPreviousData,
    }),
  );
}

/** Approves or rejects proofs; balances change, so every cached query is refreshed. */
export function useDecideSocialProofs() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: DecideSocialProofs) => apiClient.post<DecideSocialProofsResult>(`${SOCIAL_PROOFS_PATH}/decisions`, body, { isSilent: true }),
    onSuccess: () => client.invalidateQueries(),
  });
}

/** What the list's prefetch needs (app/prefetch-routes.ts): the schema its screen reads its address with, and its key. */
export const listDeclaration = { schema: listSocialProofsQuerySchema, queryKey: proofKeys.list };

import type { PrivacyActionInput, PrivacyRequest } from '@sf/contract/privacy';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { PRIVACY_PATH, privacyKeys } from './get-privacy-requests.ts';

export type PrivacyActionResult = { request: PrivacyRequest; export?: Record<string, unknown> };

export function runPrivacyAction({ id, ...body }: PrivacyActionInput & { id: string }): Promise<PrivacyActionResult> {
  return apiClient.post<PrivacyActionResult>(`${PRIVACY_PATH}/${id}/actions`, body);
}

/** export / erase / restrict / lift / close: the answer carries the request as it is now. */
export function useRunPrivacyAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: runPrivacyAction,
    onSuccess: (result) => {
      client.setQueryData(privacyKeys.request(result.request.id), result.request);
      // The customer changed too (erased, consents withdrawn): every cached customer view is stale.
      void client.invalidateQueries({ queryKey: ['customers'] });
      return client.invalidateQueries({ queryKey: privacyKeys.lists() });
    },
  });
}

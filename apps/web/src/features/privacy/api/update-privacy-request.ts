import type { PrivacyRequest, UpdatePrivacyRequest } from '@sf/contract/privacy';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { PRIVACY_PATH, privacyKeys } from './get-privacy-requests.ts';

export function updatePrivacyRequest({ id, ...body }: UpdatePrivacyRequest & { id: string }): Promise<PrivacyRequest> {
  return apiClient.patch<PrivacyRequest>(`${PRIVACY_PATH}/${id}`, body);
}

/** Notes, status, or the one extension of the deadline (with a reason). */
export function useUpdatePrivacyRequest() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updatePrivacyRequest,
    onSuccess: (request) => {
      client.setQueryData(privacyKeys.request(request.id), request);
      return client.invalidateQueries({ queryKey: privacyKeys.lists() });
    },
  });
}

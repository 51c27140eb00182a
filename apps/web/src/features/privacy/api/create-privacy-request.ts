import type { CreatePrivacyRequest, PrivacyRequest } from '@sf/contract/privacy';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { PRIVACY_PATH, privacyKeys } from './get-privacy-requests.ts';

export function createPrivacyRequest(body: CreatePrivacyRequest): Promise<PrivacyRequest> {
  return apiClient.post<PrivacyRequest>(PRIVACY_PATH, body);
}

export function useCreatePrivacyRequest() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createPrivacyRequest, onSuccess: () => client.invalidateQueries({ queryKey: privacyKeys.lists() }) });
}

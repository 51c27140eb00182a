import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { membershipPath } from './wallet-keys.ts';

/** "Invia per e-mail": the server sends the link to the customer's address (service consent needed). */
export function useEmailCardLink(membershipId: string) {
  return useMutation({
    mutationFn: () => apiClient.post<{ sentTo: string }>(`${membershipPath(membershipId)}/card-link/email`, undefined, { isSilent: true }),
  });
}

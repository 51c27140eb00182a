import type { CardLink } from '@sf/contract/wallet';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { membershipPath, walletKeys } from './wallet-keys.ts';

/** "Rigenera link": a new link; the old one stops working at once. */
export function useRegenerateCardLink(membershipId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiClient.post<CardLink>(`${membershipPath(membershipId)}/card-link`),
    onSuccess: (link) => client.setQueryData(walletKeys.cardLink(membershipId), link),
  });
}

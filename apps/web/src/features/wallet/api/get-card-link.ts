import type { CardLink } from '@sf/contract/wallet';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { membershipPath, walletKeys } from './wallet-keys.ts';

/**
 * The customer's card page link for a membership (made on first use by the server). Read silently:
 * the panel shows its own failure (a 409 for a blocked or erased customer would otherwise also toast).
 */
export function useCardLink(membershipId: string, isEnabled: boolean) {
  return useQuery({
    queryKey: walletKeys.cardLink(membershipId),
    queryFn: ({ signal }) => apiClient.get<CardLink>(`${membershipPath(membershipId)}/card-link`, { signal, isSilent: true }),
    enabled: isEnabled,
  });
}

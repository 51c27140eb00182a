import type { WalletStatus } from '@sf/contract/wallet';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { ADMIN_PATH, walletKeys } from './wallet-keys.ts';

/** Which wallets the server is configured for; a button of the other is disabled with the server's text. */
export function useWalletStatus() {
  return useQuery({
    queryKey: walletKeys.status,
    queryFn: ({ signal }) => apiClient.get<WalletStatus>(`${ADMIN_PATH}/wallet/status`, { signal }),
    staleTime: 5 * 60_000,
  });
}

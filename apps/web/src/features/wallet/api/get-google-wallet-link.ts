import type { GoogleWalletLink } from '@sf/contract/wallet';
import { apiClient } from '../../../lib/api-client.ts';
import { membershipPath } from './wallet-keys.ts';

/** The "Save to Google Wallet" link, asked for when the button is pressed (it carries a fresh JWT). */
export function getGoogleWalletLink(membershipId: string): Promise<GoogleWalletLink> {
  return apiClient.get<GoogleWalletLink>(`${membershipPath(membershipId)}/google-wallet`, { isSilent: true });
}

import { download, type Download } from '../../../lib/download.ts';
import { membershipPath } from './wallet-keys.ts';

/** The signed .pkpass, with the same token, refresh and error handling as any call. */
export function downloadApplePass(membershipId: string): Promise<Download> {
  return download(`${membershipPath(membershipId)}/pass.pkpass`, { fallbackName: 'tessera.pkpass', isSilent: true });
}

import { ApiKeysPage } from '../../features/api-keys/components/api-keys-page.tsx';
import { useLoyaltyLookups } from '../loyalty-lookups.tsx';

/** `/api-keys` — Pages → Chiavi API (admins). */
export function Component() {
  const lookups = useLoyaltyLookups();
  return <ApiKeysPage merchantOptions={lookups.activeMerchantOptions} />;
}

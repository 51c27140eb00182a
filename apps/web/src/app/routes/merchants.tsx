import { MerchantsPage } from '../../features/merchants/components/merchants-page.tsx';

/** `/merchants` — Anagrafiche → Esercenti (admins). */
export function Component() {
  return <MerchantsPage />;
}

import { ImportsPage } from '../../features/imports/components/imports-page.tsx';
import { useLoyaltyLookups } from '../loyalty-lookups.tsx';

/**
 * `/imports` — Pages → Importazioni (admins): CSV imports of customers and opening balances. Both
 * kinds write into a program (members, opening balances): only the active ones are offered.
 */
export function Component() {
  const lookups = useLoyaltyLookups();
  return <ImportsPage programOptions={lookups.activeProgramOptions} />;
}

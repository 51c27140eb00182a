import { useEnrollingPrograms } from '../../features/customers/api/get-enrolling-programs.ts';
import { ImportsPage } from '../../features/imports/components/imports-page.tsx';

/**
 * `/imports` — Pages → Importazioni (admins): CSV imports of customers and opening balances. Both
 * kinds write into a program (members, opening balances), and only an active one takes them: the
 * wizard offers the programs the new-customer form offers (the API refuses the others on the field).
 */
export function Component() {
  return <ImportsPage programOptions={useEnrollingPrograms(true) ?? []} />;
}

import { CustomersPage } from '../../features/customers/components/customers-page.tsx';
import { useProgramOptions } from '../../features/programs/api/get-programs.ts';
import { customerPath } from '../screens.ts';

/** `/customers` — Anagrafiche → Clienti; the program and tier filters' options come from the programs feature. */
export function Component() {
  const programs = useProgramOptions();
  return <CustomersPage programOptions={programs.map(({ value, label, program }) => ({ value, label, tiers: program.tiers.map((tier) => tier.name) }))} hrefFor={customerPath} />;
}

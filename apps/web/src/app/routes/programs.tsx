import { useAllMerchants } from '../../features/merchants/api/get-merchants.ts';
import { ProgramsPage } from '../../features/programs/components/programs-page.tsx';

/** `/programs` — Features → Programmi fedeltà; the merchants of a circuit come from the merchants feature. */
export function Component() {
  const merchants = useAllMerchants();
  const options = (merchants.data ?? []).map((merchant) => ({ value: merchant.id, label: merchant.signName ?? merchant.legalName }));
  return <ProgramsPage merchantOptions={options} />;
}

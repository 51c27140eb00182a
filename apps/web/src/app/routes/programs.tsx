import { CustomerPicker } from '../../features/customers/components/customer-picker.tsx';
import { useAllMerchants } from '../../features/merchants/api/get-merchants.ts';
import { canTakePart } from '../loyalty-lookups.tsx';
import { ProgramsPage } from '../../features/programs/components/programs-page.tsx';
import type { RenderCustomerPicker } from '../../features/programs/components/program-service-emails.tsx';

/** The preview of a program's service e-mails picks a real customer with the customers feature's picker. */
const renderCustomerPicker: RenderCustomerPicker = ({ label, value, onChange }) => <CustomerPicker label={label} value={value} onChange={onChange} />;

/** `/programs` — Features → Programmi fedeltà; the merchants of a circuit come from the merchants feature. */
export function Component() {
  const merchants = useAllMerchants();
  // A circuit may already hold a suspended or archived merchant: its name stays, but it cannot be added anew.
  const options = (merchants.data ?? []).map((merchant) => ({ value: merchant.id, label: merchant.signName ?? merchant.legalName, ...(canTakePart(merchant) ? {} : { disabled: true }) }));
  return <ProgramsPage merchantOptions={options} renderCustomerPicker={renderCustomerPicker} />;
}

import { CustomerPicker } from '../../features/customers/components/customer-picker.tsx';
import { useMerchantChoices } from '../loyalty-lookups.tsx';
import { ProgramsPage } from '../../features/programs/components/programs-page.tsx';
import type { RenderCustomerPicker } from '../../features/programs/components/program-service-emails.tsx';

/** The preview of a program's service e-mails picks a real customer with the customers feature's picker. */
const renderCustomerPicker: RenderCustomerPicker = ({ label, value, onChange }) => <CustomerPicker label={label} value={value} onChange={onChange} />;

/** `/programs` — Features → Programmi fedeltà; the merchants of a circuit come from the merchants feature. */
export function Component() {
  // A circuit may already hold a suspended or archived merchant: its name stays, but it cannot be added anew.
  const { choosableMerchantOptions } = useMerchantChoices();
  return <ProgramsPage merchantOptions={choosableMerchantOptions} renderCustomerPicker={renderCustomerPicker} />;
}

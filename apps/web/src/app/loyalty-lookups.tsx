import { useMemo } from 'react';
import { CustomerPicker } from '../features/customers/components/customer-picker.tsx';
import type { DialogCustomer } from '../features/ledger/components/ledger-entry-dialog.tsx';
import { useAllMerchants } from '../features/merchants/api/get-merchants.ts';
import { useProgramOptions } from '../features/programs/api/get-programs.ts';

/**
 * Programs and merchants by id, for screens that show ledger entries or write them. Route modules
 * compose features (a feature never imports another), so the lookups live here.
 */
export function useLoyaltyLookups(options: { isEnabled?: boolean } = {}) {
  const programs = useProgramOptions(options);
  const merchants = useAllMerchants(options);
  return useMemo(() => {
    const merchantItems = merchants.data ?? [];
    const programNames = new Map(programs.map((option) => [option.value, option.label]));
    const merchantNames = new Map(merchantItems.map((merchant) => [merchant.id, merchant.signName ?? merchant.legalName]));
    return {
      programs: programs.map((option) => option.program),
      programOptions: programs.map(({ value, label }) => ({ value, label })),
      merchantOptions: merchantItems.map((merchant) => ({ value: merchant.id, label: merchant.signName ?? merchant.legalName })),
      names: {
        program: (id: string) => programNames.get(id) ?? id.slice(0, 8),
        merchant: (id: string) => merchantNames.get(id) ?? id.slice(0, 8),
      },
    };
  }, [programs, merchants.data]);
}

/** The customer search of the ledger dialogs. */
export function renderCustomerPicker(label: string, placeholder: string) {
  function Picker({ value, onChange, error }: { value: DialogCustomer | null; onChange: (customer: DialogCustomer | null) => void; error: string | undefined }) {
    return <CustomerPicker label={label} placeholder={placeholder} required value={value} onChange={onChange} error={error} autoFocus />;
  }
  return Picker;
}

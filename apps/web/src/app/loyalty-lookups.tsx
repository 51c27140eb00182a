import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
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
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useMemo(() => {
    const merchantItems = merchants.data ?? [];
    const programNames = new Map(programs.map((option) => [option.value, option.label]));
    const merchantNames = new Map(merchantItems.map((merchant) => [merchant.id, merchant.signName ?? merchant.legalName]));
    // The API orders merchants by legal name, but the choices show the sign: sorted by what they show.
    const collator = new Intl.Collator(language, { sensitivity: 'base', numeric: true });
    const merchantOptions = [...merchantNames].map(([value, label]) => ({ value, label })).sort((a, b) => collator.compare(a.label, b.label));
    return {
      programs: programs.map((option) => option.program),
      programOptions: programs.map(({ value, label }) => ({ value, label })),
      merchantOptions,
      names: {
        program: (id: string) => programNames.get(id) ?? id.slice(0, 8),
        merchant: (id: string) => merchantNames.get(id) ?? id.slice(0, 8),
      },
    };
  }, [programs, merchants.data, language]);
}

/** The customer search of the ledger dialogs. */
export function renderCustomerPicker(label: string, placeholder: string) {
  function Picker({ value, onChange, error }: { value: DialogCustomer | null; onChange: (customer: DialogCustomer | null) => void; error: string | undefined }) {
    return <CustomerPicker label={label} placeholder={placeholder} required value={value} onChange={onChange} error={error} autoFocus />;
  }
  return Picker;
}

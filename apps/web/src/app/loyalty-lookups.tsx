import type { Merchant } from '@sf/contract/merchants-list';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CustomerPicker } from '../features/customers/components/customer-picker.tsx';
import type { DialogCustomer } from '../features/ledger/components/ledger-entry-dialog.tsx';
import { useAllMerchants } from '../features/merchants/api/get-merchants.ts';
import { useProgramOptions } from '../features/programs/api/get-programs.ts';

/**
 * A merchant takes part in new activity only while active: the API refuses a suspended or archived one
 * for an API key, and the integration guard stops its keys (apps/api/src/modules/integration).
 */
const canTakePart = (merchant: Pick<Merchant, 'status'>): boolean => merchant.status === 'active';

/**
 * The merchants as choices, sorted by the name they show (the API orders them by legal name, the
 * choices show the sign), in three sets for three uses; and a merchant's name by id.
 */
export function useMerchantChoices(options: { isEnabled?: boolean } = {}) {
  const merchants = useAllMerchants(options);
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useMemo(() => {
    const merchantItems = merchants.data ?? [];
    const merchantNames = new Map(merchantItems.map((merchant) => [merchant.id, merchant.signName ?? merchant.legalName]));
    const collator = new Intl.Collator(language, { sensitivity: 'base', numeric: true });
    const merchantOptions = [...merchantNames].map(([value, label]) => ({ value, label })).sort((a, b) => collator.compare(a.label, b.label));
    const activeIds = new Set(merchantItems.filter(canTakePart).map((merchant) => merchant.id));
    return {
      /** Every merchant, for list filters: history names suspended and archived ones too. */
      merchantOptions,
      /** Only the merchants that can take part, for choices that create something (a purchase, a key, a voucher use). */
      activeMerchantOptions: merchantOptions.filter((option) => activeIds.has(option.value)),
      /**
       * Every merchant, those that cannot take part disabled: for a choice that may already hold one
       * (a program's circuit, a campaign's audience), which keeps its name but cannot be picked anew.
       */
      choosableMerchantOptions: merchantOptions.map((option) => (activeIds.has(option.value) ? option : { ...option, disabled: true })),
      merchantName: (id: string) => merchantNames.get(id) ?? id.slice(0, 8),
    };
  }, [merchants.data, language]);
}

/**
 * Programs and merchants by id, for screens that show ledger entries or write them. Route modules
 * compose features (a feature never imports another), so the lookups live here.
 */
export function useLoyaltyLookups(options: { isEnabled?: boolean } = {}) {
  const programs = useProgramOptions(options);
  const merchants = useMerchantChoices(options);
  return useMemo(() => {
    const { merchantName, ...merchantChoices } = merchants;
    const programNames = new Map(programs.map((option) => [option.value, option.label]));
    return {
      programs: programs.map((option) => option.program),
      programOptions: programs.map(({ value, label }) => ({ value, label })),
      ...merchantChoices,
      names: {
        program: (id: string) => programNames.get(id) ?? id.slice(0, 8),
        merchant: merchantName,
      },
    };
  }, [programs, merchants]);
}

/** The customer search of the ledger dialogs. */
export function renderCustomerPicker(label: string, placeholder: string) {
  function Picker({ value, onChange, error }: { value: DialogCustomer | null; onChange: (customer: DialogCustomer | null) => void; error: string | undefined }) {
    return <CustomerPicker label={label} placeholder={placeholder} required value={value} onChange={onChange} error={error} autoFocus />;
  }
  return Picker;
}

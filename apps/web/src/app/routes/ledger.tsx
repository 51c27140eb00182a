import { useTranslation } from 'react-i18next';
import { CustomerPicker } from '../../features/customers/components/customer-picker.tsx';
import { LedgerPage } from '../../features/ledger/components/ledger-page.tsx';
import { useLoyaltyLookups } from '../loyalty-lookups.tsx';
import { approvedProofsPath, customerPath } from '../screens.ts';

/** `/ledger` — Features → Movimenti. */
export function Component() {
  const { t } = useTranslation('ledger');
  const lookups = useLoyaltyLookups();
  return (
    <LedgerPage
      programOptions={lookups.programOptions}
      merchantOptions={lookups.merchantOptions}
      names={{ ...lookups.names, customerHref: customerPath, proofHref: approvedProofsPath }}
      customerFilter={(value, onChange) => (
        <CustomerPicker
          label={t('filters.customer')}
          placeholder={t('filters.customerPlaceholder')}
          value={value ? { id: value, label: value.slice(0, 8) } : null}
          onChange={(customer) => onChange(customer?.id)}
        />
      )}
    />
  );
}

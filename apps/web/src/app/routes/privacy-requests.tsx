import { Paper } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CustomerPicker } from '../../features/customers/components/customer-picker.tsx';
import { MembershipsPanel } from '../../features/ledger/components/memberships-panel.tsx';
import { PrivacyRequestsPage } from '../../features/privacy/components/privacy-requests-page.tsx';
import type { RenderCustomerPicker } from '../../features/privacy/components/new-privacy-request-dialog.tsx';
import { customerPath } from '../screens.ts';

/** `/privacy-requests` — Pages → Richieste privacy (admins): the queue, with the customer search and balances. */
export function Component() {
  const { t } = useTranslation('privacy');
  const renderCustomerPicker = useMemo<RenderCustomerPicker>(
    () =>
      function Picker({ value, onChange, error }) {
        return <CustomerPicker label={t('form.customer')} placeholder={t('form.customerPlaceholder')} required value={value} onChange={onChange} error={error} autoFocus />;
      },
    [t],
  );
  return (
    <PrivacyRequestsPage
      renderCustomerPicker={renderCustomerPicker}
      customerHref={customerPath}
      renderCustomerFigures={(customerId) => (
        <Paper withBorder p="sm" radius="md">
          <MembershipsPanel customerId={customerId} />
        </Paper>
      )}
    />
  );
}

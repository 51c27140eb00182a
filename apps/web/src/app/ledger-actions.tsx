import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { LedgerEntryDialog, type DialogCustomer, type LedgerDialogKind } from '../features/ledger/components/ledger-entry-dialog.tsx';
import { RedeemRewardDialog } from '../features/rewards/components/redeem-reward-dialog.tsx';
import { renderCustomerPicker, useLoyaltyLookups } from './loyalty-lookups.tsx';

/**
 * The ledger dialogs of the header's Actions menu and the customer page, with the programs,
 * merchants and customer search they need. Loaded on demand (the first time an action is chosen).
 */
export function LedgerActionDialog({ kind, customer, onClose }: { kind: LedgerDialogKind | null; customer?: DialogCustomer | null; onClose: () => void }) {
  const { t } = useTranslation('ledger');
  const lookups = useLoyaltyLookups();
  const Picker = useMemo(() => renderCustomerPicker(t('dialog.customer'), t('dialog.customerPlaceholder')), [t]);
  return (
    <LedgerEntryDialog
      kind={kind}
      onClose={onClose}
      customer={customer ?? null}
      renderCustomerPicker={(props) => <Picker {...props} />}
      programs={lookups.programs}
      merchantOptions={lookups.activeMerchantOptions}
    />
  );
}

/** "Riscatta un premio" from the header's Actions menu and the customer page. */
export function RewardActionDialog({ isOpen, customer, onClose }: { isOpen: boolean; customer?: DialogCustomer | null; onClose: () => void }) {
  const { t } = useTranslation('ledger');
  // The same programs and merchants as Registra acquisto: the place of a redemption is chosen alike.
  const lookups = useLoyaltyLookups();
  const Picker = useMemo(() => renderCustomerPicker(t('dialog.customer'), t('dialog.customerPlaceholder')), [t]);
  return (
    <RedeemRewardDialog
      isOpen={isOpen}
      onClose={onClose}
      customer={customer ?? null}
      renderCustomerPicker={(props) => <Picker {...props} />}
      programs={lookups.programs}
      merchantOptions={lookups.activeMerchantOptions}
    />
  );
}

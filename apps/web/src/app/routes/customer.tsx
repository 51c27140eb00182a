import { Button, Group, Paper } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useCan } from '../../components/can.tsx';
import { CustomerMessagesPanel } from '../../features/campaigns/components/customer-messages-panel.tsx';
import { CustomerDetailPage } from '../../features/customers/components/customer-detail-page.tsx';
import { CustomerLedger } from '../../features/ledger/components/customer-ledger.tsx';
import type { LedgerDialogKind } from '../../features/ledger/components/ledger-entry-dialog.tsx';
import { MembershipsPanel } from '../../features/ledger/components/memberships-panel.tsx';
import { useMemberships } from '../../features/ledger/api/get-memberships.ts';
import { WalletPanel } from '../../features/wallet/components/wallet-panel.tsx';
import type { Customer } from '@sf/contract/customers';
import { LedgerActionDialog, RewardActionDialog } from '../ledger-actions.tsx';
import { useLoyaltyLookups } from '../loyalty-lookups.tsx';
import { approvedProofsPath, SCREENS } from '../screens.ts';

/** The card in the customer's phone (wallet feature) for the memberships the ledger feature reads. */
function CustomerWallet({ customer }: { customer: Customer }) {
  const memberships = useMemberships(customer.id);
  const canWrite = useCan('customers:write');
  return (
    <WalletPanel
      memberships={memberships.data?.items.map((item) => ({ id: item.id, programName: item.programName })) ?? []}
      holder={`${customer.firstName} ${customer.lastName}`}
      isActive={customer.status === 'active'}
      canWrite={canWrite}
    />
  );
}

/** `/customers/:id` — the customer's page, with their memberships, ledger and the ledger actions. */
export function Component() {
  const { id = '' } = useParams();
  const { t } = useTranslation('ledger');
  const lookups = useLoyaltyLookups();
  const canWrite = useCan('ledger:write');
  const canAdjust = useCan('points:adjust');
  const canRedeemReward = useCan('rewards:redeem');
  const [rewardFor, setRewardFor] = useState<{ id: string; label: string } | null>(null);
  const [dialog, setDialog] = useState<{ kind: LedgerDialogKind; customer: { id: string; label: string } } | null>(null);
  return (
    <>
      <CustomerDetailPage
        key={id}
        customerId={id}
        listHref={SCREENS.customers.path}
        actions={(customer) => {
          if (customer.status !== 'active' || !canWrite) return null;
          const picked = { id: customer.id, label: `${customer.firstName} ${customer.lastName} · ${customer.cardNumber}` };
          return (
            <Group gap="xs">
              <Button onClick={() => setDialog({ kind: 'purchase', customer: picked })}>{t('actions.purchase')}</Button>
              <Button variant="light" onClick={() => setDialog({ kind: 'redeem', customer: picked })}>
                {t('actions.redeem')}
              </Button>
              {canRedeemReward ? (
                <Button variant="light" onClick={() => setRewardFor(picked)}>
                  {t('rewards:actions.redeemReward')}
                </Button>
              ) : null}
              {canAdjust ? (
                <Button variant="light" onClick={() => setDialog({ kind: 'adjust', customer: picked })}>
                  {t('actions.adjust')}
                </Button>
              ) : null}
            </Group>
          );
        }}
        memberships={(customer) => (
          <Paper withBorder p="md" radius="md">
            <MembershipsPanel customerId={customer.id} />
          </Paper>
        )}
        ledger={(customer) => <CustomerLedger customerId={customer.id} names={{ ...lookups.names, proofHref: approvedProofsPath }} />}
        wallet={(customer) => <CustomerWallet customer={customer} />}
        messages={(customer) => <CustomerMessagesPanel customerId={customer.id} />}
      />
      <LedgerActionDialog kind={dialog?.kind ?? null} customer={dialog?.customer ?? null} onClose={() => setDialog(null)} />
      <RewardActionDialog isOpen={rewardFor !== null} customer={rewardFor} onClose={() => setRewardFor(null)} />
    </>
  );
}

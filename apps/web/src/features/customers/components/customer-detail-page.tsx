import { Anchor, Button, Grid, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { Customer } from '@sf/contract/customers';
import { formatPhoneForReading } from '@sf/contract/italian';
import { IconArrowLeft, IconLock, IconLockOpen, IconPencil } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCan } from '../../../components/can.tsx';
import { FailureAlert } from '../../../components/ui/failure-alert.tsx';
import { RecordNotFound } from '../../../components/ui/record-not-found.tsx';
import { isBlockingFailure, StaleDataNotice } from '../../../components/ui/stale-data-notice.tsx';
import { useDrawerParam } from '../../../hooks/use-drawer-param.ts';
import { isMissingRecord } from '../../../lib/api-error.ts';
import { useFormatters } from '../../../lib/format.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useCustomer } from '../api/get-customer.ts';
import { useUpdateCustomer } from '../api/update-customer.ts';
import { customerName } from '../lib/customer-name.ts';
import { ConsentsPanel } from './consents-panel.tsx';
import { CustomerCard } from './customer-card.tsx';
import { CustomerFormDrawer } from './customer-form-drawer.tsx';
import { CustomerStatusBadge } from './customer-status-badge.tsx';
import { useRecordTitle } from '../../../lib/document-title.ts';

type Props = {
  customerId: string;
  listHref: string;
  /** Composed by the route: the customer's memberships, ledger and actions (the ledger feature). */
  actions?: (customer: Customer) => ReactNode;
  memberships?: (customer: Customer) => ReactNode;
  ledger?: (customer: Customer) => ReactNode;
  /** Composed by the route: the card in the customer's phone, under the card (the wallet feature). */
  wallet?: (customer: Customer) => ReactNode;
  /** Composed by the route: the messages sent to the customer, last (the campaigns feature). */
  messages?: (customer: Customer) => ReactNode;
};

function Field({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text>{value}</Text>
    </div>
  );
}

function BlockButton({ customer }: { customer: Customer }) {
  const { t } = useTranslation('customers');
  const update = useUpdateCustomer({ isStatusChange: true });
  const name = customerName(customer, t);
  const isBlocking = customer.status === 'active';
  const ask = () =>
    modals.openConfirmModal({
      title: t(isBlocking ? 'confirm.block.title' : 'confirm.unblock.title'),
      children: <Text size="sm">{t(isBlocking ? 'confirm.block.message' : 'confirm.unblock.message', { name })}</Text>,
      labels: { confirm: t(isBlocking ? 'page.block' : 'page.unblock'), cancel: t('confirm.cancel') },
      confirmProps: { color: isBlocking ? 'red' : 'green' },
      onConfirm: () =>
        update.mutate(
          { id: customer.id, status: isBlocking ? 'blocked' : 'active', version: customer.version },
          { onSuccess: () => notifySuccess(t(isBlocking ? 'page.blocked' : 'page.unblocked', { name })) },
        ),
    });
  return (
    <Button variant="light" color={isBlocking ? 'red' : 'green'} leftSection={isBlocking ? <IconLock size={16} aria-hidden /> : <IconLockOpen size={16} aria-hidden />} onClick={ask} loading={update.isPending}>
      {t(isBlocking ? 'page.block' : 'page.unblock')}
    </Button>
  );
}

/** `/customers/:id` — the customer's page: personal data, card, consents, memberships and ledger. */
export function CustomerDetailPage({ customerId, listHref, actions, memberships, ledger, wallet, messages }: Props) {
  const { t } = useTranslation('customers');
  const format = useFormatters();
  const canWrite = useCan('customers:write');
  const query = useCustomer(customerId);
  const editor = useDrawerParam('edit');
  const customer = query.data;
  useRecordTitle(customer ? customerName(customer, t) : undefined);

  // Only a read with nothing to show replaces the page; a failed refetch keeps it (`StaleDataNotice`).
  if (isBlockingFailure(query) && isMissingRecord(query.error)) {
    const back = (
      <Group gap={4}>
        <IconArrowLeft size={14} aria-hidden />
        {t('page.back')}
      </Group>
    );
    return <RecordNotFound title={t('page.notFound.title')} text={t('page.notFound.text')} back={back} backHref={listHref} />;
  }
  if (isBlockingFailure(query)) return <FailureAlert error={query.error} />;
  if (!customer) return <Loader aria-label={t('page.loading')} />;

  const name = customerName(customer, t);
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={listHref} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden />
          {t('page.back')}
        </Group>
      </Anchor>
      <Group justify="space-between" wrap="wrap">
        <Group gap="sm">
          <Title order={1}>{name}</Title>
          <CustomerStatusBadge status={customer.status} />
        </Group>
        <Group gap="sm">
          {actions?.(customer)}
          {canWrite && customer.status !== 'erased' ? (
            <>
              <Button variant="default" leftSection={<IconPencil size={16} aria-hidden />} onClick={() => editor.open('1')}>
                {t('page.edit')}
              </Button>
              <BlockButton customer={customer} />
            </>
          ) : null}
        </Group>
      </Group>
      <StaleDataNotice query={query} />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="lg">
            <Paper withBorder p="md" radius="md">
              <Title order={2} size="h4" mb="sm">
                {t('page.details')}
              </Title>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                <Field label={t('form.email')} value={customer.email ?? t('page.none')} />
                <Field label={t('form.phone')} value={customer.phone ? formatPhoneForReading(customer.phone) : t('page.none')} />
                <Field label={t('form.birthDate')} value={customer.birthDate ? format.day(customer.birthDate) : t('page.none')} />
                <Field label={t('form.city')} value={customer.city ? `${customer.city}${customer.province ? ` (${customer.province})` : ''}` : t('page.none')} />
                <Field label={t('form.language')} value={t(`language.${customer.language}`)} />
                <Field label={t('page.referralCode')} value={customer.referralCode} />
                <Field label={t('columns.createdAt')} value={format.date(customer.createdAt)} />
              </SimpleGrid>
            </Paper>
            <Paper withBorder p="md" radius="md">
              <ConsentsPanel customer={customer} />
            </Paper>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <CustomerCard customerId={customer.id} holder={name} canRegenerate={canWrite && customer.status !== 'erased'} />
          {wallet?.(customer)}
        </Grid.Col>
      </Grid>
      {memberships?.(customer)}
      {ledger?.(customer)}
      {messages?.(customer)}
      <CustomerFormDrawer param="edit" isOpen={editor.target !== null} customer={customer} onClose={editor.close} onSaved={() => editor.close()} />
    </Stack>
  );
}

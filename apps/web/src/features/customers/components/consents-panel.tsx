import { Button, Group, Modal, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { ERASED_NOTICE, RETENTION_NOTICE, RECORDABLE_CONSENT_CHANNELS, CONSENT_PURPOSES, type RecordableConsentChannel, type ConsentPurpose, type Customer } from '@sf/contract/customers';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../components/can.tsx';
import { SidewaysScroll } from '../../../components/ui/sideways-scroll.tsx';
import { useFormatters } from '../../../lib/format.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useConsentHistory } from '../api/get-consent-history.ts';
import { useRecordConsent } from '../api/record-consent.ts';
import { CURRENT_NOTICE_VERSION } from '../lib/privacy.ts';

type Pending = { purpose: ConsentPurpose; granted: boolean };

function ConsentDialog({ customer, pending, onClose }: { customer: Customer; pending: Pending | null; onClose: () => void }) {
  const { t } = useTranslation('customers');
  const [channel, setChannel] = useState<RecordableConsentChannel>('back-office');
  const [noticeVersion, setNoticeVersion] = useState(CURRENT_NOTICE_VERSION);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const record = useRecordConsent();
  const purpose = pending ? t(`purpose.${pending.purpose}`) : '';
  const submit = async () => {
    if (!pending) return;
    setFieldError(null);
    try {
      await record.mutateAsync({ customerId: customer.id, purpose: pending.purpose, granted: pending.granted, channel, noticeVersion: noticeVersion.trim() });
      notifySuccess(t('consents.recorded'));
      onClose();
    } catch (error) {
      if (isApiError(error) && error.code === 'validation') setFieldError(error.fields?.[0]?.message ?? error.message);
    }
  };
  return (
    <Modal opened={pending !== null} onClose={onClose} title={pending?.granted ? t('consents.dialogGrant', { purpose }) : t('consents.dialogWithdraw', { purpose })} closeButtonProps={{ 'aria-label': t('form.close') }}>
      <Stack gap="md">
        <Select
          label={t('consents.channel')}
          data={RECORDABLE_CONSENT_CHANNELS.map((value) => ({ value, label: t(`channel.${value}`) }))}
          value={channel}
          onChange={(value) => value && setChannel(value as RecordableConsentChannel)}
          allowDeselect={false}
        />
        <TextInput label={t('form.noticeVersion')} required value={noticeVersion} onChange={(event) => setNoticeVersion(event.currentTarget.value)} error={fieldError} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('confirm.cancel')}
          </Button>
          <Button color={pending?.granted ? 'green' : 'red'} loading={record.isPending} onClick={() => void submit()}>
            {t('consents.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Consents per purpose (current state = latest record) with grant/withdraw, and their whole history. */
export function ConsentsPanel({ customer }: { customer: Customer }) {
  const { t } = useTranslation('customers');
  const format = useFormatters();
  const canWrite = useCan('customers:write') && customer.status !== 'erased';
  const history = useConsentHistory(customer.id);
  // Erasure (privacy requests) overwrites each record's notice version with the marker `erased`; the
  // retention purge's withdrawals carry `retention` (decision 022): both are markers, said in words.
  const noticeText = (version: string) =>
    version === ERASED_NOTICE ? t('consents.erasedNotice') : version === RETENTION_NOTICE ? t('consents.retentionNotice') : version;
  const [pending, setPending] = useState<Pending | null>(null);
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        {t('consents.title')}
      </Title>
      <Table verticalSpacing="xs">
        <Table.Caption>{t('consents.current')}</Table.Caption>
        <Table.Tbody>
          {CONSENT_PURPOSES.map((purpose) => {
            const state = customer.consents[purpose];
            return (
              <Table.Tr key={purpose}>
                <Table.Th scope="row">{t(`purpose.${purpose}`)}</Table.Th>
                <Table.Td>
                  {/*
                   * The state and its action share a cell that wraps: the button sits on the right where
                   * there is room and goes under the state on a phone, where a column of its own pushed
                   * it 7 px past the card (and the page 1 px past the screen).
                   */}
                  <Group justify="space-between" gap="xs" wrap="wrap">
                    {/* Counted 10rem wide when the line is laid out: its details wrap before the button moves down. */}
                    <div style={{ flex: '1 1 10rem' }}>
                      {state ? (state.granted ? t('consents.grantedState') : t('consents.withdrawnState')) : t('consents.never')}
                      {state ? (
                        <Text size="xs" c="dimmed">
                          {format.dateTime(state.at)} · {t(`channel.${state.channel}`)} · {noticeText(state.noticeVersion)}
                        </Text>
                      ) : null}
                    </div>
                    {canWrite ? (
                      <Button size="xs" variant="light" color={state?.granted ? 'red' : 'green'} onClick={() => setPending({ purpose, granted: !state?.granted })} aria-label={`${state?.granted ? t('consents.withdraw') : t('consents.grant')}: ${t(`purpose.${purpose}`)}`}>
                        {state?.granted ? t('consents.withdraw') : t('consents.grant')}
                      </Button>
                    ) : null}
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      <Title order={3} size="h5">
        {t('consents.history')}
      </Title>
      {history.isError ? <Text c="red">{t('consents.historyError')}</Text> : null}
      {history.data && history.data.items.length === 0 ? <Text c="dimmed">{t('consents.historyEmpty')}</Text> : null}
      {history.data && history.data.items.length > 0 ? (
        // Its rows hold nothing to focus: on a phone, where it scrolls, the scroller itself takes the focus so
        // that a keyboard can scroll it (axe: scrollable-region-focusable).
        <SidewaysScroll minWidth={520} tabIndex={0} role="group" aria-label={t('consents.history')}>
          <Table striped verticalSpacing="xs">
            <Table.Caption>{t('consents.caption')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('consents.at')}</Table.Th>
                <Table.Th>{t('consents.purposeColumn')}</Table.Th>
                {/* The state recorded then, not today's (the table above says that). */}
                <Table.Th>{t('consents.stateColumn')}</Table.Th>
                <Table.Th>{t('consents.channel')}</Table.Th>
                <Table.Th>{t('consents.noticeVersion')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {history.data.items.map((record) => (
                <Table.Tr key={record.id}>
                  <Table.Td>{format.dateTime(record.at)}</Table.Td>
                  <Table.Td>{t(`purpose.${record.purpose}`)}</Table.Td>
                  <Table.Td>{record.granted ? t('consents.grantedState') : t('consents.withdrawnState')}</Table.Td>
                  <Table.Td>{t(`channel.${record.channel}`)}</Table.Td>
                  <Table.Td>{noticeText(record.noticeVersion)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </SidewaysScroll>
      ) : null}
      <ConsentDialog customer={customer} pending={pending} onClose={() => setPending(null)} />
    </Stack>
  );
}

import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { LEDGER_BOUNDS, type LedgerEntry } from '@sf/contract/ledger';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeApiError } from '../../../lib/api-client.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { message } from '@sf/contract/messages';
import { currentLanguage } from '../../../lib/i18n.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useFormatters } from '../../../lib/format.ts';
import { useReverseLedgerEntry } from '../api/reverse-ledger-entry.ts';
import { balanceWords } from '../lib/balance-words.ts';
import { newIdempotencyKey } from '../lib/idempotency.ts';

/** A confirmed reversal with its reason; one Idempotency-Key per dialog, so a retry never reverses twice. */
export function ReverseDialog({ entry, onClose }: { entry: LedgerEntry | null; onClose: () => void }) {
  const { t } = useTranslation('ledger');
  const format = useFormatters();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const key = useRef<string | null>(null);
  const reverse = useReverseLedgerEntry();

  useEffect(() => {
    setReason('');
    setError(null);
    setFailure(null);
    key.current = entry ? newIdempotencyKey() : null;
  }, [entry]);

  const submit = async () => {
    if (!entry || !key.current) return;
    const trimmed = reason.trim();
    if (!trimmed) {
      setError(message('required', currentLanguage(), { field: t('reverse.reason') }));
      return;
    }
    setError(null);
    setFailure(null);
    try {
      await reverse.mutateAsync({ id: entry.id, reason: trimmed, idempotencyKey: key.current });
      notifySuccess(t('reverse.done'));
      onClose();
    } catch (caught) {
      if (isApiError(caught) && caught.code === 'validation') setError(caught.fields?.[0]?.message ?? caught.message);
      else setFailure(isApiError(caught) && caught.status < 500 && caught.status !== 0 ? caught.message : `${describeApiError(caught)} ${t('dialog.retry')}`);
    }
  };

  return (
    <Modal opened={entry !== null} onClose={onClose} title={t('reverse.title')} closeButtonProps={{ 'aria-label': t('dialog.close') }}>
      {entry ? (
        <Stack gap="md">
          <Text size="sm">
            {t('reverse.message', { amounts: balanceWords(t, format.number, entry.points === 0 && entry.stamps !== 0 ? 'stamps' : 'points', -entry.points, -entry.stamps) })}
          </Text>
          {failure ? (
            <Text c="red" role="alert" size="sm">
              {failure}
            </Text>
          ) : null}
          <Textarea label={t('reverse.reason')} required data-autofocus value={reason} maxLength={LEDGER_BOUNDS.reasonMax} onChange={(event) => setReason(event.currentTarget.value)} error={error} rows={2} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('reverse.cancel')}
            </Button>
            <Button color="orange" loading={reverse.isPending} onClick={() => void submit()}>
              {t('reverse.confirm')}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}

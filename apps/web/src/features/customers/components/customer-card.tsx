import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconPrinter, IconRefresh } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FailureAlert } from '../../../components/ui/failure-alert.tsx';
import { isBlockingFailure, StaleDataNotice } from '../../../components/ui/stale-data-notice.tsx';
import { describeApiError } from '../../../lib/api-client.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useCustomerCard, useRegenerateCardCode } from '../api/get-customer-card.ts';
import classes from './customer-card.module.css';

/** Groups of four digits read better at the counter: 8012 3456 7890 1. */
export function formatCardNumber(number: string): string {
  return number.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/**
 * The loyalty card: QR code and barcode (CODE128, what counter scanners read) carrying the number and
 * the card's secret code (`<number>-<code>`, decision 030), the number alone printed beneath, printable
 * on its own. Staff with `customers:write` can give the card a new code (a lost or copied card). The
 * encoders load with this screen only.
 */
export function CustomerCard({ customerId, holder, canRegenerate }: { customerId: string; holder: string; canRegenerate: boolean }) {
  const { t } = useTranslation('customers');
  const card = useCustomerCard(customerId);
  const regenerate = useRegenerateCardCode(customerId);
  const [qr, setQr] = useState<string | null>(null);
  const barcode = useRef<SVGSVGElement>(null);
  const message = card.data?.barcodeMessage;
  const cardNumber = card.data?.cardNumber ?? '';

  useEffect(() => {
    if (!message) return undefined;
    let isCurrent = true;
    void import('qrcode').then(({ toDataURL }) =>
      toDataURL(message, { margin: 1, width: 160, errorCorrectionLevel: 'M' }).then((url) => {
        if (isCurrent) setQr(url);
      }),
    );
    void import('jsbarcode').then(({ default: JsBarcode }) => {
      if (isCurrent && barcode.current) JsBarcode(barcode.current, message, { format: 'CODE128', displayValue: false, height: 60, margin: 8 });
    });
    return () => {
      isCurrent = false;
    };
  }, [message]);

  const ask = () =>
    modals.openConfirmModal({
      title: t('card.regenerate.title'),
      children: <Text size="sm">{t('card.regenerate.message', { name: holder })}</Text>,
      labels: { confirm: t('card.regenerate.confirm'), cancel: t('confirm.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => regenerate.mutate(undefined, { onSuccess: () => notifySuccess(t('card.regenerate.done', { name: holder })) }),
    });

  // A failed refetch (after the customer changed) keeps the card on screen: it is still the one printed.
  if (isBlockingFailure(card)) return <FailureAlert error={card.error} />;
  return (
    <Stack gap="sm">
      <StaleDataNotice query={card} />
      <Paper withBorder p="md" radius="md" className={classes.card}>
        <Stack gap="xs" align="center">
          <Title order={2} size="h4">
            {t('card.title')}
          </Title>
          <Text fw={500}>{holder}</Text>
          {qr ? <img src={qr} alt={t('card.qr', { number: cardNumber })} width={160} height={160} className={classes.qr} /> : <div style={{ width: 160, height: 160 }} />}
          <svg ref={barcode} role="img" aria-label={t('card.barcode', { number: cardNumber })} className={classes.barcode} />
          <Text ff="monospace" fz="lg" aria-label={t('card.number')} data-testid="card-number">
            {formatCardNumber(cardNumber)}
          </Text>
        </Stack>
      </Paper>
      <Group className={classes.noPrint}>
        <Button variant="default" leftSection={<IconPrinter size={16} aria-hidden />} onClick={() => window.print()} disabled={!message}>
          {t('card.print')}
        </Button>
        {canRegenerate ? (
          <Button variant="subtle" color="red" leftSection={<IconRefresh size={16} aria-hidden />} onClick={ask} loading={regenerate.isPending} disabled={!message}>
            {t('card.regenerate.button')}
          </Button>
        ) : null}
      </Group>
      {regenerate.isError ? (
        <Alert color="red" role="alert" className={classes.noPrint}>
          {describeApiError(regenerate.error)}
        </Alert>
      ) : null}
    </Stack>
  );
}

import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './customer-card.module.css';

/** Groups of four digits read better at the counter: 8012 3456 7890 1. */
export function formatCardNumber(number: string): string {
  return number.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/**
 * The loyalty card: number, QR code and barcode (CODE128, what counter scanners read), printable on
 * its own. The encoders load with this screen only.
 */
export function CustomerCard({ cardNumber, holder }: { cardNumber: string; holder: string }) {
  const { t } = useTranslation('customers');
  const [qr, setQr] = useState<string | null>(null);
  const barcode = useRef<SVGSVGElement>(null);

  useEffect(() => {
    let isCurrent = true;
    void import('qrcode').then(({ toDataURL }) =>
      toDataURL(cardNumber, { margin: 1, width: 160, errorCorrectionLevel: 'M' }).then((url) => {
        if (isCurrent) setQr(url);
      }),
    );
    void import('jsbarcode').then(({ default: JsBarcode }) => {
      if (isCurrent && barcode.current) JsBarcode(barcode.current, cardNumber, { format: 'CODE128', displayValue: false, height: 60, margin: 8 });
    });
    return () => {
      isCurrent = false;
    };
  }, [cardNumber]);

  return (
    <Stack gap="sm">
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
        <Button variant="default" leftSection={<IconPrinter size={16} aria-hidden />} onClick={() => window.print()}>
          {t('card.print')}
        </Button>
      </Group>
    </Stack>
  );
}

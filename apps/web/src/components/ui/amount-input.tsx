import { NumberInput, type NumberInputProps } from '@mantine/core';
import { useFormatters } from '../../lib/format.ts';

/**
 * An amount in euro typed as the reader types it: "1.234,56", "12,5" or "1234" in Italian, "1,234.56"
 * in English. Only the language's decimal mark starts the decimals (Mantine also takes "." by default,
 * so an Italian "1.234,56" typed key by key became 1,23); the thousands mark is written for the reader.
 * A minus sign stays in the field (never clamped to 0 on blur) so that the form says why it is refused.
 */
export function AmountInput(props: Omit<NumberInputProps, 'decimalSeparator' | 'thousandSeparator' | 'allowedDecimalSeparators'>) {
  const format = useFormatters();
  const isItalian = format.locale === 'it-IT';
  const decimal = isItalian ? ',' : '.';
  return (
    <NumberInput
      decimalScale={2}
      fixedDecimalScale={false}
      clampBehavior="none"
      hideControls
      leftSection="€"
      inputMode="decimal"
      {...props}
      decimalSeparator={decimal}
      allowedDecimalSeparators={[decimal]}
      thousandSeparator={isItalian ? '.' : ','}
    />
  );
}

import { NumberInput, type NumberInputProps } from '@mantine/core';
import { useFormatters } from '../../lib/format.ts';

/**
 * An amount in euro typed as the reader types it: "1.234,56", "12,5" or "1234" in Italian, "1,234.56"
 * in English. Only the language's decimal mark starts the decimals (Mantine also takes "." by default,
 * so an Italian "1.234,56" typed key by key became 1,23); the thousands mark is written for the reader.
 * A minus sign stays in the field (never clamped to 0 on blur) so that the form says why it is refused.
 * So does a third decimal: "12,345" pasted stays "12,345" (Mantine's `decimalScale={2}` cut it to 12,34
 * without a word), and the form refuses it by name (`hasSubCentDigits`). Money typed is never changed.
 */
export function AmountInput(props: Omit<NumberInputProps, 'decimalSeparator' | 'thousandSeparator' | 'allowedDecimalSeparators'>) {
  const format = useFormatters();
  const isItalian = format.locale === 'it-IT';
  const decimal = isItalian ? ',' : '.';
  return (
    <NumberInput
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

/** True when the field's value has digits below the cent ("12,345"): the value is the input's own (a number, or its text with "." as the decimal mark). */
export function hasSubCentDigits(value: number | string | null | undefined): boolean {
  if (value === null || value === undefined || value === '') return false;
  if (typeof value === 'number' && !Number.isFinite(value)) return false;
  // Ten places are far below a cent and avoid the exponent form (1e-7) of a number's own text.
  const text = typeof value === 'number' ? value.toFixed(10).replace(/0+$/, '') : value.trim();
  const decimals = /\.(\d*)$/.exec(text)?.[1] ?? '';
  return decimals.replace(/0+$/, '').length > 2;
}

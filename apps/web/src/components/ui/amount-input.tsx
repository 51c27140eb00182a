import { NumberInput, type NumberInputProps } from '@mantine/core';
import { useFormatters } from '../../lib/format.ts';

/**
 * An amount in euro typed as people type it at a till: "12,50", "12.50" and "12,5" are all 12,50 €, in
 * either language. Either mark starts the decimals (an Italian numeric keypad's decimal key often types
 * "."), and the field shows no thousands grouping while typing: with "." as the Italian thousands mark,
 * "12.50" became "1.250" without a word. A till operator does not type thousands marks; the summary and
 * the read-only displays show the amount formatted. A pasted "1.234,56" (or "1,234.56") is still read
 * right: Mantine's paste takes the last mark as the decimals and drops the others.
 * A minus sign stays in the field (never clamped to 0 on blur) so that the form says why it is refused.
 * So does a third decimal: "12,345" pasted stays "12,345" (Mantine's `decimalScale={2}` cut it to 12,34
 * without a word), and the form refuses it by name (`hasSubCentDigits`). Money typed is never changed.
 */
export function AmountInput(props: Omit<NumberInputProps, 'decimalSeparator' | 'thousandSeparator' | 'allowedDecimalSeparators'>) {
  const format = useFormatters();
  return (
    <NumberInput
      clampBehavior="none"
      hideControls
      leftSection="€"
      inputMode="decimal"
      {...props}
      decimalSeparator={format.locale === 'it-IT' ? ',' : '.'}
      allowedDecimalSeparators={AMOUNT_DECIMAL_MARKS}
      thousandSeparator={false}
    />
  );
}

/** Both marks start the decimals of a number typed in a form, whatever the language (see `AmountInput`). */
export const AMOUNT_DECIMAL_MARKS = ['.', ','];

/** True when the field's value has digits below the cent ("12,345"): the value is the input's own (a number, or its text with "." as the decimal mark). */
export function hasSubCentDigits(value: number | string | null | undefined): boolean {
  if (value === null || value === undefined || value === '') return false;
  if (typeof value === 'number' && !Number.isFinite(value)) return false;
  // Ten places are far below a cent and avoid the exponent form (1e-7) of a number's own text.
  const text = typeof value === 'number' ? value.toFixed(10).replace(/0+$/, '') : value.trim();
  const decimals = /\.(\d*)$/.exec(text)?.[1] ?? '';
  return decimals.replace(/0+$/, '').length > 2;
}

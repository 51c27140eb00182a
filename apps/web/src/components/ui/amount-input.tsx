import { NumberInput, type NumberInputProps } from '@mantine/core';
import { fieldLabel } from '@sf/contract/messages';
import { Controller, type FieldPath, type FieldValues, type UseFormReturn } from 'react-hook-form';
import { useFormatters } from '../../lib/format.ts';
import { currentLanguage, translate } from '../../lib/texts.ts';

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

/**
 * "Importo: al massimo due decimali" when the field's value goes below the cent, else null. The field is
 * named by the contract's label of its form name (`amountCents` → Importo), as the contract's own
 * messages name it. For a form's resolver (a submit) and for `AmountField` (while typing).
 */
export function amountDecimalsProblem(name: string, value: number | string | null | undefined): string | null {
  if (!hasSubCentDigits(value)) return null;
  return translate('records:amountDecimals', { field: fieldLabel(name.split('.').at(-1) ?? name, currentLanguage()) });
}

type AmountFieldProps<T extends FieldValues> = Omit<Parameters<typeof AmountInput>[0], 'value' | 'onChange' | 'onBlur' | 'error' | 'name' | 'form'> & {
  form: UseFormReturn<T>;
  name: FieldPath<T>;
};

/**
 * An `AmountInput` bound to a react-hook-form field: a third decimal is named as it is typed or pasted
 * (the form's resolver refuses it again on submit, with `amountDecimalsProblem`), and a refused submit
 * can focus it. Every money field of a form is one of these.
 */
export function AmountField<T extends FieldValues>({ form, name, ...props }: AmountFieldProps<T>) {
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field, fieldState }) => (
        <AmountInput
          {...props}
          ref={field.ref}
          value={field.value}
          onChange={(next) => {
            field.onChange(next);
            const problem = amountDecimalsProblem(name, next);
            if (problem) form.setError(name, { type: 'decimals', message: problem });
            else if (fieldState.error?.type === 'decimals') form.clearErrors(name);
          }}
          onBlur={field.onBlur}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}

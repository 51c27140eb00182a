/**
 * Form fields hold text; the contract wants `null` for an optional field left empty. Trims the
 * given keys and turns blanks into null (nested objects are left to their own required fields).
 */
export function blanksToNull<T extends Record<string, unknown>>(values: T, keys: readonly (keyof T)[]): T {
  const next: Record<string, unknown> = { ...values };
  for (const key of keys) {
    const value = next[key as string];
    if (typeof value === 'string') next[key as string] = value.trim() === '' ? null : value.trim();
  }
  return next as T;
}

/**
 * An amount field's value (`AmountInput`) → integer cents (amounts are integers end to end). The field
 * gives a number, or its own text while that text is not a plain number yet ("24.50", "24."): without
 * thousands marks and with a point for the decimals, whatever the language shows. Read as Italian text,
 * "24.50" was 2.450 € (an Enter typed in the field moves on before it is left and made a number).
 */
export function euroToCents(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const number = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(number) ? Math.round(number * 100) : null;
}

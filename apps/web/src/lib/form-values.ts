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

/** Euro text or number → integer cents (amounts are integers end to end). */
export function euroToCents(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const number = typeof value === 'number' ? value : Number(String(value).replace(/\./g, '').replace(',', '.'));
  return Number.isFinite(number) ? Math.round(number * 100) : null;
}

import { cardReferenceSchema, splitCardReference } from '@sf/contract/customer-cards';

/**
 * The customer a search names by their card — scanned at the counter (`<number>-<code>`, what the card's
 * QR code and barcode carry) or its number typed whole — when the answer holds them alone; else none.
 */
export function cardHolderOf<T extends { cardNumber: string }>(search: string | undefined, items: readonly T[] | undefined): T | undefined {
  if (!search || !cardReferenceSchema.safeParse(search).success) return undefined;
  const { cardNumber } = splitCardReference(search);
  return items?.length === 1 && items[0]?.cardNumber === cardNumber ? items[0] : undefined;
}

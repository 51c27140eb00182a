import { z } from 'zod';

/**
 * The card's presence code (decision record 030): every card carries a secret of 10 characters that
 * the printed number does not reveal. The card's QR code and barcode carry `<number>-<code>` (the
 * "scanned form"); the text printed under the barcode stays the number alone. Spending points through
 * the integration API needs the code; so does anything the customers' app does with a card.
 */

/** The vouchers' unambiguous alphabet (no 0/O, 1/I/L): a code read aloud or typed is not mistaken. */
export const CARD_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const CARD_CODE_LENGTH = 10;

/** The header a client may send the code in on `GET /cards/:cardNumber` (instead of the scanned form). */
export const CARD_CODE_HEADER = 'X-Card-Code';

const CARD_NUMBER = '\\d{13}';
const CARD_CODE = `[${CARD_CODE_ALPHABET}${CARD_CODE_ALPHABET.toLowerCase()}]{${CARD_CODE_LENGTH}}`;

/** A card as a till or the app sends it: the number alone, or the scanned form `<13 digits>-<code>`. */
export const cardReferenceSchema = z.string().trim().regex(new RegExp(`^${CARD_NUMBER}(-${CARD_CODE})?$`));

/** A code on its own (any case; compared upper-cased). */
export const cardCodeSchema = z.string().trim().regex(new RegExp(`^${CARD_CODE}$`));

/** What the QR code and the barcode carry. */
export function barcodeMessageOf(cardNumber: string, cardCode: string): string {
  return `${cardNumber}-${cardCode}`;
}

/** `2790000000018-K7PXM2QD9W` → number and code; a number alone → the number. Codes come back upper-cased. */
export function splitCardReference(value: string): { cardNumber: string; cardCode?: string } {
  const [cardNumber = '', cardCode] = value.trim().split('-', 2);
  return cardCode === undefined ? { cardNumber } : { cardNumber, cardCode: cardCode.toUpperCase() };
}

/** `GET /api/admin/customers/:id/card`: what the staff card view prints and encodes. */
export const customerCardSchema = z.object({
  cardNumber: z.string(),
  /** The card's secret code: only in the QR code and barcode, never printed as text. */
  cardCode: z.string(),
  /** What the QR code and barcode encode: `<cardNumber>-<cardCode>`. */
  barcodeMessage: z.string(),
  /** Raised by each regeneration (a lost or copied card): the previous code stops working at once. */
  cardCodeVersion: z.number().int(),
});
export type CustomerCard = z.infer<typeof customerCardSchema>;

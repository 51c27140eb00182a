/**
 * Italian identifiers and addresses, checked the same way by the web forms and the API. Pure
 * functions (no zod) so that they can be unit-tested against real examples; the zod schemas below
 * wrap them.
 */
import { z } from 'zod';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/**
 * Partita IVA: 11 digits, the last a check digit (the Luhn rule: digits in even positions doubled,
 * 9 subtracted above 9, the total a multiple of 10). An all-zero number passes the arithmetic but is
 * never issued.
 */
export function isValidPartitaIva(value: string): boolean {
  if (!/^\d{11}$/.test(value) || /^0{11}$/.test(value)) return false;
  let sum = 0;
  for (let index = 0; index < 11; index += 1) {
    let digit = Number(value[index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Values of the characters in odd positions (1st, 3rd, …) for the Codice Fiscale check character. */
const ODD_VALUES: Record<string, number> = {
  '0': 1, '1': 0, '2': 5, '3': 7, '4': 9, '5': 13, '6': 15, '7': 17, '8': 19, '9': 21,
  A: 1, B: 0, C: 5, D: 7, E: 9, F: 13, G: 15, H: 17, I: 19, J: 21, K: 2, L: 4, M: 18,
  N: 20, O: 11, P: 3, Q: 6, R: 8, S: 12, T: 14, U: 16, V: 10, W: 22, X: 25, Y: 24, Z: 23,
};

/** Omocodia: a digit replaced by a letter when two people would share a code (DM 12/03/1974). */
const OMOCODIA_LETTERS = 'LMNPQRSTUV';
/** Positions (0-based) that hold digits, which omocodia may replace by OMOCODIA_LETTERS. */
const DIGIT_POSITIONS = [6, 7, 9, 10, 12, 13, 14];
const MONTH_LETTERS = 'ABCDEHLMPRST';

function evenValue(character: string): number {
  return /\d/.test(character) ? Number(character) : character.charCodeAt(0) - 65;
}

/** The check character (16th) of the first 15 characters of a Codice Fiscale. */
export function codiceFiscaleCheckCharacter(first15: string): string {
  let sum = 0;
  for (let index = 0; index < 15; index += 1) {
    const character = first15[index] ?? '';
    sum += index % 2 === 0 ? (ODD_VALUES[character] ?? 0) : evenValue(character);
  }
  return String.fromCharCode(65 + (sum % 26));
}

/**
 * Codice Fiscale of a person: 16 characters (surname, name, year, month letter, day (+40 for women),
 * place, check character), with omocodia accepted; the check character must match.
 */
export function isValidPersonalCodiceFiscale(input: string): boolean {
  const value = input.toUpperCase();
  if (!/^[A-Z]{6}[0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]$/.test(value)) return false;
  // Undo omocodia to read the date, which must be a possible one.
  const decoded = value
    .split('')
    .map((character, index) =>
      DIGIT_POSITIONS.includes(index) && /[A-Z]/.test(character) ? String(OMOCODIA_LETTERS.indexOf(character)) : character,
    )
    .join('');
  if (!MONTH_LETTERS.includes(decoded[8] ?? '')) return false;
  const day = Number(decoded.slice(9, 11));
  if (!((day >= 1 && day <= 31) || (day >= 41 && day <= 71))) return false;
  return codiceFiscaleCheckCharacter(value.slice(0, 15)) === value[15];
}

/** Codice Fiscale as a merchant may have it: a person's 16 characters, or a company's 11 digits. */
export function isValidCodiceFiscale(value: string): boolean {
  return /^\d{11}$/.test(value) ? isValidPartitaIva(value) : isValidPersonalCodiceFiscale(value);
}

/** Codice destinatario SDI: 7 letters or digits (6 for public administrations, not our merchants). */
export function isValidSdiCode(value: string): boolean {
  return /^[A-Z0-9]{7}$/.test(value.toUpperCase());
}

/** The code that means "deliver to my PEC": only meaningful with a PEC address. */
export const SDI_CODE_USE_PEC = '0000000';

export function isValidPostalCode(value: string): boolean {
  return /^\d{5}$/.test(value);
}

export { PROVINCES, isProvince, provinceSchema, type Province } from './provinces.ts';

/**
 * A phone number in E.164 (`+393471234567`); numbers written without a country code are Italian.
 * Returns null when it is not a possible number.
 */
export function toE164(value: string): string | null {
  const parsed = parsePhoneNumberFromString(value.trim(), 'IT');
  if (!parsed || !parsed.isValid()) return null;
  return parsed.number;
}

/**
 * A stored number (E.164) written for people to read again in a form ("+39 02 1234 5678"); anything
 * it cannot parse is given back as it is.
 */
export function formatPhoneForInput(value: string): string {
  const parsed = value.trim() === '' ? undefined : parsePhoneNumberFromString(value.trim(), 'IT');
  return parsed ? parsed.formatInternational() : value;
}

/**
 * A stored number (E.164) written for reading in a list or a record: an Italian one as Italians write it
 * ("333 123 4567", "02 1234 5678"), a foreign one with its country code ("+44 20 7946 0958"). Anything it
 * cannot parse is given back as it is. Exports keep E.164: a spreadsheet or a dialler reads that.
 */
export function formatPhoneForReading(value: string): string {
  const parsed = value.trim() === '' ? undefined : parsePhoneNumberFromString(value.trim(), 'IT');
  if (!parsed) return value;
  // +39 is Italy's and the Vatican's: the same national format.
  return parsed.countryCallingCode === '39' ? parsed.formatNational() : parsed.formatInternational();
}

// zod schemas for the forms and the API. Messages come from the error machinery (the field's name).

const invalid = { params: { messageKey: 'invalid' } } as const;
const upper = (value: string) => value.trim().toUpperCase();

/**
 * "IT 04123456784", "04 123 456 784" or "IT04123456784" as pasted from an invoice: spaces, dots and
 * dashes and the country prefix are dropped, then the 11 digits are checked (never cut to length).
 */
export function normalizePartitaIva(value: string): string {
  return value.replace(/[\s.-]/g, '').replace(/^IT/i, '');
}
export const partitaIvaSchema = z.string().transform(normalizePartitaIva).refine(isValidPartitaIva, invalid);
export const codiceFiscaleSchema = z.string().transform(upper).refine(isValidCodiceFiscale, invalid);
export const sdiCodeSchema = z.string().transform(upper).refine(isValidSdiCode, invalid);
export const postalCodeSchema = z.string().trim().refine(isValidPostalCode, invalid);
/** Accepts any way of writing an Italian or international number; yields E.164. */
export const phoneSchema = z
  .string()
  .max(40)
  .transform((value, context) => {
    const e164 = toE164(value);
    if (e164 === null) {
      context.addIssue({ code: 'custom', ...invalid });
      return z.NEVER;
    }
    return e164;
  });

import { z } from 'zod';
import { LANGUAGES } from './app-info.ts';
import { BOUNDS, keyed, nameSchema } from './validation.ts';
import { phoneSchema, provinceSchema } from './italian.ts';
import { consentChannelSchema, consentPurposeSchema, recordableConsentChannelSchema } from './customers-list.ts';

export * from './customers-list.ts';

const noticeVersionSchema = z.string().trim().min(1).max(50);

export const consentInputSchema = z.strictObject({
  granted: z.boolean(),
  channel: recordableConsentChannelSchema,
  noticeVersion: noticeVersionSchema,
});

/** Before it, a typo (0985 for 1985) rather than a birth. */
export const BIRTH_DATE_MIN = '1900-01-01';

/**
 * A birth date from 1900 up to the latest day that has begun somewhere on Earth (UTC+14): today is never
 * refused, whatever the business's time zone, and a day that has not begun anywhere is.
 */
export function isPossibleBirthDate(day: string, now: Date = new Date()): boolean {
  const latestToday = new Date(now.getTime() + 14 * 3_600_000).toISOString().slice(0, 10);
  return day >= BIRTH_DATE_MIN && day <= latestToday;
}

const name = nameSchema();
const nullableOptional = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

const customerFields = {
  firstName: name,
  lastName: name,
  email: nullableOptional(z.email().max(BOUNDS.emailMax)),
  phone: nullableOptional(phoneSchema),
  birthDate: nullableOptional(z.iso.date().refine((day) => isPossibleBirthDate(day), keyed('invalid'))),
  city: nullableOptional(z.string().trim().min(1).max(100)),
  province: nullableOptional(provinceSchema),
  /** The customer's language for our e-mails and pages; `it` when not given at creation. */
  language: z.enum(LANGUAGES).optional(),
};

/** Unambiguous characters of referral codes: no 0/O, 1/I/L, 2/Z, 5/S, 8/B. */
export const REFERRAL_ALPHABET = '34679ACDEFGHJKMNPQRTUVWXY';
export const referralCodeSchema = z
  .string()
  .trim()
  .transform((value) => value.toUpperCase())
  .pipe(z.string().regex(new RegExp(`^[${REFERRAL_ALPHABET}]{8}$`)));

export const createCustomerSchema = z.strictObject({
  ...customerFields,
  /**
   * Consents given at enrolment, per purpose. The card is issued without marketing or profiling
   * consent: only those given here are recorded.
   */
  consents: z.partialRecord(consentPurposeSchema, consentInputSchema).optional(),
  /** The referral code of the customer who brought this one. */
  referrerCode: referralCodeSchema.optional(),
  /** The active program the customer joins now; its welcome e-mail (when on) is the only one sent. */
  programId: z.uuid().optional(),
});
export type CreateCustomer = z.infer<typeof createCustomerSchema>;

/** A change of the personal data, or block/unblock through `status`, with the `version` read. */
export const updateCustomerSchema = z.strictObject({
  ...z.strictObject(customerFields).partial().shape,
  status: z.enum(['active', 'blocked']).optional(),
  version: z.number().int().min(1),
});
export type UpdateCustomer = z.infer<typeof updateCustomerSchema>;

/** `POST /api/admin/customers/:id/consents`: a grant or a withdrawal, recorded as a new entry. */
export const recordConsentSchema = z.strictObject({
  purpose: consentPurposeSchema,
  granted: z.boolean(),
  channel: recordableConsentChannelSchema,
  noticeVersion: noticeVersionSchema,
});
export type RecordConsent = z.infer<typeof recordConsentSchema>;

export const consentRecordSchema = z.object({
  id: z.number().int(),
  purpose: consentPurposeSchema,
  granted: z.boolean(),
  channel: consentChannelSchema,
  noticeVersion: z.string(),
  at: z.iso.datetime({ offset: true }),
  recordedBy: z.string().nullable(),
});
export type ConsentRecord = z.infer<typeof consentRecordSchema>;
/** Every grant and withdrawal of a customer, newest first. */
export const consentHistorySchema = z.object({ items: z.array(consentRecordSchema) });

/**
 * Card numbers: the issuer prefix, 9 digits and a Luhn check digit (13 digits). New cards draw the 9
 * digits at random (the API's drawCardNumber, decision record 030); cards issued before that carry a
 * counter there (`cardNumberFor`, still used by the demo data) and keep working.
 */
export const CARD_PREFIX = '279';

/** The Luhn check digit of a string of digits. */
export function luhnCheckDigit(digits: string): number {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return (10 - (sum % 10)) % 10;
}

/** A card number with a counter in place of the random digits: cards issued before decision 030, demo data. */
export function cardNumberFor(sequence: number): string {
  const body = `${CARD_PREFIX}${String(sequence).padStart(9, '0')}`;
  return `${body}${luhnCheckDigit(body)}`;
}

/** A card number as we issue them: 13 digits, our prefix, a matching check digit (typos are caught). */
export function isValidCardNumber(value: string): boolean {
  return /^\d{13}$/.test(value) && value.startsWith(CARD_PREFIX) && luhnCheckDigit(value.slice(0, 12)) === Number(value[12]);
}

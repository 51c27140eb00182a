import { z } from 'zod';
import { LANGUAGES } from './app-info.ts';
import { exportQuerySchema, listPageSchema, listQuerySchema, queryBooleanSchema } from './list-query.ts';

/**
 * The customers list's side of the contract: a customer as the API answers it, and the list's query.
 * Apart from `customers.ts` (which re-exports all of it) so that the list screen does not load the write
 * schemas and the phone rules' metadata (~120 KB) with its first page (decision 010, fourth pass).
 */

export const CUSTOMER_STATUSES = ['active', 'blocked', 'erased'] as const;
export const customerStatusSchema = z.enum(CUSTOMER_STATUSES);
export type CustomerStatus = z.infer<typeof customerStatusSchema>;

/** Consent purposes (Garante, 24 Feb 2005): `service` is needed for the card; the others are optional. */
export const CONSENT_PURPOSES = ['service', 'marketing', 'profiling'] as const;
export const consentPurposeSchema = z.enum(CONSENT_PURPOSES);
export type ConsentPurpose = z.infer<typeof consentPurposeSchema>;

export const CONSENT_CHANNELS = ['counter', 'app', 'web', 'import', 'back-office', 'email_link', 'system'] as const;
export const consentChannelSchema = z.enum(CONSENT_CHANNELS);
export type ConsentChannel = z.infer<typeof consentChannelSchema>;
/**
 * The channels staff may record a consent through. `email_link` is the customer's own withdrawal with
 * the unsubscribe link of an e-mail (`POST /u/<token>`): only that route records it. `system` is the
 * platform's own withdrawal when a consent's retention period ends (decision 022): nobody records it by hand.
 */
export const RECORDABLE_CONSENT_CHANNELS = ['counter', 'app', 'web', 'import', 'back-office'] as const satisfies readonly ConsentChannel[];
export const recordableConsentChannelSchema = z.enum(RECORDABLE_CONSENT_CHANNELS);
export type RecordableConsentChannel = z.infer<typeof recordableConsentChannelSchema>;

/**
 * Notice versions that are markers, not a privacy notice's version: an erasure overwrites every record's
 * with `erased` (decision 021); the retention purge's withdrawals carry `retention` (decision 022).
 */
export const ERASED_NOTICE = 'erased';
export const RETENTION_NOTICE = 'retention';

/** The current state of one purpose: its latest record, or null when none was ever recorded. */
export const consentStateSchema = z
  .object({
    granted: z.boolean(),
    at: z.iso.datetime({ offset: true }),
    channel: consentChannelSchema,
    noticeVersion: z.string(),
  })
  .nullable();

export const customerSchema = z.object({
  id: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  /** `yyyy-mm-dd` (a calendar date, no time zone). */
  birthDate: z.iso.date().nullable(),
  city: z.string().nullable(),
  province: z.string().nullable(),
  /** What we write to the customer in: service e-mails, campaigns, the `/u/<token>` page. */
  language: z.enum(LANGUAGES),
  /** 13 digits issued by us: a fixed prefix, 9 random digits (a counter on older cards) and a Luhn check digit. */
  cardNumber: z.string(),
  referralCode: z.string(),
  /** The id of the customer who referred this one. */
  referredBy: z.uuid().nullable(),
  status: customerStatusSchema,
  consents: z.object({ service: consentStateSchema, marketing: consentStateSchema, profiling: consentStateSchema }),
  version: z.number().int(),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
});
export type Customer = z.infer<typeof customerSchema>;

export const CUSTOMER_SORT_FIELDS = ['name', 'lastName', 'firstName', 'email', 'city', 'cardNumber', 'status', 'createdAt', 'updatedAt'] as const;

export const listCustomersQuerySchema = listQuerySchema({
  sort: CUSTOMER_SORT_FIELDS,
  defaultSort: 'name',
  defaultOrder: 'asc',
  filters: {
    status: customerStatusSchema.optional(),
    /** Customers with a membership in this program. */
    programId: z.uuid().optional(),
    /** Customers whose membership (in `programId` when given) has this tier. */
    tier: z.string().trim().min(1).max(50).optional(),
    /** The current marketing consent. */
    marketingConsent: queryBooleanSchema.optional(),
    /**
     * Registered (with `programId`: joined that program) between these instants, inclusive to the
     * millisecond: the dashboard's "new" and "total" customers link here (decision 032).
     */
    joinedFrom: z.iso.datetime({ offset: true }).optional(),
    joinedTo: z.iso.datetime({ offset: true }).optional(),
    /**
     * With at least one movement of their own (not an expiry or an automatic bonus; with `programId`:
     * in that program) between these instants: the dashboard's "active customers".
     */
    activeFrom: z.iso.datetime({ offset: true }).optional(),
    activeTo: z.iso.datetime({ offset: true }).optional(),
    /** `false`: every customer but the erased ones (the dashboard's customer totals leave them out). */
    erased: queryBooleanSchema.optional(),
  },
});
export type ListCustomersQuery = z.infer<typeof listCustomersQuerySchema>;
export const exportCustomersQuerySchema = exportQuerySchema(listCustomersQuerySchema);
export const customerPageSchema = listPageSchema(customerSchema);

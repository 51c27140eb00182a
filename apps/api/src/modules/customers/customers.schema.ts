import { sql } from 'drizzle-orm';
import { bigserial, boolean, date, index, integer, pgTable, text, timestamp, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Language } from '@sf/contract/app-info';
import type { ConsentChannel, ConsentPurpose, CustomerStatus } from '@sf/contract/customers';

/**
 * Clienti. Unique and expression indexes (lower(email), name sort, prefix and trigram search) live in
 * migration 0002 (hand-written SQL).
 */
export const customers = pgTable('customers', {
  id: uuid().primaryKey().defaultRandom(),
  firstName: text().notNull(),
  lastName: text().notNull(),
  /** Stored lower-cased; unique when present. */
  email: text(),
  /** E.164. */
  phone: text(),
  birthDate: date({ mode: 'string' }),
  city: text(),
  province: text(),
  /** What we write to the customer in (e-mails, the /u/<token> page); Italian unless they said otherwise (0028). */
  language: text().$type<Language>().notNull().default('it'),
  cardNumber: text().notNull(),
  referralCode: text().notNull(),
  referredBy: uuid().references((): AnyPgColumn => customers.id, { onDelete: 'set null' }),
  status: text().$type<CustomerStatus>().notNull().default('active'),
  /**
   * The current consent per purpose, kept in step with the latest customer_consents record in the
   * same transaction: the list filters on it without reading the history.
   */
  serviceConsent: boolean().notNull().default(false),
  marketingConsent: boolean().notNull().default(false),
  profilingConsent: boolean().notNull().default(false),
  /** Lower-cased name, e-mail, phone, card number and referral code: what `q` searches (trigram index). */
  searchText: text().generatedAlwaysAs(
    sql`lower(first_name || ' ' || last_name || ' ' || coalesce(email, '') || ' ' || coalesce(phone, '') || ' ' || card_number || ' ' || referral_code)`,
  ),
  /**
   * The list's sort keys, lower-cased in plain columns so that a page's ids come from an index alone
   * (migration 0010); NULL for an empty name (an erased customer), which the list sorts last (0026).
   */
  lastNameKey: text().generatedAlwaysAs(sql`nullif(lower(last_name), '')`),
  firstNameKey: text().generatedAlwaysAs(sql`nullif(lower(first_name), '')`),
  /** Raised to replace the card's presence code (decision record 030): the code is derived from it. */
  cardCodeVersion: integer().notNull().default(1),
  version: integer().notNull().default(1),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** Every grant and withdrawal of a consent (Garante, 24 Feb 2005): the latest per purpose is the state. */
export const customerConsents = pgTable(
  'customer_consents',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    customerId: uuid()
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    purpose: text().$type<ConsentPurpose>().notNull(),
    granted: boolean().notNull(),
    channel: text().$type<ConsentChannel>().notNull(),
    noticeVersion: text().notNull(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** The staff member who recorded it (null: the customer, through the app or an import). */
    recordedBy: uuid(),
  },
  (t) => [index('customer_consents_customer_idx').on(t.customerId, t.purpose, t.at)],
);

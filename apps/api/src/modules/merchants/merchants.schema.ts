import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { MerchantCategory, MerchantStatus } from '@sf/contract/merchants';

/** Esercenti. CHECK constraints and expression indexes live in migration 0002 (hand-written SQL). */
export const merchants = pgTable(
  'merchants',
  {
    id: uuid().primaryKey().defaultRandom(),
    legalName: text().notNull(),
    signName: text(),
    vatNumber: text().notNull(),
    taxCode: text(),
    sdiCode: text(),
    pec: text(),
    category: text().$type<MerchantCategory>().notNull(),
    street: text().notNull(),
    city: text().notNull(),
    province: text().notNull(),
    postalCode: text().notNull(),
    phone: text(),
    email: text(),
    website: text(),
    social: jsonb().$type<Record<string, string>>().notNull().default({}),
    status: text().$type<MerchantStatus>().notNull().default('active'),
    version: integer().notNull().default(1),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('merchants_vat_number_idx').on(t.vatNumber), index('merchants_status_idx').on(t.status)],
);

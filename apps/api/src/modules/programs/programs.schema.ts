import { index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { Bonuses, ExpiryPolicy, ProgramStatus, ProgramType, Tier } from '@sf/contract/programs';
import { merchants } from '../merchants/merchants.schema.ts';

/** Programmi fedeltà. CHECK constraints live in migration 0002 (hand-written SQL). */
export const programs = pgTable('programs', {
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull(),
  type: text().$type<ProgramType>().notNull(),
  status: text().$type<ProgramStatus>().notNull().default('draft'),
  /** A decimal: 1.5 points per euro. */
  pointsPerEuro: numeric({ precision: 8, scale: 2, mode: 'number' }),
  minSpendCents: integer(),
  stampsRequired: integer(),
  maxStampsPerDay: integer(),
  maxStampsPerTransaction: integer(),
  tiers: jsonb().$type<Tier[]>().notNull().default([]),
  tierWindow: text().$type<'rolling12' | 'calendarYear'>().notNull().default('rolling12'),
  expiryPolicy: text().$type<ExpiryPolicy>().notNull().default('never'),
  expiryDays: integer(),
  bonuses: jsonb().$type<Bonuses>().notNull(),
  /** The wallet pass's and card page's look (migration 0024). */
  walletBackgroundColor: text(),
  walletForegroundColor: text(),
  walletLogo: text(),
  terms: text(),
  version: integer().notNull().default(1),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** The merchants of a program: one, or the circuit's several. */
export const programMerchants = pgTable(
  'program_merchants',
  {
    programId: uuid()
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    merchantId: uuid()
      .notNull()
      .references(() => merchants.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.programId, t.merchantId] }), index('program_merchants_merchant_idx').on(t.merchantId)],
);

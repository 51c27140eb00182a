import { bigint, bigserial, date, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { RewardStatus } from '@sf/contract/rewards';

/**
 * Premi and their vouchers (migration 0005_rewards.sql is the source of truth: the CHECKs that keep
 * stock non-negative and a used voucher complete, the unique code, the foreign keys).
 */
export const rewards = pgTable('rewards', {
  id: uuid().primaryKey().defaultRandom(),
  programId: uuid().notNull(),
  name: text().notNull(),
  description: text().notNull().default(''),
  imageId: text(),
  /** In the program's unit: points, or stamps for a stamp card. */
  cost: integer().notNull(),
  /** Redemptions left; null = unlimited. */
  stock: integer(),
  /**
   * What staff made available: the stock they set plus the redemptions already counted then, so that
   * stock = stockTotal - vouchers issued by a redemption and not void (migration 0023; ledger:verify).
   */
  stockTotal: integer(),
  /** The first and the last business day of the window (BUSINESS_TIME_ZONE), both included: migration 0021. */
  validFrom: date({ mode: 'string' }),
  validUntil: date({ mode: 'string' }),
  limitPerCustomer: integer(),
  status: text().$type<RewardStatus>().notNull().default('draft'),
  version: integer().notNull().default(1),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** Stored states; `expired` is derived from the reward's window. */
export type StoredVoucherStatus = 'available' | 'issued' | 'used' | 'void';

export const vouchers = pgTable('vouchers', {
  id: bigserial({ mode: 'number' }).primaryKey(),
  rewardId: uuid().notNull(),
  code: text().notNull(),
  origin: text().$type<'generated' | 'imported' | 'redemption'>().notNull(),
  status: text().$type<StoredVoucherStatus>().notNull().default('available'),
  customerId: uuid(),
  entryId: bigint({ mode: 'number' }),
  issuedAt: timestamp({ withTimezone: true }),
  usedAt: timestamp({ withTimezone: true }),
  usedMerchantId: uuid(),
  usedByLabel: text(),
  voidedAt: timestamp({ withTimezone: true }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

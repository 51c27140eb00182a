import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { ApiKeyKind, ApiKeyScope } from '@sf/contract/integration';

/** Keys of the integration API (migration 0006_integration.sql is the source of truth: CHECKs, FKs). */
export const apiKeys = pgTable('api_keys', {
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull(),
  kind: text().$type<ApiKeyKind>().notNull(),
  merchantId: uuid(),
  scopes: text().array().$type<ApiKeyScope[]>().notNull(),
  /** HMAC-SHA-256 of the secret under the server's pepper (docs/security.md). */
  secretHash: text().notNull(),
  prefix: text().notNull(),
  createdBy: uuid(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  lastUsedAt: timestamp({ withTimezone: true }),
  revokedAt: timestamp({ withTimezone: true }),
});

/** One row per automatic bonus decided (referral per referee, birthday per customer/program/year). */
export const bonusAwards = pgTable('bonus_awards', {
  awardKey: text().primaryKey(),
  kind: text().$type<'referral' | 'birthday'>().notNull(),
  customerId: uuid().notNull(),
  programId: uuid().notNull(),
  points: integer().notNull(),
  note: text(),
  awardedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

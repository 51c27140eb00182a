import { bigserial, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { PrivacyRequestKind, PrivacyRequestStatus, ProcessingBlockKind } from '@sf/contract/privacy';

/**
 * GDPR requests (Richieste privacy) and the processing blocks that restriction and objection put in
 * force. Migration 0008_privacy_import.sql is the source of truth (CHECKs, indexes, foreign keys).
 */
export const privacyRequests = pgTable('privacy_requests', {
  id: uuid().primaryKey().defaultRandom(),
  kind: text().$type<PrivacyRequestKind>().notNull(),
  customerId: uuid().notNull(),
  receivedAt: timestamp({ withTimezone: true }).notNull(),
  dueAt: timestamp({ withTimezone: true }).notNull(),
  extensionReason: text(),
  extendedAt: timestamp({ withTimezone: true }),
  status: text().$type<PrivacyRequestStatus>().notNull().default('open'),
  notes: text(),
  handledBy: uuid(),
  handledAt: timestamp({ withTimezone: true }),
  outcome: jsonb().$type<Record<string, unknown>[]>().notNull().default([]),
  createdBy: uuid(),
  version: integer().notNull().default(1),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** In force while lifted_at is null: no marketing or profiling consent may be granted. */
export const customerProcessingBlocks = pgTable('customer_processing_blocks', {
  id: bigserial({ mode: 'number' }).primaryKey(),
  customerId: uuid().notNull(),
  kind: text().$type<ProcessingBlockKind>().notNull(),
  requestId: uuid(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  createdBy: uuid(),
  liftedAt: timestamp({ withTimezone: true }),
  liftedBy: uuid(),
  liftReason: text(),
});

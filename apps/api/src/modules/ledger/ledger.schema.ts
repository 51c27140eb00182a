import { bigint, bigserial, date, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { IntegrityFigure } from '@sf/contract/integrity';
import type { LedgerKind, LedgerSource } from '@sf/contract/ledger';

/**
 * The ledger's tables (migration 0003_ledger.sql is the source of truth: CHECKs, the append-only
 * trigger, partial indexes and foreign keys to customers/programs/merchants live there).
 */
export const memberships = pgTable('memberships', {
  id: uuid().primaryKey().defaultRandom(),
  customerId: uuid().notNull(),
  programId: uuid().notNull(),
  balance: integer().notNull().default(0),
  stamps: integer().notNull().default(0),
  tier: text(),
  tierFloor: text(),
  joinedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  lastActivityAt: timestamp({ withTimezone: true }),
  version: integer().notNull().default(1),
});

export const ledgerEntries = pgTable('ledger_entries', {
  id: bigserial({ mode: 'number' }).primaryKey(),
  membershipId: uuid().notNull(),
  customerId: uuid().notNull(),
  programId: uuid().notNull(),
  merchantId: uuid(),
  kind: text().$type<LedgerKind>().notNull(),
  source: text().$type<LedgerSource>().notNull(),
  points: integer().notNull().default(0),
  stamps: integer().notNull().default(0),
  amountCents: integer(),
  reason: text(),
  reversesId: bigint({ mode: 'number' }),
  balanceAfter: integer().notNull(),
  stampsAfter: integer().notNull(),
  expiresOn: date({ mode: 'string' }),
  idempotencyKey: text(),
  createdBy: uuid(),
  createdByLabel: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const ledgerLots = pgTable('ledger_lots', {
  id: bigserial({ mode: 'number' }).primaryKey(),
  entryId: bigint({ mode: 'number' }).notNull(),
  membershipId: uuid().notNull(),
  points: integer().notNull(),
  remaining: integer().notNull(),
  expiresOn: date({ mode: 'string' }),
});

export const ledgerLotTakes = pgTable(
  'ledger_lot_takes',
  {
    entryId: bigint({ mode: 'number' }).notNull(),
    lotId: bigint({ mode: 'number' }).notNull(),
    points: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.entryId, t.lotId] })],
);

/**
 * What the latest nightly check (`ledger.verify` job) found wrong, one row per kind of figure, kept
 * until a check finds it right again (migration 0023): the dashboard's "Integrità dei dati" notice.
 */
export const ledgerIntegrityFindings = pgTable('ledger_integrity_findings', {
  figure: text().$type<IntegrityFigure>().primaryKey(),
  firstSeenAt: timestamp({ withTimezone: true }).notNull(),
  lastSeenAt: timestamp({ withTimezone: true }).notNull(),
  problems: integer().notNull(),
  examples: jsonb().$type<string[]>().notNull(),
});

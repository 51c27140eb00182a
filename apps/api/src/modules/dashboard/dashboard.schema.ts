import { bigint, boolean, date, pgTable, smallint, text, unique, uuid } from 'drizzle-orm/pg-core';

/**
 * The dashboard's rollups (migrations 0007_dashboard.sql, 0016_dashboard_rollup_stripes.sql and
 * 0023_derived_figures.sql are the source of truth: the triggers that keep them equal to the ledger
 * live there; decision record 019).
 * Every row carries a `stripe` (the writer's backend, modulo 16) so that concurrent writers do not
 * queue on one row: a figure is always the SUM over its stripes.
 */
export const dashboardRollupSettings = pgTable('dashboard_rollup_settings', {
  id: boolean().primaryKey().default(true),
  timeZone: text().notNull(),
});

export const dashboardRollups = pgTable(
  'dashboard_rollups',
  {
    day: date({ mode: 'string' }).notNull(),
    programId: uuid().notNull(),
    merchantId: uuid(),
    bucket: text().notNull(),
    entries: bigint({ mode: 'number' }).notNull(),
    points: bigint({ mode: 'number' }).notNull(),
    stamps: bigint({ mode: 'number' }).notNull(),
    amountCents: bigint({ mode: 'number' }).notNull(),
    stripe: smallint().notNull().default(0),
  },
  (t) => [unique('dashboard_rollups_key').on(t.day, t.programId, t.merchantId, t.bucket, t.stripe).nullsNotDistinct()],
);

export const dashboardCustomerRollups = pgTable(
  'dashboard_customer_rollups',
  {
    day: date({ mode: 'string' }).notNull(),
    programId: uuid(),
    customers: bigint({ mode: 'number' }).notNull(),
    stripe: smallint().notNull().default(0),
  },
  (t) => [unique('dashboard_customer_rollups_key').on(t.day, t.programId, t.stripe).nullsNotDistinct()],
);

export const dashboardMemberRollups = pgTable(
  'dashboard_member_rollups',
  {
    programId: uuid().notNull(),
    tier: text(),
    members: bigint({ mode: 'number' }).notNull(),
    stripe: smallint().notNull().default(0),
  },
  (t) => [unique('dashboard_member_rollups_key').on(t.programId, t.tier, t.stripe).nullsNotDistinct()],
);

/**
 * Distinct active customers (migration 0023): per scope (a customer across programs, program_id NULL;
 * or a membership, its program) one count per activity day and the scope's previous activity day.
 */
export const dashboardActiveRollups = pgTable(
  'dashboard_active_rollups',
  {
    day: date({ mode: 'string' }).notNull(),
    prevDay: date({ mode: 'string' }),
    programId: uuid(),
    customers: bigint({ mode: 'number' }).notNull(),
    stripe: smallint().notNull().default(0),
  },
  (t) => [unique('dashboard_active_rollups_key').on(t.programId, t.day, t.prevDay, t.stripe).nullsNotDistinct()],
);

import { bigint, boolean, date, pgTable, smallint, text, unique, uuid } from 'drizzle-orm/pg-core';

/**
 * The dashboard's rollups (migrations 0007_dashboard.sql and 0016_dashboard_rollup_stripes.sql are the
 * source of truth: the triggers that keep them equal to the ledger live there; decision record 019).
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

export const dashboardActivityRollups = pgTable(
  'dashboard_activity_rollups',
  {
    day: date({ mode: 'string' }).notNull(),
    programId: uuid().notNull(),
    members: bigint({ mode: 'number' }).notNull(),
    stripe: smallint().notNull().default(0),
  },
  (t) => [unique('dashboard_activity_rollups_key').on(t.day, t.programId, t.stripe)],
);

import { bigint, boolean, date, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { CsvDialect, ImportKind, ImportReport, ImportStatus } from '@sf/contract/imports';

/**
 * CSV imports (Importazioni). Migration 0008_privacy_import.sql is the source of truth. The file
 * itself lives under DATA_DIR/imports/<stored_name> until the import ends.
 */
export const imports = pgTable('imports', {
  id: uuid().primaryKey().defaultRandom(),
  kind: text().$type<ImportKind>().notNull(),
  status: text().$type<ImportStatus>().notNull().default('validated'),
  fileName: text().notNull(),
  storedName: text().notNull(),
  sizeBytes: integer().notNull(),
  dialect: jsonb().$type<CsvDialect>().notNull(),
  mapping: jsonb().$type<Record<string, string>>().notNull(),
  options: jsonb().$type<Record<string, unknown>>().notNull().default({}),
  totalRows: integer().notNull().default(0),
  validRows: integer().notNull().default(0),
  errorRows: integer().notNull().default(0),
  /** The last data row whose batch committed: a resumed job starts after it. */
  processedRows: integer().notNull().default(0),
  /** The byte where the row after processedRows starts (0: unknown, read from the top). */
  processedBytes: bigint({ mode: 'number' }).notNull().default(0),
  /** The file's line that byte ends (0: unknown, counted from the file): rows are reported by their line. */
  processedLines: integer().notNull().default(0),
  importedRows: integer().notNull().default(0),
  /** The dry run staged the checked rows (import_staged_customers): the job inserts from there. */
  staged: boolean().notNull().default(false),
  skippedRows: integer().notNull().default(0),
  report: jsonb().$type<ImportReport>(),
  createdBy: uuid(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  startedAt: timestamp({ withTimezone: true }),
  finishedAt: timestamp({ withTimezone: true }),
  cancelledAt: timestamp({ withTimezone: true }),
  version: integer().notNull().default(1),
});

export const importRowErrors = pgTable(
  'import_row_errors',
  {
    importId: uuid().notNull(),
    rowNumber: integer().notNull(),
    columnName: text().notNull(),
    code: text().notNull(),
    params: jsonb().$type<Record<string, string | number>>().notNull().default({}),
  },
  (t) => [primaryKey({ columns: [t.importId, t.rowNumber, t.columnName] })],
);

/** One (import, row) pair, ever: the guard that keeps a resumed import from importing a row twice. */
export const importRows = pgTable(
  'import_rows',
  {
    importId: uuid().notNull(),
    rowNumber: integer().notNull(),
    entityId: text(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.rowNumber] })],
);

/**
 * The dry run's checked, normalised customer rows (0014_import_staging.sql), deleted as the job claims
 * them: what is left is what is still to import.
 */
export const importStagedCustomers = pgTable(
  'import_staged_customers',
  {
    importId: uuid().notNull(),
    rowNumber: integer().notNull(),
    /** The row's line in the file, as a report names it (null: staged before migration 0030). */
    lineNumber: integer(),
    firstName: text().notNull(),
    lastName: text().notNull(),
    email: text(),
    phone: text(),
    birthDate: date(),
    city: text(),
    province: text(),
    language: text().notNull().default('it'),
    referralCode: text().notNull(),
    referredBy: uuid(),
    service: boolean(),
    marketing: boolean(),
    profiling: boolean(),
    noticeVersion: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.rowNumber] })],
);

import { asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { ListImportsQuery } from '@sf/contract/imports';
import type { Executor, Transaction } from '../../db/client.ts';
import { csvCell, type CsvColumns } from '../../db/csv-export.ts';
import { allOf, containsPattern, findPage, type ListDefinition } from '../../db/list.ts';
import { users } from '../../db/schema.ts';
import { importRowErrors, imports } from './imports.schema.ts';

export type ImportRow = typeof imports.$inferSelect;
export type ImportListRow = { import: ImportRow; createdByEmail: string | null };

type Rows = { rows: Record<string, unknown>[] };
export const rowsOf = async (executor: Executor, query: SQL) => ((await executor.execute(query)) as unknown as Rows).rows;

const importList: ListDefinition<ListImportsQuery['sort']> = {
  sorts: { createdAt: imports.createdAt, status: imports.status, kind: imports.kind, fileName: sql`lower(${imports.fileName})` },
  tieBreaker: imports.id,
};

export async function findImports(executor: Executor, query: ListImportsQuery) {
  const { page, pageSize, sort, order } = query;
  const { rows, total } = await findPage(
    executor,
    importList,
    (total) =>
      executor
        .select({ import: imports, createdByEmail: users.email, _total: total })
        .from(imports)
        .leftJoin(users, eq(users.id, imports.createdBy))
        .$dynamic(),
    allOf(
      query.q ? sql`lower(${imports.fileName}) like ${containsPattern(query.q.toLowerCase())}` : undefined,
      query.kind !== undefined && eq(imports.kind, query.kind),
      query.status !== undefined && eq(imports.status, query.status),
    ),
    { page, pageSize, sort, order },
  );
  return { rows: rows as ImportListRow[], total };
}

export async function findImport(executor: Executor, id: string, options: { forUpdate?: boolean } = {}) {
  const query = executor.select().from(imports).where(eq(imports.id, id));
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row;
}

export async function findImportWithCreator(executor: Executor, id: string): Promise<ImportListRow | undefined> {
  const [row] = await executor
    .select({ import: imports, createdByEmail: users.email })
    .from(imports)
    .leftJoin(users, eq(users.id, imports.createdBy))
    .where(eq(imports.id, id));
  return row;
}

export async function insertImport(executor: Executor, values: typeof imports.$inferInsert) {
  const [row] = await executor.insert(imports).values(values).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** An import refused while checked: its row errors and staged rows go with it (ON DELETE CASCADE). */
export async function deleteImport(executor: Executor, id: string) {
  await executor.delete(imports).where(eq(imports.id, id));
}

export async function updateImport(executor: Executor, id: string, values: Partial<typeof imports.$inferInsert>) {
  const [row] = await executor.update(imports).set(values).where(eq(imports.id, id)).returning();
  return row;
}

export type StoredRowError = { rowNumber: number; columnName: string; code: string; params?: Record<string, string | number> };

/** Row errors, once per (row, column): a resumed run or a second check does not repeat them. */
export async function insertRowErrors(executor: Executor, importId: string, errors: StoredRowError[]) {
  if (errors.length === 0) return;
  await executor
    .insert(importRowErrors)
    .values(errors.map((error) => ({ importId, rowNumber: error.rowNumber, columnName: error.columnName, code: error.code, params: error.params ?? {} })))
    .onConflictDoNothing();
}

export async function findRowErrors(executor: Executor, importId: string, limit: number) {
  return executor
    .select()
    .from(importRowErrors)
    .where(eq(importRowErrors.importId, importId))
    .orderBy(asc(importRowErrors.rowNumber), asc(importRowErrors.columnName))
    .limit(limit);
}

/** Existing e-mails among these (lower-cased). */
export async function existingEmails(executor: Executor, emails: string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows = await rowsOf(
    executor,
    sql`select lower(email) as email from customers where lower(email) in (select jsonb_array_elements_text(${JSON.stringify(emails)}::jsonb))`,
  );
  return new Set(rows.map((row) => String(row['email'])));
}

/** Referral code → customer id, for the codes that exist. */
export async function customersByReferralCode(executor: Executor, codes: string[]): Promise<Map<string, string>> {
  if (codes.length === 0) return new Map();
  const rows = await rowsOf(
    executor,
    sql`select referral_code, id from customers where referral_code in (select jsonb_array_elements_text(${JSON.stringify(codes)}::jsonb))`,
  );
  return new Map(rows.map((row) => [String(row['referral_code']), String(row['id'])]));
}

/** Card number or e-mail → customer id (active customers only: the ledger refuses the others). */
export async function customersByCardOrEmail(executor: Executor, cards: string[], emails: string[]) {
  const rows = await rowsOf(
    executor,
    sql`select id, card_number, lower(email) as email, status from customers
        where card_number in (select jsonb_array_elements_text(${JSON.stringify(cards)}::jsonb))
           or lower(email) in (select jsonb_array_elements_text(${JSON.stringify(emails)}::jsonb))`,
  );
  const byCard = new Map<string, { id: string; status: string }>();
  const byEmail = new Map<string, { id: string; status: string }>();
  for (const row of rows) {
    const value = { id: String(row['id']), status: String(row['status']) };
    byCard.set(String(row['card_number']), value);
    if (row['email']) byEmail.set(String(row['email']), value);
  }
  return { byCard, byEmail };
}

/** Programs by id and by lower-cased name. */
export async function programsByIdOrName(executor: Executor): Promise<Map<string, { id: string; status: string }>> {
  const rows = await rowsOf(executor, sql`select id, lower(name) as name, status from programs`);
  const map = new Map<string, { id: string; status: string }>();
  for (const row of rows) {
    const value = { id: String(row['id']), status: String(row['status']) };
    map.set(String(row['id']), value);
    map.set(String(row['name']), value);
  }
  return map;
}

/** Claims (import, row) pairs; answers the rows this call claimed (the others were imported before). */
export async function claimRows(executor: Executor, importId: string, claims: { rowNumber: number; entityId: string | null }[]): Promise<Set<number>> {
  if (claims.length === 0) return new Set();
  const rows = await rowsOf(
    executor,
    sql`insert into import_rows (import_id, row_number, entity_id)
        select ${importId}::uuid, r.row_number, r.entity_id
        from jsonb_to_recordset(${JSON.stringify(claims.map((c) => ({ row_number: c.rowNumber, entity_id: c.entityId })))}::jsonb)
          as r(row_number int, entity_id text)
        on conflict do nothing
        returning row_number`,
  );
  return new Set(rows.map((row) => Number(row['row_number'])));
}

export async function isRowClaimed(executor: Executor, importId: string, rowNumber: number): Promise<boolean> {
  const rows = await rowsOf(executor, sql`select 1 from import_rows where import_id = ${importId} and row_number = ${rowNumber}`);
  return rows.length > 0;
}

export async function unclaimEntities(executor: Executor, importId: string, rowNumbers: number[]) {
  if (rowNumbers.length === 0) return;
  await executor.execute(
    sql`update import_rows set entity_id = null
        where import_id = ${importId} and row_number in (select (jsonb_array_elements_text(${JSON.stringify(rowNumbers)}::jsonb))::int)`,
  );
}

export async function countImported(executor: Executor, importId: string): Promise<number> {
  const [row] = await rowsOf(executor, sql`select count(*)::int as n from import_rows where import_id = ${importId} and entity_id is not null`);
  return Number(row?.['n'] ?? 0);
}

export type CustomerInsert = {
  id: string;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  birth_date: string | null;
  city: string | null;
  province: string | null;
  language: string;
  card_number: string;
  referral_code: string;
  referred_by: string | null;
  service_consent: boolean;
  marketing_consent: boolean;
  profiling_consent: boolean;
};

/**
 * Many customers in one statement (jsonb_to_recordset: one parameter whatever the batch size, the
 * same on PostgreSQL and PGlite). A row that hits a unique index (an e-mail taken meanwhile, a
 * referral code drawn twice) is left out rather than failing the batch: answers the ids inserted.
 */
export async function insertCustomers(executor: Executor, rows: CustomerInsert[], now: Date): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const inserted = await rowsOf(
    executor,
    sql`insert into customers (id, first_name, last_name, email, phone, birth_date, city, province, card_number, referral_code,
          referred_by, service_consent, marketing_consent, profiling_consent, created_at, updated_at, language)
        select r.id, r.first_name, r.last_name, r.email, r.phone, r.birth_date, r.city, r.province, r.card_number, r.referral_code,
          r.referred_by, r.service_consent, r.marketing_consent, r.profiling_consent, ${now}, ${now}, coalesce(r.language, 'it')
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id uuid, first_name text, last_name text, email text, phone text,
          birth_date date, city text, province text, card_number text, referral_code text, referred_by uuid,
          service_consent boolean, marketing_consent boolean, profiling_consent boolean, language text)
        on conflict do nothing
        returning id`,
  );
  return new Set(inserted.map((row) => String(row['id'])));
}

export type CustomerBatchRow = CustomerInsert & {
  row_number: number;
  /** The file's line, as a report names the row (null: staged before migration 0030, named by row_number). */
  line_number: number | null;
  notice_version: string;
  /** The consents to record (null: the file says nothing about that purpose). */
  service: boolean | null;
  marketing: boolean | null;
  profiling: boolean | null;
};

/**
 * A batch of customers in ONE statement (data-modifying CTEs, one jsonb parameter): each row is
 * claimed in import_rows (a row claimed before, by this run or another, is not inserted), the
 * claimed rows are inserted (a row hitting a unique index — an e-mail taken meanwhile, a referral
 * code drawn twice — is left out, not failing the batch), and the consents of the inserted ones
 * recorded. Answers the row numbers claimed and the customer ids inserted.
 */
export async function claimAndInsertCustomers(
  executor: Executor,
  importId: string,
  rows: CustomerBatchRow[],
  now: Date,
): Promise<{ claimed: Set<number>; inserted: Set<string> }> {
  if (rows.length === 0) return { claimed: new Set(), inserted: new Set() };
  const [result] = await rowsOf(
    executor,
    sql`with input as (
          select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(row_number int, id uuid, first_name text, last_name text,
            email text, phone text, birth_date date, city text, province text, card_number text, referral_code text, referred_by uuid,
            service_consent boolean, marketing_consent boolean, profiling_consent boolean, notice_version text,
            service boolean, marketing boolean, profiling boolean, language text)
        ),
        claimed as (
          insert into import_rows (import_id, row_number, entity_id)
          select ${importId}::uuid, i.row_number, i.id::text from input i
          on conflict do nothing
          returning row_number
        ),
        inserted as (
          insert into customers (id, first_name, last_name, email, phone, birth_date, city, province, card_number, referral_code,
            referred_by, service_consent, marketing_consent, profiling_consent, created_at, updated_at, language)
          select i.id, i.first_name, i.last_name, i.email, i.phone, i.birth_date, i.city, i.province, i.card_number, i.referral_code,
            i.referred_by, i.service_consent, i.marketing_consent, i.profiling_consent, ${now}, ${now}, coalesce(i.language, 'it')
          from input i join claimed c on c.row_number = i.row_number
          order by i.row_number
          on conflict do nothing
          returning id
        ),
        consents as (
          insert into customer_consents (customer_id, purpose, granted, channel, notice_version, at, recorded_by)
          select i.id, p.purpose, p.granted, 'import', i.notice_version, ${now}, null
          from input i join inserted n on n.id = i.id
            cross join lateral (values (1, 'service', i.service), (2, 'marketing', i.marketing), (3, 'profiling', i.profiling)) as p(position, purpose, granted)
          where p.granted is not null
          order by i.row_number, p.position
        )
        select (select coalesce(jsonb_agg(row_number), '[]'::jsonb) from claimed) as claimed,
               (select coalesce(jsonb_agg(id), '[]'::jsonb) from inserted) as inserted`,
  );
  const claimed = (result?.['claimed'] ?? []) as number[];
  const inserted = (result?.['inserted'] ?? []) as string[];
  return { claimed: new Set(claimed.map(Number)), inserted: new Set(inserted.map(String)) };
}

export type ConsentInsert = { customer_id: string; purpose: string; granted: boolean; notice_version: string };

export async function insertConsents(executor: Executor, rows: ConsentInsert[], now: Date) {
  if (rows.length === 0) return;
  await executor.execute(
    sql`insert into customer_consents (customer_id, purpose, granted, channel, notice_version, at, recorded_by)
        select r.customer_id, r.purpose, r.granted, 'import', r.notice_version, ${now}, null
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(customer_id uuid, purpose text, granted boolean, notice_version text)`,
  );
}

export async function isStoredNameUsed(executor: Executor, storedName: string): Promise<boolean> {
  const [row] = await executor.select({ id: imports.id }).from(imports).where(eq(imports.storedName, storedName)).limit(1);
  return row !== undefined;
}

/** Rows with at least one error. */
export async function countErrorRows(executor: Executor, importId: string): Promise<number> {
  const [row] = await rowsOf(executor, sql`select count(distinct row_number)::int as n from import_row_errors where import_id = ${importId}`);
  return Number(row?.['n'] ?? 0);
}

/** A checked customer row as the dry run stages it (import_staged_customers). */
export type StagedCustomer = {
  row_number: number;
  /** The file's line, as a report names the row (null: staged before migration 0030). */
  line_number: number | null;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  birth_date: string | null;
  city: string | null;
  province: string | null;
  language: string;
  referral_code: string;
  /** Drawn with the referral code (customers' drawCardNumber): random, so not enumerable (decision 030). */
  card_number: string;
  referred_by: string | null;
  service: boolean | null;
  marketing: boolean | null;
  profiling: boolean | null;
  notice_version: string;
};

/** Stages a batch of checked rows in one statement (a row staged before is kept as it was). */
export async function stageCustomers(executor: Executor, importId: string, rows: StagedCustomer[]) {
  if (rows.length === 0) return;
  await executor.execute(
    sql`insert into import_staged_customers (import_id, row_number, line_number, first_name, last_name, email, phone, birth_date, city, province,
          referral_code, card_number, referred_by, service, marketing, profiling, notice_version, language)
        select ${importId}::uuid, r.row_number, r.line_number, r.first_name, r.last_name, r.email, r.phone, r.birth_date, r.city, r.province,
          r.referral_code, r.card_number, r.referred_by, r.service, r.marketing, r.profiling, r.notice_version, coalesce(r.language, 'it')
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(row_number int, line_number int, first_name text, last_name text, email text,
          phone text, birth_date date, city text, province text, referral_code text, card_number text, referred_by uuid, service boolean,
          marketing boolean, profiling boolean, notice_version text, language text)
        on conflict do nothing`,
  );
}

/** Staged rows of unfinished imports that are this person (see imports.service dropPersonFromPendingImports). */
export async function deleteStagedPerson(
  executor: Executor,
  person: { email: string | null; phone: string | null; firstName: string; lastName: string; birthDate: string | null },
): Promise<number> {
  const deleted = await rowsOf(
    executor,
    sql`delete from import_staged_customers s using imports i
        where i.id = s.import_id and i.status in ('validated', 'queued', 'running', 'failed')
          and ((${person.email}::text is not null and lower(s.email) = lower(${person.email}::text))
            or (${person.phone}::text is not null and s.phone = ${person.phone}::text)
            or (${person.birthDate}::date is not null and s.birth_date = ${person.birthDate}::date
                and lower(s.first_name) = lower(${person.firstName}) and lower(s.last_name) = lower(${person.lastName})))
        returning s.row_number`,
  );
  return deleted.length;
}

export async function deleteStaged(executor: Executor, importId: string) {
  await executor.execute(sql`delete from import_staged_customers where import_id = ${importId}`);
}

/**
 * The staged batch statements' shared parts (importStagedCustomers and its conflict-tolerant twin):
 * the batch taken out of the staging table, which is the rows' claim…
 */
const stagedBatch = (importId: string, range: { from: number; to: number }) =>
  sql`delete from import_staged_customers s
          where s.import_id = ${importId}::uuid and s.row_number between ${range.from} and ${range.to}
          returning s.*, gen_random_uuid() as id`;

/** …its customers, from the CTE `input`, in file order… */
const customersOfBatch = (now: Date) =>
  sql`insert into customers (id, first_name, last_name, email, phone, birth_date, city, province, card_number, referral_code,
            referred_by, service_consent, marketing_consent, profiling_consent, created_at, updated_at, language)
          select i.id, i.first_name, i.last_name, i.email, i.phone, i.birth_date, i.city, i.province,
            i.card_number, i.referral_code, i.referred_by,
            coalesce(i.service, false), coalesce(i.marketing, false), coalesce(i.profiling, false), ${now}, ${now}, i.language
          from input i
          order by i.row_number`;

/** …and their consents: this head, then `from input i …`, then `consentPurposes`. */
const consentsOfBatchHead = (now: Date) =>
  sql`insert into customer_consents (customer_id, purpose, granted, channel, notice_version, at, recorded_by)
          select i.id, p.purpose, p.granted, 'import', i.notice_version, ${now}, null`;

const consentPurposes = sql`cross join lateral (values (1, 'service', i.service), (2, 'marketing', i.marketing), (3, 'profiling', i.profiling)) as p(position, purpose, granted)
          where p.granted is not null
          order by i.row_number, p.position`;

/**
 * One batch of staged customers (rows `from`..`to` of the file) in ONE statement, set-based — no row
 * passes through the app: the staged rows are deleted, inserted into customers with the card numbers
 * the dry run drew, and their consents recorded. Deleting a staged row in the
 * transaction that inserts its customer is the row's claim: a row is staged once (primary key), so it
 * is imported at most once, and what is left staged is exactly what is still to import.
 *
 * The common case has no conflict, so this statement asks for none: a unique index refusing a row
 * (an e-mail taken since the check, a referral code or card number drawn twice) fails it with 23505 — run it under a
 * savepoint and fall back to importStagedCustomersLeavingOut. (ON CONFLICT DO NOTHING here would probe
 * every unique index of customers once more for every row.) Answers the customers inserted.
 */
export async function importStagedCustomers(
  executor: Executor,
  importId: string,
  range: { from: number; to: number },
  now: Date,
  options: { withIds?: boolean } = {},
): Promise<{ inserted: number; ids: string[] }> {
  // The new customers' ids only when asked (an import that enrols them in a program, decision 035).
  const ids = options.withIds ? sql`coalesce(jsonb_agg(id), '[]'::jsonb)` : sql`'[]'::jsonb`;
  const [result] = await rowsOf(
    executor,
    sql`with input as (${stagedBatch(importId, range)}),
        inserted as (
          ${customersOfBatch(now)}
          returning id
        ),
        consents as (
          ${consentsOfBatchHead(now)}
          from input i
            ${consentPurposes}
        )
        select count(*)::int as inserted, ${ids} as ids from inserted`,
  );
  return { inserted: Number(result?.['inserted'] ?? 0), ids: jsonArray(result?.['ids']) };
}

const jsonArray = (value: unknown): string[] => (typeof value === 'string' ? JSON.parse(value) : ((value ?? []) as string[]));

/**
 * importStagedCustomers for a batch where a unique index refused a row: the same statement, with
 * the refused rows left out (ON CONFLICT DO NOTHING) and answered whole for the caller to retry with
 * a fresh referral code and card number, or report.
 */
export async function importStagedCustomersLeavingOut(
  executor: Executor,
  importId: string,
  range: { from: number; to: number },
  now: Date,
): Promise<{ inserted: number; ids: string[]; leftOut: (StagedCustomer & { id: string })[] }> {
  // The planner cannot know how many rows a data-modifying CTE returns (it guesses 1) and would join
  // the batch's 10,000 rows to each other by nested loops (32 s a batch instead of 0.8 s): hash and
  // merge joins only, for the caller's transaction.
  await executor.execute(sql`set local enable_nestloop = off`);
  const [result] = await rowsOf(
    executor,
    sql`with input as (${stagedBatch(importId, range)}),
        inserted as (
          ${customersOfBatch(now)}
          on conflict do nothing
          returning id
        ),
        consents as (
          ${consentsOfBatchHead(now)}
          from input i join inserted n on n.id = i.id
            ${consentPurposes}
        )
        select (select count(*) from inserted)::int as inserted,
               (select coalesce(jsonb_agg(id), '[]'::jsonb) from inserted) as ids,
               (select coalesce(jsonb_agg(to_jsonb(i) - 'import_id' order by i.row_number), '[]'::jsonb)
                  from input i where not exists (select 1 from inserted n where n.id = i.id)) as left_out`,
  );
  return {
    inserted: Number(result?.['inserted'] ?? 0),
    ids: jsonArray(result?.['ids']),
    leftOut: (result?.['left_out'] ?? []) as (StagedCustomer & { id: string })[],
  };
}

/**
 * The errors CSV of an import: row, column and the message in the reader's language. The texts
 * depend on the code and the field: translated in SQL through a small lookup table (`texts`).
 */
export function rowErrorsExport(importId: string, texts: { t_column: string; t_code: string; t_text: string }[]) {
  const lookup = sql`jsonb_to_recordset(${JSON.stringify(texts)}::jsonb) as t(t_column text, t_code text, t_text text)`;
  const columns = {
    row: { header: { it: 'Riga', en: 'Row' }, value: csvCell.integer(importRowErrors.rowNumber) },
    column: { header: { it: 'Colonna', en: 'Column' }, value: csvCell.text(importRowErrors.columnName) },
    message: {
      header: { it: 'Errore', en: 'Error' },
      // Qualified by hand: drizzle writes a lone table's columns unqualified, and inside this
      // subquery an unqualified name would be the lookup's own.
      value: sql`coalesce((select t.t_text from ${lookup} where t.t_column = import_row_errors.column_name and t.t_code = import_row_errors.code limit 1), import_row_errors.code)`,
    },
  } satisfies CsvColumns;
  return {
    columns,
    query: (tx: Transaction) =>
      tx
        .select({ c0: columns.row.value.as('c0'), c1: columns.column.value.as('c1'), c2: columns.message.value.as('c2') })
        .from(importRowErrors)
        .where(eq(importRowErrors.importId, importId))
        .orderBy(importRowErrors.rowNumber, importRowErrors.columnName)
        .$dynamic(),
  };
}


/** For the audit list: these imports' file name and kind, by id. */
export async function findImportFiles(executor: Executor, ids: string[]): Promise<Map<string, { fileName: string; kind: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await executor.select({ id: imports.id, fileName: imports.fileName, kind: imports.kind }).from(imports).where(inArray(imports.id, ids));
  return new Map(rows.map(({ id, ...file }) => [id, file]));
}

import { and, eq, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Language } from '@sf/contract/app-info';
import type { ListPrivacyRequestsQuery } from '@sf/contract/privacy';
import type { Executor } from '../../db/client.ts';
import { allOf, everyWord, findPage, orderFor, type ListDefinition } from '../../db/list.ts';
import { csvCell, csvSelection, type CsvColumns } from '../../db/csv-export.ts';
import { VALUE_LABELS } from '@sf/contract/value-labels';
import { auditLog, users } from '../../db/schema.ts';
import { customers } from '../customers/customers.schema.ts';
import { customerProcessingBlocks, privacyRequests } from './privacy.schema.ts';

export type PrivacyRequestRow = typeof privacyRequests.$inferSelect;

/** A request with what the queue shows beside it: the customer's name and card, the handler's e-mail. */
export type PrivacyRequestListRow = {
  request: PrivacyRequestRow;
  customerFirstName: string;
  customerLastName: string;
  customerCardNumber: string;
  customerStatus: string;
  handledByEmail: string | null;
  isBlocked: boolean;
};

const blockedExpression = sql<boolean>`exists (select 1 from customer_processing_blocks b where b.customer_id = ${privacyRequests.customerId} and b.lifted_at is null)`;

const privacyList: ListDefinition<ListPrivacyRequestsQuery['sort']> = {
  sorts: {
    dueAt: privacyRequests.dueAt,
    receivedAt: privacyRequests.receivedAt,
    kind: privacyRequests.kind,
    status: privacyRequests.status,
    customer: [sql`lower(${customers.lastName})`, sql`lower(${customers.firstName})`],
  },
  tieBreaker: privacyRequests.id,
};

export type PrivacyFilter = Omit<ListPrivacyRequestsQuery, 'page' | 'pageSize' | 'sort' | 'order'>;

export function privacyConditions(filter: PrivacyFilter): SQL | undefined {
  return allOf(
    // The customers list's rule: each word, in any order ("Azzurri Giulia" as the list shows her).
    filter.q ? everyWord(filter.q, (pattern) => sql`${customers.searchText} like ${pattern}`) : undefined,
    filter.kind !== undefined && eq(privacyRequests.kind, filter.kind),
    filter.status !== undefined && eq(privacyRequests.status, filter.status),
    filter.isPending === true && inArray(privacyRequests.status, ['open', 'in_progress']),
    filter.isPending === false && inArray(privacyRequests.status, ['done', 'rejected']),
    filter.customerId !== undefined && eq(privacyRequests.customerId, filter.customerId),
  );
}

function listSelection() {
  return {
    request: privacyRequests,
    customerFirstName: customers.firstName,
    customerLastName: customers.lastName,
    customerCardNumber: customers.cardNumber,
    customerStatus: customers.status,
    handledByEmail: users.email,
    isBlocked: blockedExpression,
  };
}

function baseSelect(executor: Executor) {
  return executor
    .select(listSelection())
    .from(privacyRequests)
    .innerJoin(customers, eq(customers.id, privacyRequests.customerId))
    .leftJoin(users, eq(users.id, privacyRequests.handledBy));
}

export async function findPrivacyRequests(executor: Executor, query: ListPrivacyRequestsQuery) {
  const { page, pageSize, sort, order } = query;
  const { rows, total } = await findPage(
    executor,
    privacyList,
    (total) => {
      return executor
        .select({ ...listSelection(), _total: total })
        .from(privacyRequests)
        .innerJoin(customers, eq(customers.id, privacyRequests.customerId))
        .leftJoin(users, eq(users.id, privacyRequests.handledBy))
        .$dynamic();
    },
    privacyConditions(query),
    { page, pageSize, sort, order },
  );
  return { rows: rows as PrivacyRequestListRow[], total };
}

export async function findPrivacyRequest(executor: Executor, id: string, options: { forUpdate?: boolean } = {}) {
  if (options.forUpdate) {
    await executor.select({ id: privacyRequests.id }).from(privacyRequests).where(eq(privacyRequests.id, id)).for('update');
  }
  const [row] = await baseSelect(executor).where(eq(privacyRequests.id, id));
  return row as PrivacyRequestListRow | undefined;
}

export async function insertPrivacyRequest(executor: Executor, values: typeof privacyRequests.$inferInsert) {
  const [row] = await executor.insert(privacyRequests).values(values).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function updatePrivacyRequestRow(executor: Executor, id: string, values: Partial<typeof privacyRequests.$inferInsert>) {
  await executor.update(privacyRequests).set(values).where(eq(privacyRequests.id, id));
}

/** The customer's open requests but one (the erasure's own), locked, to close them. */
export async function openRequestsOf(executor: Executor, customerId: string, exceptId: string): Promise<PrivacyRequestRow[]> {
  return executor
    .select()
    .from(privacyRequests)
    .where(and(eq(privacyRequests.customerId, customerId), ne(privacyRequests.id, exceptId), inArray(privacyRequests.status, ['open', 'in_progress'])))
    .orderBy(privacyRequests.receivedAt, privacyRequests.id)
    .for('update');
}

export async function hasActiveBlock(executor: Executor, customerId: string): Promise<boolean> {
  const [row] = await executor
    .select({ id: customerProcessingBlocks.id })
    .from(customerProcessingBlocks)
    .where(and(eq(customerProcessingBlocks.customerId, customerId), isNull(customerProcessingBlocks.liftedAt)))
    .limit(1);
  return row !== undefined;
}

export async function insertBlock(executor: Executor, values: typeof customerProcessingBlocks.$inferInsert) {
  const [row] = await executor.insert(customerProcessingBlocks).values(values).returning();
  return row;
}

/** Lifts every block in force for the customer; answers how many were lifted. */
export async function liftBlocks(executor: Executor, customerId: string, values: { liftedAt: Date; liftedBy: string; liftReason: string }) {
  const rows = await executor
    .update(customerProcessingBlocks)
    .set(values)
    .where(and(eq(customerProcessingBlocks.customerId, customerId), isNull(customerProcessingBlocks.liftedAt)))
    .returning({ id: customerProcessingBlocks.id });
  return rows.length;
}

type Rows = { rows: Record<string, unknown>[] };
const rowsOf = async (executor: Executor, query: SQL) => ((await executor.execute(query)) as unknown as Rows).rows;

/**
 * Every (table, column) whose foreign key points at customers(id), read from the catalogue, so that
 * a table another module adds later (vouchers, social proofs …) is in the export without a change
 * here — directly, or through another table's customer column: a ledger entry's customer is part of
 * its key to the membership, `(membership_id, customer_id, program_id)` → memberships (migration
 * 0017), and the membership's customer_id points at customers(id). The customers table itself is left
 * out: its self-reference (referred_by) lists other people.
 */
export async function tablesReferencingCustomers(executor: Executor): Promise<{ table: string; column: string }[]> {
  const rows = await rowsOf(
    executor,
    sql`with recursive key_columns as (
          select c.conrelid as relid, key.attnum, c.confrelid as target_relid, key.target_attnum
          from pg_constraint c, unnest(c.conkey, c.confkey) as key(attnum, target_attnum)
          where c.contype = 'f'),
        customer_columns(relid, attnum) as (
          select k.relid, k.attnum from key_columns k
          join pg_attribute target on target.attrelid = k.target_relid and target.attnum = k.target_attnum
          where k.target_relid = 'customers'::regclass and target.attname = 'id'
          union
          select k.relid, k.attnum from key_columns k
          join customer_columns r on r.relid = k.target_relid and r.attnum = k.target_attnum)
        select r.relid::regclass::text as "table", a.attname as "column"
        from customer_columns r
        join pg_attribute a on a.attrelid = r.relid and a.attnum = r.attnum
        where r.relid <> 'customers'::regclass
        order by 1, 2`,
  );
  return rows.map((row) => ({ table: String(row['table']), column: String(row['column']) }));
}

/** A table's rows for the customer (identifiers come from the catalogue, and are quoted). */
export function rowsReferencing(executor: Executor, reference: { table: string; column: string }, customerId: string) {
  const table = reference.table.replace(/^"|"$/g, '');
  return rowsOf(executor, sql`select * from ${sql.identifier(table)} where ${sql.identifier(reference.column)} = ${customerId}`);
}

export async function customerRowAsStored(executor: Executor, customerId: string) {
  const [row] = await rowsOf(executor, sql`select * from customers where id = ${customerId}`);
  return row;
}

/**
 * The audit trail about the person: the customer's changes, consents and every read of their data
 * (B5), and the trail of their social proofs, screenshots, vouchers and privacy requests.
 */
export async function auditAbout(executor: Executor, customerId: string) {
  const records = await personalRecordIds(executor, customerId);
  const vouchers = (await rowsOf(executor, sql`select id::text as id from vouchers where customer_id = ${customerId}`)).map((row) => String(row['id']));
  const about = (entityType: string, ids: string[]) => (ids.length > 0 ? [and(eq(auditLog.entityType, entityType), inArray(auditLog.entityId, ids))] : []);
  return executor
    .select()
    .from(auditLog)
    .where(
      or(
        and(eq(auditLog.entityType, 'customer'), eq(auditLog.entityId, customerId)),
        ...about('social_proof', records.proofs),
        ...about('upload', records.uploads),
        ...about('voucher', vouchers),
        ...about('privacy_request', records.requests),
      ),
    )
    .orderBy(auditLog.at, auditLog.id);
}

/** The person's screenshots as stored (the files are at their `url`). */
export async function personalUploads(executor: Executor, customerId: string) {
  const rows = await rowsOf(
    executor,
    sql`select u.id, u.file_name, u.content_type, u.size, u.purpose, u.created_at from uploads u
        where u.id in (select image_id from social_proofs where customer_id = ${customerId} and image_id is not null) order by u.created_at, u.id`,
  );
  return rows.map((row) => ({ ...row, url: `/api/public/uploads/${encodeURIComponent(String(row['id']))}` }));
}

/**
 * Erasure (decision record 021): the person's own fields go, the row and its id stay (the ledger
 * points at it), with a new card number and referral code so that the printed card and the shared
 * code lead nowhere. The caller holds the customer's row lock.
 */
export async function anonymiseCustomer(
  executor: Executor,
  customerId: string,
  values: { cardNumber: string; referralCode: string; now: Date },
) {
  await executor
    .update(customers)
    .set({
      firstName: '',
      lastName: '',
      email: null,
      phone: null,
      birthDate: null,
      city: null,
      province: null,
      language: 'it',
      cardNumber: values.cardNumber,
      referralCode: values.referralCode,
      status: 'erased',
      serviceConsent: false,
      marketingConsent: false,
      profilingConsent: false,
      version: sql`${customers.version} + 1`,
      updatedAt: values.now,
    })
    .where(eq(customers.id, customerId));
}

/**
 * The consents' personal parts: which notice the person read and who recorded it. The purpose,
 * the yes/no and the date stay (anonymous counts of consent over time); a final withdrawal per
 * purpose makes the current state "none".
 */
export async function scrubConsents(executor: Executor, customerId: string, now: Date): Promise<number> {
  const scrubbed = await rowsOf(
    executor,
    sql`update customer_consents set notice_version = 'erased', recorded_by = null where customer_id = ${customerId} returning id`,
  );
  await executor.execute(
    sql`insert into customer_consents (customer_id, purpose, granted, channel, notice_version, at, recorded_by)
        select ${customerId}, purpose, false, 'back-office', 'erased', ${now}, null
        from (values ('service'), ('marketing'), ('profiling')) as p(purpose)`,
  );
  return scrubbed.length;
}

/**
 * The social-action proofs' personal parts: the link, the screenshot and the note (the decision, its
 * points and its ledger entry stay). Returns the screenshots' upload rows, deleted here: their files
 * go once the transaction has committed (removeStoredImages).
 */
export async function scrubSocialProofs(
  executor: Executor,
  customerId: string,
  now: Date,
): Promise<{ proofs: number; images: { id: string; contentType: string }[] }> {
  const images = await rowsOf(
    executor,
    // Only screenshots uploaded for a proof: an image with another purpose (a news cover a proof once
    // pointed at, issue 30 M3) belongs to someone else and stays.
    sql`select u.id, u.content_type from social_proofs p join uploads u on u.id = p.image_id
        where p.customer_id = ${customerId} and u.purpose = 'proof'`,
  );
  const proofs = await rowsOf(
    executor,
    sql`update social_proofs set url = null, image_id = null, note = null, erased_at = ${now}
        where customer_id = ${customerId} and erased_at is null returning id`,
  );
  const ids = images.map((row) => String(row['id']));
  if (ids.length > 0) await executor.execute(sql`delete from uploads where id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`);
  return { proofs: proofs.length, images: images.map((row) => ({ id: String(row['id']), contentType: String(row['content_type']) })) };
}

/** The ids of the person's records that other entity types' audit snapshots are about. */
export async function personalRecordIds(executor: Executor, customerId: string) {
  const [row] = await rowsOf(
    executor,
    sql`select
          (select coalesce(jsonb_agg(id::text), '[]'::jsonb) from social_proofs where customer_id = ${customerId}) as proofs,
          (select coalesce(jsonb_agg(image_id), '[]'::jsonb) from social_proofs where customer_id = ${customerId} and image_id is not null) as uploads,
          (select coalesce(jsonb_agg(id::text), '[]'::jsonb) from privacy_requests where customer_id = ${customerId}) as requests`,
  );
  const list = (value: unknown) => ((typeof value === 'string' ? JSON.parse(value) : value) ?? []) as string[];
  return { proofs: list(row?.['proofs']), uploads: list(row?.['uploads']), requests: list(row?.['requests']) };
}

const inList = (ids: string[]) => sql`(${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`;

/**
 * Snapshots of the person in audit records (before/after): the customer's own become
 * `{"erased":true}`, as do those of the person's social proofs (link, note) and screenshots (file
 * name); those of the person's privacy requests lose their free texts (notes, reasons) and keep kind,
 * status and dates — the accountability of the request. Who did what and when stays.
 */
export async function scrubAuditSnapshots(executor: Executor, customerId: string, records: { proofs: string[]; uploads: string[]; requests: string[] }): Promise<number> {
  const erasedEntities = [
    sql`(entity_type = 'customer' and entity_id = ${customerId})`,
    ...(records.proofs.length > 0 ? [sql`(entity_type = 'social_proof' and entity_id in ${inList(records.proofs)})`] : []),
    ...(records.uploads.length > 0 ? [sql`(entity_type = 'upload' and entity_id in ${inList(records.uploads)})`] : []),
  ];
  const erased = await rowsOf(
    executor,
    sql`update audit_log set before = case when before is null then null else '{"erased":true}'::jsonb end,
               after = case when after is null then null else '{"erased":true}'::jsonb end
        where (${sql.join(erasedEntities, sql` or `)})
          and (before is not null or after is not null) returning id`,
  );
  if (records.requests.length === 0) return erased.length;
  const texts = sql`array['notes', 'extensionReason', 'reason']`;
  const requests = await rowsOf(
    executor,
    sql`update audit_log set before = case when jsonb_typeof(before) = 'object' then before - ${texts} else before end,
               after = case when jsonb_typeof(after) = 'object' then after - ${texts} else after end
        where entity_type = 'privacy_request' and entity_id in ${inList(records.requests)}
          and (before ?| ${texts} or after ?| ${texts}) returning id`,
  );
  return erased.length + requests.length;
}

/** The person's privacy requests lose their free texts (notes, extension reason, reasons in their outcome). */
export async function scrubPrivacyRequests(executor: Executor, customerId: string): Promise<number> {
  const scrubbed = await rowsOf(
    executor,
    sql`update privacy_requests
        set notes = null,
            extension_reason = case when extension_reason is null then null else 'erased' end,
            outcome = (select coalesce(jsonb_agg(case when jsonb_typeof(e) = 'object' then e - 'reason' else e end), '[]'::jsonb)
                       from jsonb_array_elements(outcome) as e)
        where customer_id = ${customerId} returning id`,
  );
  return scrubbed.length;
}

export async function countLedgerEntries(executor: Executor, customerId: string): Promise<number> {
  const [row] = await rowsOf(executor, sql`select count(*)::int as n from ledger_entries where customer_id = ${customerId}`);
  return Number(row?.['n'] ?? 0);
}

export function privacyExportColumns(language: Language, timeZone: string): CsvColumns {
  return {
    kind: { header: { it: 'Tipo', en: 'Kind' }, value: csvCell.label(privacyRequests.kind, VALUE_LABELS.privacyKind, language) },
    // An erased customer's blanked name reads as the screen's "Cliente cancellato", not two empty cells.
    lastName: { header: { it: 'Cognome', en: 'Last name' }, value: csvCell.text(csvCell.customerName(customers.status, customers.lastName, language)) },
    firstName: { header: { it: 'Nome', en: 'First name' }, value: csvCell.text(customers.firstName) },
    cardNumber: { header: { it: 'Numero tessera', en: 'Card number' }, value: csvCell.text(customers.cardNumber) },
    receivedAt: { header: { it: 'Ricevuta il', en: 'Received' }, value: csvCell.dateTime(privacyRequests.receivedAt, timeZone) },
    dueAt: { header: { it: 'Scadenza', en: 'Due' }, value: csvCell.dateTime(privacyRequests.dueAt, timeZone) },
    extended: { header: { it: 'Proroga', en: 'Extended' }, value: csvCell.boolean(sql`${privacyRequests.extendedAt} is not null`, language) },
    status: { header: { it: 'Stato', en: 'Status' }, value: csvCell.label(privacyRequests.status, VALUE_LABELS.privacyStatus, language) },
    // As the queue names them: the staff member's name, their e-mail when they have none (staffNames).
    handledBy: { header: { it: 'Gestita da', en: 'Handled by' }, value: csvCell.text(sql`coalesce(nullif(btrim(${users.displayName}), ''), ${users.email})`) },
    handledAt: { header: { it: 'Gestita il', en: 'Handled at' }, value: csvCell.dateTime(privacyRequests.handledAt, timeZone) },
  };
}

export function privacyExportQuery(
  executor: Executor,
  columns: CsvColumns,
  filter: PrivacyFilter & Pick<ListPrivacyRequestsQuery, 'sort' | 'order'>,
) {
  return executor
    .select(csvSelection(columns))
    .from(privacyRequests)
    .innerJoin(customers, eq(customers.id, privacyRequests.customerId))
    .leftJoin(users, eq(users.id, privacyRequests.handledBy))
    .where(privacyConditions(filter))
    .orderBy(...orderFor(privacyList.sorts, filter.sort, filter.order, privacyList.tieBreaker))
    .$dynamic();
}

/** For the audit list: whose request of which kind, by id. */
export async function findRequestOwners(executor: Executor, ids: string[]): Promise<Map<string, { customerId: string; kind: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await executor.select({ id: privacyRequests.id, customerId: privacyRequests.customerId, kind: privacyRequests.kind }).from(privacyRequests).where(inArray(privacyRequests.id, ids));
  return new Map(rows.map(({ id, ...request }) => [id, request]));
}

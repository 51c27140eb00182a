import { and, desc, eq, gte, inArray, like, lt, sql, type SQL } from 'drizzle-orm';
import type { Language } from '@sf/contract/app-info';
import {
  isValidCardNumber,
  type ConsentPurpose,
  type ConsentRecord,
  type Customer,
  type ListCustomersQuery,
} from '@sf/contract/customers';
import { cardReferenceSchema, splitCardReference } from '@sf/contract/customer-cards';
import type { Executor } from '../../db/client.ts';
import { allOf, everyWord, findPage, orderFor, prefixPattern, type ListDefinition } from '../../db/list.ts';
import { csvCell, csvSelection, type CsvColumns } from '../../db/csv-export.ts';
import { VALUE_LABELS } from '@sf/contract/value-labels';
import { customerConsents, customers } from './customers.schema.ts';

export type CustomerRow = typeof customers.$inferSelect;
export type CustomerValues = Omit<typeof customers.$inferInsert, 'id' | 'searchText'>;
type ConsentRow = typeof customerConsents.$inferSelect;
type Consents = Customer['consents'];

const NO_CONSENTS: Consents = { service: null, marketing: null, profiling: null };

export function toCustomer(row: CustomerRow, consents: Consents = NO_CONSENTS): Customer {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phone: row.phone,
    birthDate: row.birthDate,
    city: row.city,
    province: row.province,
    language: row.language,
    cardNumber: row.cardNumber,
    referralCode: row.referralCode,
    referredBy: row.referredBy,
    status: row.status,
    consents,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toConsentRecord(row: ConsentRow): ConsentRecord {
  return {
    id: row.id,
    purpose: row.purpose,
    granted: row.granted,
    channel: row.channel,
    noticeVersion: row.noticeVersion,
    at: row.at.toISOString(),
    recordedBy: row.recordedBy,
  };
}

/**
 * A million customers: the count stops at 10,000 (the page says "10,000+"), so the first page costs
 * an index scan of 25 rows, not a count of the whole table.
 */
export const CUSTOMER_COUNT_CAP = 10_000;

export const customerList: ListDefinition<ListCustomersQuery['sort']> = {
  sorts: {
    // An erased customer's keys are NULL (no name): after everyone, A→Z and Z→A, each order read from
    // an index of its own (migration 0026).
    name: { expression: [customers.lastNameKey, customers.firstNameKey], nullsLast: true },
    lastName: { expression: [customers.lastNameKey, customers.firstNameKey], nullsLast: true },
    firstName: { expression: customers.firstNameKey, nullsLast: true },
    email: { expression: customers.email, nullsLast: true },
    city: { expression: sql`lower(${customers.city})`, nullsLast: true },
    cardNumber: customers.cardNumber,
    status: customers.status,
    createdAt: customers.createdAt,
    updatedAt: customers.updatedAt,
  },
  tieBreaker: customers.id,
  countCap: CUSTOMER_COUNT_CAP,
};

export type CustomerFilter = Omit<ListCustomersQuery, 'page' | 'pageSize' | 'sort' | 'order'>;

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * `q` matches name, e-mail, phone, card number and referral code (the generated search_text,
 * trigram-indexed), each of its words in any order. One or two characters cannot use trigrams: they match the start of the surname.
 * A phone typed with spaces ("347 123 4567") is searched without them. A card scanned at the counter
 * (a barcode reader types what the QR code or the barcode carries, `<number>-<code>`, decision 030)
 * finds its card: the code proves presence to a till, not to signed-in staff, so it is not checked.
 */
function searchCondition(q: string): { where: SQL; isWordSearch: boolean } {
  const text = q.toLowerCase().trim();
  const scanned = cardReferenceSchema.safeParse(text);
  if (scanned.success && scanned.data.includes('-')) {
    const { cardNumber } = splitCardReference(scanned.data);
    if (isValidCardNumber(cardNumber)) return { where: eq(customers.cardNumber, cardNumber), isWordSearch: false };
  }
  // Something shaped like an e-mail address matches addresses that start with it, from an index
  // (migration 0010), where the trigram index would intersect the huge posting lists of the trigrams
  // every address shares ("exa", "com"…): 78 ms on 300,000 customers.
  if (EMAIL_SHAPE.test(text)) return { where: like(customers.email, prefixPattern(text)), isWordSearch: false }; // stored lower-cased (check constraint)
  if (text.length < 3) return { where: surnameStartsWith(text), isWordSearch: false };
  const compact = /^[+\d\s./-]+$/.test(text) ? text.replace(/[\s./-]/g, '') : text;
  // A whole card number (our prefix, its check digit) is the card: its unique index answers at once,
  // where the trigram index reads the long posting lists of the digit trigrams every card shares
  // (107 ms on 1,000,000 customers).
  if (isValidCardNumber(compact)) return { where: eq(customers.cardNumber, compact), isWordSearch: false };
  // The list shows "Barbieri Alessandro", search_text reads "alessandro barbieri …": each word is
  // looked for on its own, and all must be found.
  return { where: everyWord(compact, (pattern) => like(customers.searchText, pattern))!, isWordSearch: true };
}

/**
 * A short search (one or two characters) is a surname prefix, on the stored lower-cased key that the
 * list sorts by (migration 0010): the page is then a range of that index read in order, 25 entries,
 * where a match on the expression lower(last_name) walked the name index from "a" filtering every row
 * (2.9 s for "Ro" on 1,000,000 customers). The explicit range lets the index bound its scan under any
 * collation (under "C", PostgreSQL derives it from LIKE itself); it is only added for plain letters,
 * whose order every collation agrees on, and LIKE still decides what matches.
 */
function surnameStartsWith(prefix: string): SQL {
  const matches = like(customers.lastNameKey, prefixPattern(prefix));
  if (!/^[a-z]+$/.test(prefix)) return matches;
  const upper = nextPrefix(prefix);
  return and(gte(customers.lastNameKey, prefix), upper === null ? undefined : lt(customers.lastNameKey, upper), matches)!;
}

/** The shortest string after every string that starts with `prefix` (letters a–z): "ro" → "rp", "rz" → "s". */
function nextPrefix(prefix: string): string | null {
  const trimmed = prefix.replace(/z+$/, '');
  if (trimmed === '') return null;
  return trimmed.slice(0, -1) + String.fromCharCode(trimmed.charCodeAt(trimmed.length - 1) + 1);
}

/** Inclusive instants to the millisecond, as the ledger list's (an instant's last microseconds included). */
function instantRange(column: SQL, from: string | undefined, to: string | undefined): SQL[] {
  return [
    ...(from ? [sql`${column} >= ${new Date(from)}`] : []),
    ...(to ? [sql`${column} < ${new Date(new Date(to).getTime() + 1)}`] : []),
  ];
}

/**
 * Program, tier and joined-the-program read the memberships (the ledger's table, migration 0003):
 * customers with a membership in the program, whose membership has the tier, joined in the period.
 */
function membershipCondition(filter: CustomerFilter): SQL | undefined {
  const joined = filter.programId === undefined ? [] : instantRange(sql`m.joined_at`, filter.joinedFrom, filter.joinedTo);
  if (filter.programId === undefined && filter.tier === undefined) return undefined;
  const conditions = [
    ...(filter.programId === undefined ? [] : [sql`m.program_id = ${filter.programId}`]),
    ...(filter.tier === undefined ? [] : [sql`m.tier = ${filter.tier}`]),
    ...joined,
  ];
  return sql`exists (select 1 from memberships m where m.customer_id = ${customers.id} and ${sql.join(conditions, sql` and `)})`;
}

/**
 * A movement of the customer's own in the period (in the program, when one is chosen): the ledger's
 * entries through the customer's index; what counts is the dashboard's definition (migration 0023).
 */
function activityCondition(filter: CustomerFilter): SQL | undefined {
  if (!filter.activeFrom && !filter.activeTo) return undefined;
  const conditions = [
    sql`e.customer_id = ${customers.id}`,
    sql`dashboard_counts_as_activity(e.kind, e.source)`,
    ...(filter.programId === undefined ? [] : [sql`e.program_id = ${filter.programId}`]),
    ...instantRange(sql`e.created_at`, filter.activeFrom, filter.activeTo),
  ];
  return sql`exists (select 1 from ledger_entries e where ${sql.join(conditions, sql` and `)})`;
}

export function customerConditions(filter: CustomerFilter): SQL | undefined {
  return allOf(
    filter.q ? searchCondition(filter.q).where : undefined,
    filter.status !== undefined && eq(customers.status, filter.status),
    filter.erased === false && sql`${customers.status} <> 'erased'`,
    filter.erased === true && eq(customers.status, 'erased'),
    filter.marketingConsent !== undefined && eq(customers.marketingConsent, filter.marketingConsent),
    ...(filter.programId === undefined ? instantRange(sql`${customers.createdAt}`, filter.joinedFrom, filter.joinedTo) : []),
    membershipCondition(filter),
    activityCondition(filter),
  );
}

/**
 * The list's order for a word search, by the same keys but written so that no index holds them: the
 * page is then the trigram index's matches, sorted. The planner cannot know that a word's matches may
 * all sit at one end of the name index: it takes them as spread evenly and walks the index expecting
 * the first 25 early. For a surname they are one block — the Valentinis at the index's end: 980,000
 * rows filtered, 0.4–1.5 s on 1,000,000 customers, where sorting their 20,000 matches takes tens of ms.
 */
const wordSearchList: ListDefinition<ListCustomersQuery['sort']> = {
  ...customerList,
  sorts: {
    ...customerList.sorts,
    name: { expression: [sql`(${customers.lastNameKey} || '')`, sql`(${customers.firstNameKey} || '')`], nullsLast: true },
    lastName: { expression: [sql`(${customers.lastNameKey} || '')`, sql`(${customers.firstNameKey} || '')`], nullsLast: true },
    firstName: { expression: sql`(${customers.firstNameKey} || '')`, nullsLast: true },
  },
};

/**
 * Up to this many matches (the planner's estimate), a word search's page is its matches sorted
 * (`wordSearchList`); beyond it, the name index walked in order, where a word found everywhere ("mar",
 * a first name: 50,000+ rows) finds its 25 rows within the first few thousand and sorting them all
 * would cost hundreds of ms. One surname, however common, stays below it (2 % of a million in the
 * benchmark's data, ~0.2 % in Italy's): a common word is spread through the alphabet, a surname is not.
 */
export const SORT_AFTER_SCAN_MAX_ROWS = 30_000;

/**
 * The rows the planner expects `where` to match: EXPLAIN plans and does not run, from the column's
 * statistics (a histogram of 1,001 search texts, migration 0031) — a millisecond or two.
 */
async function estimatedMatches(executor: Executor, where: SQL): Promise<number> {
  const result = await executor.execute(sql`explain (format json) select 1 from ${customers} where ${where}`);
  const [row] = result.rows as Record<string, unknown>[];
  const cell = row?.['QUERY PLAN'];
  const plan = (typeof cell === 'string' ? JSON.parse(cell) : cell) as [{ Plan: { 'Plan Rows': number } }];
  return plan[0].Plan['Plan Rows'];
}

/**
 * How a list's page is found: `sorted` (the search's matches, sorted: `wordSearchList`) for a search by
 * words expected to match at most SORT_AFTER_SCAN_MAX_ROWS; otherwise `index` (the sort's index read
 * in order, as without a search; a card, an e-mail or a surname's first letters are found at once).
 */
export async function customerListPlan(executor: Executor, query: ListCustomersQuery, where = customerConditions(query)): Promise<'sorted' | 'index'> {
  if (!query.q || !searchCondition(query.q).isWordSearch || where === undefined) return 'index';
  return (await estimatedMatches(executor, where)) <= SORT_AFTER_SCAN_MAX_ROWS ? 'sorted' : 'index';
}

export async function findCustomers(executor: Executor, query: ListCustomersQuery) {
  const { page, pageSize, sort, order } = query;
  const where = customerConditions(query);
  return findPage(
    executor,
    (await customerListPlan(executor, query, where)) === 'sorted' ? wordSearchList : customerList,
    (total) => executor.select({ customer: customers, _total: total }).from(customers).$dynamic(),
    where,
    { page, pageSize, sort, order },
    () => executor.select({ id: customers.id }).from(customers).$dynamic(),
  );
}

/** The current state per purpose (the latest record) for each of the customers. */
export async function currentConsents(executor: Executor, customerIds: string[]): Promise<Map<string, Consents>> {
  const states = new Map<string, Consents>();
  if (customerIds.length === 0) return states;
  const rows = await executor
    .selectDistinctOn([customerConsents.customerId, customerConsents.purpose])
    .from(customerConsents)
    .where(inArray(customerConsents.customerId, customerIds))
    .orderBy(customerConsents.customerId, customerConsents.purpose, desc(customerConsents.at), desc(customerConsents.id));
  for (const row of rows) {
    const state = states.get(row.customerId) ?? { ...NO_CONSENTS };
    state[row.purpose] = { granted: row.granted, at: row.at.toISOString(), channel: row.channel, noticeVersion: row.noticeVersion };
    states.set(row.customerId, state);
  }
  return states;
}

export async function consentHistory(executor: Executor, customerId: string): Promise<ConsentRecord[]> {
  const rows = await executor
    .select()
    .from(customerConsents)
    .where(eq(customerConsents.customerId, customerId))
    .orderBy(desc(customerConsents.at), desc(customerConsents.id));
  return rows.map(toConsentRecord);
}

export async function findCustomer(executor: Executor, id: string, options: { forUpdate?: boolean } = {}) {
  const query = executor.select().from(customers).where(eq(customers.id, id));
  const rows = options.forUpdate ? await query.for('update') : await query;
  return rows[0];
}

export async function findCustomerIdBy(
  executor: Executor,
  by: { email: string } | { referralCode: string },
): Promise<string | undefined> {
  const condition =
    'email' in by ? sql`lower(${customers.email}) = ${by.email.toLowerCase()}` : eq(customers.referralCode, by.referralCode);
  const [row] = await executor.select({ id: customers.id }).from(customers).where(condition).limit(1);
  return row?.id;
}

export async function isCardNumberTaken(executor: Executor, cardNumber: string): Promise<boolean> {
  const [row] = await executor.select({ id: customers.id }).from(customers).where(eq(customers.cardNumber, cardNumber)).limit(1);
  return row !== undefined;
}

/** A card's holder and code version (one unique-index look-up). */
export async function findCardHolderRow(executor: Executor, cardNumber: string) {
  const [row] = await executor
    .select({
      id: customers.id,
      firstName: customers.firstName,
      lastName: customers.lastName,
      status: customers.status,
      cardCodeVersion: customers.cardCodeVersion,
    })
    .from(customers)
    .where(eq(customers.cardNumber, cardNumber))
    .limit(1);
  return row;
}

/** A new card code: the version goes up (and the row's version, so an edit open elsewhere reloads). */
export async function bumpCardCodeVersion(executor: Executor, id: string, now: Date): Promise<CustomerRow> {
  const [row] = await executor
    .update(customers)
    .set({ cardCodeVersion: sql`${customers.cardCodeVersion} + 1`, version: sql`${customers.version} + 1`, updatedAt: now })
    .where(eq(customers.id, id))
    .returning();
  if (!row) throw new Error('update returned no row');
  return row;
}

export async function insertCustomer(executor: Executor, values: CustomerValues): Promise<CustomerRow> {
  const [row] = await executor.insert(customers).values(values).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function updateCustomerRow(executor: Executor, id: string, values: Partial<CustomerValues>): Promise<CustomerRow> {
  const [row] = await executor.update(customers).set(values).where(eq(customers.id, id)).returning();
  if (!row) throw new Error('update returned no row');
  return row;
}

const CONSENT_COLUMN = {
  service: 'serviceConsent',
  marketing: 'marketingConsent',
  profiling: 'profilingConsent',
} as const satisfies Record<ConsentPurpose, keyof CustomerValues>;

/** Records a grant or withdrawal and keeps the customer's current flag in step (same transaction). */
export async function insertConsent(
  executor: Executor,
  record: { customerId: string; purpose: ConsentPurpose; granted: boolean; channel: ConsentRow['channel']; noticeVersion: string; at: Date; recordedBy: string | null },
): Promise<ConsentRecord> {
  const [row] = await executor.insert(customerConsents).values(record).returning();
  if (!row) throw new Error('insert returned no row');
  await executor
    .update(customers)
    .set({ [CONSENT_COLUMN[record.purpose]]: record.granted })
    .where(and(eq(customers.id, record.customerId)));
  return toConsentRecord(row);
}

export function customerExportColumns(language: Language, timeZone: string): CsvColumns {
  return {
    cardNumber: { header: { it: 'Numero tessera', en: 'Card number' }, value: csvCell.text(customers.cardNumber) },
    // An erased customer's blanked name reads as the screen's "Cliente cancellato", not two empty cells.
    lastName: { header: { it: 'Cognome', en: 'Last name' }, value: csvCell.text(csvCell.customerName(customers.status, customers.lastName, language)) },
    firstName: { header: { it: 'Nome', en: 'First name' }, value: csvCell.text(customers.firstName) },
    email: { header: { it: 'Email', en: 'Email' }, value: csvCell.text(customers.email) },
    phone: { header: { it: 'Telefono', en: 'Phone' }, value: csvCell.text(customers.phone) },
    birthDate: { header: { it: 'Data di nascita', en: 'Birth date' }, value: csvCell.date(customers.birthDate) },
    city: { header: { it: 'Città', en: 'City' }, value: csvCell.text(customers.city) },
    province: { header: { it: 'Provincia', en: 'Province' }, value: csvCell.text(customers.province) },
    language: { header: { it: 'Lingua', en: 'Language' }, value: csvCell.label(customers.language, VALUE_LABELS.language, language) },
    referralCode: { header: { it: 'Codice invito', en: 'Referral code' }, value: csvCell.text(customers.referralCode) },
    status: { header: { it: 'Stato', en: 'Status' }, value: csvCell.label(customers.status, VALUE_LABELS.customerStatus, language) },
    serviceConsent: { header: { it: 'Consenso servizio', en: 'Service consent' }, value: csvCell.boolean(customers.serviceConsent, language) },
    marketingConsent: {
      header: { it: 'Consenso marketing', en: 'Marketing consent' },
      value: csvCell.boolean(customers.marketingConsent, language),
    },
    profilingConsent: {
      header: { it: 'Consenso profilazione', en: 'Profiling consent' },
      value: csvCell.boolean(customers.profilingConsent, language),
    },
    createdAt: { header: { it: 'Iscritto il', en: 'Joined at' }, value: csvCell.dateTime(customers.createdAt, timeZone) },
  };
}

export function customerExportQuery(executor: Executor, columns: CsvColumns, filter: CustomerFilter & Pick<ListCustomersQuery, 'sort' | 'order'>) {
  return executor
    .select(csvSelection(columns))
    .from(customers)
    .where(customerConditions(filter))
    .orderBy(...orderFor(customerList.sorts, filter.sort, filter.order, customerList.tieBreaker))
    .$dynamic();
}

/** The names of these customers (one query); an erased customer's is blanked, so it comes as null. */
export async function customerNamesByIds(executor: Executor, ids: string[]): Promise<Map<string, string | null>> {
  if (ids.length === 0) return new Map();
  const rows = await executor
    .select({ id: customers.id, firstName: customers.firstName, lastName: customers.lastName, status: customers.status })
    .from(customers)
    .where(inArray(customers.id, ids));
  return new Map(rows.map((row) => [row.id, row.status === 'erased' ? null : `${row.firstName} ${row.lastName}`.trim() || null]));
}

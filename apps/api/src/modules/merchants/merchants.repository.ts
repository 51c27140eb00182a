import { eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { ListMerchantsQuery, Merchant } from '@sf/contract/merchants';
import type { Language } from '@sf/contract/app-info';
import { VALUE_LABELS } from '@sf/contract/value-labels';
import type { Executor } from '../../db/client.ts';
import { allOf, containsPattern, findPage, orderFor, type ListDefinition } from '../../db/list.ts';
import { csvCell, csvSelection, type CsvColumns } from '../../db/csv-export.ts';
import { merchants } from './merchants.schema.ts';

export type MerchantRow = typeof merchants.$inferSelect;
export type MerchantValues = Omit<typeof merchants.$inferInsert, 'id' | 'createdAt'>;

export function toMerchant(row: MerchantRow): Merchant {
  return {
    id: row.id,
    legalName: row.legalName,
    signName: row.signName,
    vatNumber: row.vatNumber,
    taxCode: row.taxCode,
    sdiCode: row.sdiCode,
    pec: row.pec,
    category: row.category,
    address: { street: row.street, city: row.city, province: row.province, postalCode: row.postalCode },
    phone: row.phone,
    email: row.email,
    website: row.website,
    social: row.social,
    status: row.status,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export const merchantList: ListDefinition<ListMerchantsQuery['sort']> = {
  sorts: {
    legalName: sql`lower(${merchants.legalName})`,
    signName: sql`lower(coalesce(${merchants.signName}, ${merchants.legalName}))`,
    city: sql`lower(${merchants.city})`,
    province: merchants.province,
    category: merchants.category,
    status: merchants.status,
    createdAt: merchants.createdAt,
    updatedAt: merchants.updatedAt,
  },
  tieBreaker: merchants.id,
};

export type MerchantFilter = Omit<ListMerchantsQuery, 'page' | 'pageSize' | 'sort' | 'order'>;

export function merchantConditions(filter: MerchantFilter): SQL | undefined {
  const pattern = filter.q ? containsPattern(filter.q) : undefined;
  return allOf(
    pattern !== undefined &&
      or(
        ilike(merchants.legalName, pattern),
        ilike(merchants.signName, pattern),
        ilike(merchants.vatNumber, pattern),
        ilike(merchants.city, pattern),
        ilike(merchants.email, pattern),
      ),
    filter.status !== undefined && eq(merchants.status, filter.status),
    filter.category !== undefined && eq(merchants.category, filter.category),
    filter.province !== undefined && eq(merchants.province, filter.province),
    filter.programId !== undefined &&
      sql`exists (select 1 from program_merchants pm where pm.merchant_id = ${merchants.id} and pm.program_id = ${filter.programId})`,
  );
}

export function findMerchants(executor: Executor, query: ListMerchantsQuery) {
  const { page, pageSize, sort, order } = query;
  return findPage(
    executor,
    merchantList,
    (total) => executor.select({ merchant: merchants, _total: total }).from(merchants).$dynamic(),
    merchantConditions(query),
    { page, pageSize, sort, order },
  );
}

/** The merchant, not archived, that holds this Partita IVA (the unique index of migration 0022), if any. */
export async function findMerchantIdByVat(executor: Executor, vatNumber: string): Promise<string | undefined> {
  const [row] = await executor
    .select({ id: merchants.id })
    .from(merchants)
    .where(sql`${merchants.vatNumber} = ${vatNumber} and ${merchants.status} <> 'archived'`);
  return row?.id;
}

export async function findMerchant(executor: Executor, id: string, options: { forUpdate?: boolean } = {}) {
  const query = executor.select().from(merchants).where(eq(merchants.id, id));
  const rows = options.forUpdate ? await query.for('update') : await query;
  return rows[0];
}

export async function insertMerchant(executor: Executor, values: MerchantValues & { createdAt: Date }): Promise<MerchantRow> {
  const [row] = await executor.insert(merchants).values(values).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function updateMerchantRow(executor: Executor, id: string, values: Partial<MerchantValues>): Promise<MerchantRow> {
  const [row] = await executor.update(merchants).set(values).where(eq(merchants.id, id)).returning();
  if (!row) throw new Error('update returned no row');
  return row;
}

export async function deleteMerchantRow(executor: Executor, id: string): Promise<void> {
  await executor.delete(merchants).where(eq(merchants.id, id));
}

/**
 * Whether any ledger entry names the merchant. The ledger's table comes with its own migration
 * (0003); until it exists there can be no entry.
 */
export async function hasLedgerEntries(executor: Executor, id: string): Promise<boolean> {
  const table = await executor.execute(sql`select to_regclass('ledger_entries') is not null as present`);
  if (!(table.rows[0] as { present: boolean } | undefined)?.present) return false;
  const found = await executor.execute(sql`select exists (select 1 from ledger_entries where merchant_id = ${id}) as found`);
  return Boolean((found.rows[0] as { found: boolean } | undefined)?.found);
}

export async function existingMerchantIds(executor: Executor, ids: string[]): Promise<Map<string, MerchantRow['status']>> {
  if (ids.length === 0) return new Map();
  const rows = await executor
    .select({ id: merchants.id, status: merchants.status })
    .from(merchants)
    .where(sql`${merchants.id} in ${ids}`);
  return new Map(rows.map((row) => [row.id, row.status]));
}

export function merchantExportColumns(language: Language, timeZone: string): CsvColumns {
  return {
    legalName: { header: { it: 'Ragione sociale', en: 'Legal name' }, value: csvCell.text(merchants.legalName) },
    signName: { header: { it: 'Insegna', en: 'Sign name' }, value: csvCell.text(merchants.signName) },
    vatNumber: { header: { it: 'Partita IVA', en: 'VAT number' }, value: csvCell.text(merchants.vatNumber) },
    taxCode: { header: { it: 'Codice fiscale', en: 'Tax code' }, value: csvCell.text(merchants.taxCode) },
    sdiCode: { header: { it: 'Codice SDI', en: 'SDI code' }, value: csvCell.text(merchants.sdiCode) },
    pec: { header: { it: 'PEC', en: 'PEC' }, value: csvCell.text(merchants.pec) },
    category: { header: { it: 'Categoria', en: 'Category' }, value: csvCell.label(merchants.category, VALUE_LABELS.merchantCategory, language) },
    street: { header: { it: 'Indirizzo', en: 'Street' }, value: csvCell.text(merchants.street) },
    city: { header: { it: 'Città', en: 'City' }, value: csvCell.text(merchants.city) },
    province: { header: { it: 'Provincia', en: 'Province' }, value: csvCell.text(merchants.province) },
    postalCode: { header: { it: 'CAP', en: 'Postal code' }, value: csvCell.text(merchants.postalCode) },
    phone: { header: { it: 'Telefono', en: 'Phone' }, value: csvCell.text(merchants.phone) },
    email: { header: { it: 'Email', en: 'Email' }, value: csvCell.text(merchants.email) },
    website: { header: { it: 'Sito web', en: 'Website' }, value: csvCell.text(merchants.website) },
    status: { header: { it: 'Stato', en: 'Status' }, value: csvCell.label(merchants.status, VALUE_LABELS.merchantStatus, language) },
    createdAt: { header: { it: 'Creato il', en: 'Created at' }, value: csvCell.dateTime(merchants.createdAt, timeZone) },
  };
}

export function merchantExportQuery(executor: Executor, columns: CsvColumns, filter: MerchantFilter & Pick<ListMerchantsQuery, 'sort' | 'order'>) {
  return executor
    .select(csvSelection(columns))
    .from(merchants)
    .where(merchantConditions(filter))
    .orderBy(...orderFor(merchantList.sorts, filter.sort, filter.order, merchantList.tieBreaker))
    .$dynamic();
}

/** The names of these merchants (one query): the sign customers know, else the legal name. */
export async function merchantNamesByIds(executor: Executor, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await executor.select({ id: merchants.id, signName: merchants.signName, legalName: merchants.legalName }).from(merchants).where(inArray(merchants.id, ids));
  return new Map(rows.map((row) => [row.id, row.signName ?? row.legalName]));
}

import { eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import type { ListProgramsQuery, Program } from '@sf/contract/programs';
import type { Executor } from '../../db/client.ts';
import { allOf, containsPattern, findPage, orderFor, type ListDefinition } from '../../db/list.ts';
import { csvCell, csvSelection, type CsvColumns } from '../../db/csv-export.ts';
import type { Language } from '@sf/contract/app-info';
import { VALUE_LABELS } from '@sf/contract/value-labels';
import { programMerchants, programs } from './programs.schema.ts';

export type ProgramRow = typeof programs.$inferSelect;
export type ProgramValues = Omit<typeof programs.$inferInsert, 'id'>;

export function toProgram(row: ProgramRow, merchantIds: string[]): Program {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    merchantIds,
    status: row.status,
    pointsPerEuro: row.pointsPerEuro === null ? null : Number(row.pointsPerEuro),
    minSpendCents: row.minSpendCents,
    stampsRequired: row.stampsRequired,
    maxStampsPerDay: row.maxStampsPerDay,
    maxStampsPerTransaction: row.maxStampsPerTransaction,
    tiers: row.tiers,
    tierWindow: row.tierWindow,
    expiry: { policy: row.expiryPolicy, days: row.expiryDays },
    bonuses: row.bonuses,
    walletBackgroundColor: row.walletBackgroundColor,
    walletForegroundColor: row.walletForegroundColor,
    walletLogo: row.walletLogo,
    terms: row.terms,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export const programList: ListDefinition<ListProgramsQuery['sort']> = {
  sorts: {
    name: sql`lower(${programs.name})`,
    type: programs.type,
    status: programs.status,
    createdAt: programs.createdAt,
    updatedAt: programs.updatedAt,
  },
  tieBreaker: programs.id,
};

export type ProgramFilter = Omit<ListProgramsQuery, 'page' | 'pageSize' | 'sort' | 'order'>;

export function programConditions(filter: ProgramFilter): SQL | undefined {
  return allOf(
    filter.q ? ilike(programs.name, containsPattern(filter.q)) : undefined,
    filter.status !== undefined && eq(programs.status, filter.status),
    filter.type !== undefined && eq(programs.type, filter.type),
    filter.merchantId !== undefined &&
      sql`exists (select 1 from ${programMerchants} where ${programMerchants.programId} = ${programs.id} and ${programMerchants.merchantId} = ${filter.merchantId})`,
  );
}

export function findPrograms(executor: Executor, query: ListProgramsQuery) {
  const { page, pageSize, sort, order } = query;
  return findPage(
    executor,
    programList,
    (total) => executor.select({ program: programs, _total: total }).from(programs).$dynamic(),
    programConditions(query),
    { page, pageSize, sort, order },
  );
}

export async function merchantIdsOf(executor: Executor, programIds: string[]): Promise<Map<string, string[]>> {
  const byProgram = new Map<string, string[]>(programIds.map((id) => [id, []]));
  if (programIds.length === 0) return byProgram;
  const rows = await executor
    .select()
    .from(programMerchants)
    .where(inArray(programMerchants.programId, programIds))
    .orderBy(programMerchants.programId, programMerchants.merchantId);
  for (const row of rows) byProgram.get(row.programId)?.push(row.merchantId);
  return byProgram;
}

export async function findProgram(executor: Executor, id: string, options: { forUpdate?: boolean } = {}) {
  const query = executor.select().from(programs).where(eq(programs.id, id));
  const rows = options.forUpdate ? await query.for('update') : await query;
  return rows[0];
}

export async function insertProgram(executor: Executor, values: ProgramValues): Promise<ProgramRow> {
  const [row] = await executor.insert(programs).values(values).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function updateProgramRow(executor: Executor, id: string, values: Partial<ProgramValues>): Promise<ProgramRow> {
  const [row] = await executor.update(programs).set(values).where(eq(programs.id, id)).returning();
  if (!row) throw new Error('update returned no row');
  return row;
}

export async function replaceProgramMerchants(executor: Executor, programId: string, merchantIds: string[]): Promise<void> {
  await executor.delete(programMerchants).where(eq(programMerchants.programId, programId));
  if (merchantIds.length > 0) {
    await executor.insert(programMerchants).values(merchantIds.map((merchantId) => ({ programId, merchantId })));
  }
}

export function programExportColumns(language: Language, timeZone: string): CsvColumns {
  return {
    name: { header: { it: 'Nome', en: 'Name' }, value: csvCell.text(programs.name) },
    type: { header: { it: 'Tipo', en: 'Type' }, value: csvCell.label(programs.type, VALUE_LABELS.programType, language) },
    status: { header: { it: 'Stato', en: 'Status' }, value: csvCell.label(programs.status, VALUE_LABELS.programStatus, language) },
    pointsPerEuro: { header: { it: 'Punti per euro', en: 'Points per euro' }, value: csvCell.decimal(programs.pointsPerEuro) },
    minSpend: { header: { it: 'Spesa minima (€)', en: 'Minimum spend (€)' }, value: csvCell.cents(programs.minSpendCents) },
    stampsRequired: { header: { it: 'Timbri richiesti', en: 'Stamps required' }, value: csvCell.integer(programs.stampsRequired) },
    merchants: {
      header: { it: 'Esercenti', en: 'Merchants' },
      value: sql`(select count(*) from ${programMerchants} where ${programMerchants.programId} = ${programs.id})::text`,
    },
    expiryPolicy: { header: { it: 'Scadenza', en: 'Expiry' }, value: csvCell.label(programs.expiryPolicy, VALUE_LABELS.expiryPolicy, language) },
    expiryDays: { header: { it: 'Giorni di validità', en: 'Days valid' }, value: csvCell.integer(programs.expiryDays) },
    createdAt: { header: { it: 'Creato il', en: 'Created at' }, value: csvCell.dateTime(programs.createdAt, timeZone) },
  };
}

export function programExportQuery(executor: Executor, columns: CsvColumns, filter: ProgramFilter & Pick<ListProgramsQuery, 'sort' | 'order'>) {
  return executor
    .select(csvSelection(columns))
    .from(programs)
    .where(programConditions(filter))
    .orderBy(...orderFor(programList.sorts, filter.sort, filter.order, programList.tieBreaker))
    .$dynamic();
}

/** The names of these programs (one query). */
export async function programNamesByIds(executor: Executor, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await executor.select({ id: programs.id, name: programs.name }).from(programs).where(inArray(programs.id, ids));
  return new Map(rows.map((row) => [row.id, row.name]));
}

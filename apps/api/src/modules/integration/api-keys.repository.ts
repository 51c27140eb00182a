import { and, eq, ilike, inArray, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { ApiKey, ListApiKeysQuery } from '@sf/contract/integration';
import type { Executor } from '../../db/client.ts';
import { allOf, containsPattern, findPage, type ListDefinition } from '../../db/list.ts';
import { csvCell, csvSelection, type CsvColumns } from '../../db/csv-export.ts';
import type { Language } from '@sf/contract/app-info';
import { VALUE_LABELS } from '@sf/contract/value-labels';
import { orderFor } from '../../db/list.ts';
import { merchants } from '../merchants/merchants.schema.ts';
import { users } from '../../db/schema.ts';
import { apiKeys } from './integration.schema.ts';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export function toApiKey(row: ApiKeyRow, merchantName: string | null, createdBy: string | null): ApiKey {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    merchantId: row.merchantId,
    merchantName,
    scopes: row.scopes,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    createdBy,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    status: row.revokedAt ? 'revoked' : 'active',
  };
}

export const apiKeyList: ListDefinition<ListApiKeysQuery['sort']> = {
  sorts: {
    createdAt: apiKeys.createdAt,
    name: sql`lower(${apiKeys.name})`,
    lastUsedAt: { expression: apiKeys.lastUsedAt, nullsLast: true },
  },
  tieBreaker: apiKeys.id,
};

export type ApiKeyFilter = Omit<ListApiKeysQuery, 'page' | 'pageSize' | 'sort' | 'order'>;

export function apiKeyConditions(filter: ApiKeyFilter): SQL | undefined {
  const pattern = filter.q ? containsPattern(filter.q) : undefined;
  return allOf(
    pattern !== undefined && or(ilike(apiKeys.name, pattern), ilike(apiKeys.prefix, pattern), ilike(merchants.legalName, pattern)),
    filter.status === 'active' && isNull(apiKeys.revokedAt),
    filter.status === 'revoked' && isNotNull(apiKeys.revokedAt),
    filter.kind !== undefined && eq(apiKeys.kind, filter.kind),
    filter.merchantId !== undefined && eq(apiKeys.merchantId, filter.merchantId),
  );
}

const merchantName = sql<string | null>`coalesce(${merchants.signName}, ${merchants.legalName})`;

export function findApiKeys(executor: Executor, query: ListApiKeysQuery) {
  const { page, pageSize, sort, order } = query;
  return findPage(
    executor,
    apiKeyList,
    (total) =>
      executor
        .select({ key: apiKeys, merchantName, createdBy: users.email, _total: total })
        .from(apiKeys)
        .leftJoin(merchants, eq(merchants.id, apiKeys.merchantId))
        .leftJoin(users, eq(users.id, apiKeys.createdBy))
        .$dynamic(),
    apiKeyConditions(query),
    { page, pageSize, sort, order },
  );
}

export async function findApiKey(executor: Executor, id: string) {
  const [row] = await executor
    .select({ key: apiKeys, merchantName, createdBy: users.email })
    .from(apiKeys)
    .leftJoin(merchants, eq(merchants.id, apiKeys.merchantId))
    .leftJoin(users, eq(users.id, apiKeys.createdBy))
    .where(eq(apiKeys.id, id))
    .limit(1);
  return row;
}

export async function insertApiKey(executor: Executor, values: typeof apiKeys.$inferInsert): Promise<ApiKeyRow> {
  const [row] = await executor.insert(apiKeys).values(values).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** Revokes a live key; returns the row, or undefined when it was already revoked (or is unknown). */
export async function revokeApiKey(executor: Executor, id: string, at: Date): Promise<ApiKeyRow | undefined> {
  const [row] = await executor
    .update(apiKeys)
    .set({ revokedAt: at })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning();
  return row;
}

/** The live key with this secret hash (one index look-up) and its merchant's status, or undefined. */
export async function findLiveKeyByHash(executor: Executor, secretHash: string) {
  const [row] = await executor
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      kind: apiKeys.kind,
      merchantId: apiKeys.merchantId,
      scopes: apiKeys.scopes,
      prefix: apiKeys.prefix,
      lastUsedAt: apiKeys.lastUsedAt,
      merchantStatus: merchants.status,
    })
    .from(apiKeys)
    .leftJoin(merchants, eq(merchants.id, apiKeys.merchantId))
    .where(and(eq(apiKeys.secretHash, secretHash), isNull(apiKeys.revokedAt)))
    .limit(1);
  return row;
}

/** Records a use at most once a minute: the write happens only when the stored time is older. */
export async function touchApiKey(executor: Executor, id: string, at: Date): Promise<void> {
  await executor
    .update(apiKeys)
    .set({ lastUsedAt: at })
    .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, new Date(at.getTime() - 60_000)))));
}

export function apiKeyExportColumns(language: Language, timeZone: string): CsvColumns {
  return {
    name: { header: { it: 'Nome', en: 'Name' }, value: csvCell.text(apiKeys.name) },
    kind: { header: { it: 'Tipo', en: 'Kind' }, value: csvCell.label(apiKeys.kind, VALUE_LABELS.apiKeyKind, language) },
    merchant: { header: { it: 'Esercente', en: 'Merchant' }, value: csvCell.text(merchantName) },
    scopes: { header: { it: 'Permessi', en: 'Scopes' }, value: sql`(select string_agg(${csvCell.label(sql.raw('s'), VALUE_LABELS.apiKeyScope, language)}, ', ' order by o) from unnest(${apiKeys.scopes}) with ordinality as u(s, o))` },
    prefix: { header: { it: 'Prefisso', en: 'Prefix' }, value: csvCell.text(apiKeys.prefix) },
    createdAt: { header: { it: 'Creata il', en: 'Created at' }, value: csvCell.dateTime(apiKeys.createdAt, timeZone) },
    lastUsedAt: { header: { it: 'Ultimo uso', en: 'Last used' }, value: csvCell.dateTime(apiKeys.lastUsedAt, timeZone) },
    revokedAt: { header: { it: 'Revocata il', en: 'Revoked at' }, value: csvCell.dateTime(apiKeys.revokedAt, timeZone) },
  };
}

export function apiKeyExportQuery(executor: Executor, columns: CsvColumns, filter: ApiKeyFilter & Pick<ListApiKeysQuery, 'sort' | 'order'>) {
  return executor
    .select(csvSelection(columns))
    .from(apiKeys)
    .leftJoin(merchants, eq(merchants.id, apiKeys.merchantId))
    .where(apiKeyConditions(filter))
    .orderBy(...orderFor(apiKeyList.sorts, filter.sort, filter.order, apiKeys.id));
}

/** The merchant's status, or null when there is no such merchant (a key names a live one). */
export async function merchantStatus(executor: Executor, merchantId: string): Promise<string | null> {
  const [row] = await executor.select({ status: merchants.status }).from(merchants).where(eq(merchants.id, merchantId)).limit(1);
  return row?.status ?? null;
}

/** The names of these keys (one query), revoked ones too: the log keeps their history. */
export async function apiKeyNamesByIds(executor: Executor, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await executor.select({ id: apiKeys.id, name: apiKeys.name }).from(apiKeys).where(inArray(apiKeys.id, ids));
  return new Map(rows.map((row) => [row.id, row.name]));
}

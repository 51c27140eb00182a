import { and, asc, count, desc, inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { Executor } from './client.ts';

/**
 * The one list helper (decision 013: one list kit): a list is a declaration —
 * its select, its filters as SQL conditions, a sort map keyed by the contract's sort enum — and this
 * file does the paging, ordering, tie-breaking and counting the same way for all of them.
 */

/** LIKE treats % and _ as wildcards and \ as the escape: a search for "50%" means the text "50%". */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** `%text%` with the text's own wildcards escaped. */
export function containsPattern(text: string): string {
  return `%${escapeLike(text)}%`;
}

/** `text%` with the text's own wildcards escaped. */
export function prefixPattern(text: string): string {
  return `${escapeLike(text)}%`;
}

/**
 * The words of a search, lower-cased, each once: " Barbieri  Alessandro " → ["barbieri", "alessandro"].
 * Lists show a person surname first ("Barbieri Alessandro") while the searched text reads first name
 * first: a search matches when each word is found, in any order (`everyWord`).
 */
export function searchWords(text: string): string[] {
  return [...new Set(text.toLowerCase().split(/\s+/).filter((word) => word !== ''))];
}

/**
 * Each word of the search must match (AND of `matches(pattern)`, one `%word%` pattern per word);
 * undefined for a blank search. On a trigram-indexed column every word's LIKE is a condition of the
 * same bitmap index scan, so the AND costs about what one LIKE did.
 */
export function everyWord(text: string, matches: (pattern: string) => SQL): SQL | undefined {
  const words = searchWords(text);
  return words.length > 0 ? and(...words.map((word) => matches(containsPattern(word)))) : undefined;
}

/** Joins the conditions that are present; undefined when none is. */
export function allOf(...conditions: (SQL | undefined | false | null)[]): SQL | undefined {
  const present = conditions.filter((condition): condition is SQL => Boolean(condition));
  return present.length > 0 ? and(...present) : undefined;
}

/**
 * How a sort key orders: an expression, several (name = surname then first name, matching an index),
 * or one or several whose nulls go last (or first) whatever the direction.
 */
export type SortKey = SQLWrapper | SQLWrapper[] | { expression: SQLWrapper | SQLWrapper[]; nullsLast: boolean };
export type SortMap<Sort extends string> = Record<Sort, SortKey>;

export type ListParams<Sort extends string> = {
  page: number;
  pageSize: number;
  sort: Sort;
  order: 'asc' | 'desc';
};

/**
 * ORDER BY for a sort key plus a unique tie-breaker in the same direction, so that pages never
 * overlap or skip rows that share a sort value.
 */
export function orderFor<Sort extends string>(sorts: SortMap<Sort>, sort: Sort, order: 'asc' | 'desc', tieBreaker: SQLWrapper): SQL[] {
  const key = sorts[sort];
  const direction = order === 'asc' ? asc : desc;
  if (Array.isArray(key)) return [...key.map((part) => direction(part)), direction(tieBreaker)];
  if ('nullsLast' in key) {
    const nulls = sql.raw(key.nullsLast ? 'nulls last' : 'nulls first');
    const parts = Array.isArray(key.expression) ? key.expression : [key.expression];
    return [...parts.map((part) => sql`${part} ${sql.raw(order)} ${nulls}`), direction(tieBreaker)];
  }
  return [direction(key), direction(tieBreaker)];
}

export type ListDefinition<Sort extends string> = {
  sorts: SortMap<Sort>;
  /** A unique column (the primary key) that orders rows with equal sort values. */
  tieBreaker: SQLWrapper;
  /**
   * Count at most this many rows (large tables): the page then answers `totalIsCapped: true` when
   * there are more. Without it the count is exact (a second query beside the page's).
   */
  countCap?: number;
};

export type ListResult<Row> = { rows: Row[]; total: number; totalIsCapped?: boolean };

/**
 * One page of a list. `select(total)` builds the list's select (fields + joins, `$dynamic()`) with
 * `total` among its fields; the helper adds the filters, the order and the page.
 */
export async function findPage<Sort extends string, Query extends PgSelect>(
  executor: Executor,
  definition: ListDefinition<Sort>,
  select: (total: SQL<number>) => Query,
  where: SQL | undefined,
  params: ListParams<Sort>,
  /**
   * Selects only the tie-breaker (the id) FROM the table and the joins the filters and sort need.
   * With it, the page is found in two steps: the page's ids first, from an index alone (an index-only
   * scan skips the OFFSET's rows without reading them), then those rows' columns; and the count runs
   * over it too. Without it (small tables) page and count run over `select`.
   */
  idsFrom?: () => PgSelect,
): Promise<ListResult<Omit<Awaited<Query>[number], '_total'>>> {
  const countSource = () => (idsFrom ? idsFrom().where(where) : select(sql<number>`0`).where(where));
  const order = orderFor(definition.sorts, params.sort, params.order, definition.tieBreaker);
  const offset = (params.page - 1) * params.pageSize;
  const page = () =>
    idsFrom
      ? select(sql<number>`0`)
          .where(inArray(definition.tieBreaker as never, idsFrom().where(where).orderBy(...order).limit(params.pageSize).offset(offset)))
          .orderBy(...order)
      : select(sql<number>`0`).where(where).orderBy(...order).limit(params.pageSize).offset(offset);
  const strip = (rows: Awaited<Query>) =>
    (rows as Record<string, unknown>[]).map(({ _total: _ignored, ...row }) => row) as Omit<Awaited<Query>[number], '_total'>[];

  if (definition.countCap !== undefined) {
    const cap = definition.countCap;
    const limited = countSource().limit(cap + 1);
    const [rows, counted] = await Promise.all([
      page(),
      executor.select({ n: count() }).from(sql`(${limited}) as limited`),
    ]);
    const n = counted[0]?.n ?? 0;
    return { rows: strip(rows as Awaited<Query>), total: Math.min(n, cap), totalIsCapped: n > cap };
  }

  // The page and the count as two queries. Counting in the page's query (`count(*) over ()`) makes
  // PostgreSQL read and sort every matching row, all its columns, before the LIMIT: the news list fell
  // from 769 to 187 requests/s on 3,000 posts (npm run bench -- --db=postgres). Apart, the page is a
  // LIMITed scan an index can serve, and the count reads no column.
  const all = countSource();
  const [rows, counted] = await Promise.all([
    page(),
    executor.select({ n: count() }).from(sql`(${all}) as all_rows`),
  ]);
  return { rows: strip(rows as Awaited<Query>), total: Number(counted[0]?.n ?? 0) };
}

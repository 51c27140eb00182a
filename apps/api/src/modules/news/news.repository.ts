import { and, asc, count, desc, eq, gt, ilike, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import { allOf, containsPattern, findPage, orderFor, type ListDefinition } from '../../db/list.ts';
import { csvCell, csvSelection, type CsvColumns } from '../../db/csv-export.ts';
import { VALUE_LABELS } from '@sf/contract/value-labels';
import type { ListNewsQuery, NewsAudience, NewsPost, NewsStatus } from '@sf/contract/news';
import type { Language } from '@sf/contract/app-info';
import type { Executor } from '../../db/client.ts';
import { newsPosts, uploads, users } from '../../db/schema.ts';

/** The stored post plus its author's name: what every answer is built from. */
export type PostRow = {
  id: number;
  title: string;
  summary: string;
  body: string;
  coverImageId: string | null;
  audience: NewsAudience;
  audienceProgramId: string | null;
  audienceMerchantId: string | null;
  storedStatus: NewsStatus;
  status: NewsStatus;
  publishAt: Date | null;
  pinned: boolean;
  authorId: string;
  authorName: string;
  createdAt: Date;
  updatedAt: Date;
  version: number;
};

export type PostValues = {
  title: string;
  summary: string;
  body: string;
  coverImageId: string | null;
  audience: NewsAudience;
  audienceProgramId: string | null;
  audienceMerchantId: string | null;
  status: NewsStatus;
  publishAt: Date | null;
  pinned: boolean;
};

const at = (now: Date) => sql`${now.toISOString()}::timestamptz`;

/**
 * The status a reader sees: a scheduled post whose time has come IS published, whether or not the
 * scheduler has written that down yet. Computed in SQL so that filters, sorting and counts agree.
 */
export function effectiveStatus(now: Date): SQL<NewsStatus> {
  return sql<NewsStatus>`(case when ${newsPosts.status} = 'scheduled' and ${newsPosts.publishAt} <= ${at(now)} then 'published' else ${newsPosts.status} end)`;
}

/** The same rule as a WHERE clause that can use the (status, publish_at) index. */
export function hasEffectiveStatus(status: NewsStatus, now: Date): SQL {
  switch (status) {
    case 'published':
      return or(
        eq(newsPosts.status, 'published'),
        and(eq(newsPosts.status, 'scheduled'), lte(newsPosts.publishAt, at(now))),
      ) as SQL;
    case 'scheduled':
      return and(eq(newsPosts.status, 'scheduled'), gt(newsPosts.publishAt, at(now))) as SQL;
    default:
      return eq(newsPosts.status, status);
  }
}

function postColumns(now: Date) {
  return {
    id: newsPosts.id,
    title: newsPosts.title,
    summary: newsPosts.summary,
    body: newsPosts.body,
    coverImageId: newsPosts.coverImageId,
    audience: newsPosts.audience,
    audienceProgramId: newsPosts.audienceProgramId,
    audienceMerchantId: newsPosts.audienceMerchantId,
    storedStatus: newsPosts.status,
    status: effectiveStatus(now),
    publishAt: newsPosts.publishAt,
    pinned: newsPosts.pinned,
    authorId: newsPosts.authorId,
    authorName: users.displayName,
    createdAt: newsPosts.createdAt,
    updatedAt: newsPosts.updatedAt,
    version: newsPosts.version,
  };
}

export function uploadUrl(id: string): string {
  return `/api/public/uploads/${encodeURIComponent(id)}`;
}

/** A post as the admin API answers it (and as the audit log records it). */
export function toNewsPost(row: PostRow): NewsPost {
  return {
    id: row.id,
    title: row.title,
    summary: row.summary,
    body: row.body,
    coverImageUrl: row.coverImageId ? uploadUrl(row.coverImageId) : null,
    audience: row.audience,
    audienceId: row.audience === 'program' ? row.audienceProgramId : row.audience === 'merchant' ? row.audienceMerchantId : null,
    status: row.status,
    publishAt: row.publishAt ? row.publishAt.toISOString() : null,
    pinned: row.pinned,
    author: { id: row.authorId, displayName: row.authorName },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    version: row.version,
  };
}

/** The News list as a declaration: sort keys (the effective status depends on now) and the tie-breaker. */
function newsList(now: Date): ListDefinition<ListNewsQuery['sort']> {
  return {
    sorts: {
      updatedAt: newsPosts.updatedAt,
      createdAt: newsPosts.createdAt,
      // Posts without a publish date go last in either direction: they have nothing to compare.
      publishAt: { expression: newsPosts.publishAt, nullsLast: true },
      title: sql`lower(${newsPosts.title})`,
      status: effectiveStatus(now),
    },
    tieBreaker: newsPosts.id,
  };
}

export type NewsFilter = Pick<ListNewsQuery, 'q' | 'status'>;

function newsConditions(now: Date, filter: NewsFilter): SQL | undefined {
  const pattern = filter.q ? containsPattern(filter.q) : undefined;
  return allOf(
    pattern !== undefined && (or(ilike(newsPosts.title, pattern), ilike(newsPosts.summary, pattern)) as SQL),
    filter.status !== undefined && hasEffectiveStatus(filter.status, now),
  );
}

export function newsExportColumns(now: Date, timeZone: string, language: Language): CsvColumns {
  return {
    id: { header: { it: 'Id', en: 'Id' }, value: csvCell.integer(newsPosts.id) },
    title: { header: { it: 'Titolo', en: 'Title' }, value: csvCell.text(newsPosts.title) },
    summary: { header: { it: 'Sommario', en: 'Summary' }, value: csvCell.text(newsPosts.summary) },
    status: { header: { it: 'Stato', en: 'Status' }, value: csvCell.label(effectiveStatus(now), VALUE_LABELS.newsStatus, language) },
    publishAt: { header: { it: 'Data di pubblicazione', en: 'Publish date' }, value: csvCell.dateTime(newsPosts.publishAt, timeZone) },
    pinned: { header: { it: 'In evidenza', en: 'Pinned' }, value: csvCell.boolean(newsPosts.pinned, language) },
    author: { header: { it: 'Autore', en: 'Author' }, value: csvCell.text(users.displayName) },
    updatedAt: { header: { it: 'Modificato il', en: 'Updated at' }, value: csvCell.dateTime(newsPosts.updatedAt, timeZone) },
  };
}

export function newsExportQuery(executor: Executor, now: Date, columns: CsvColumns, query: NewsFilter & Pick<ListNewsQuery, 'sort' | 'order'>) {
  const list = newsList(now);
  return executor
    .select(csvSelection(columns))
    .from(newsPosts)
    .innerJoin(users, eq(users.id, newsPosts.authorId))
    .where(newsConditions(now, query))
    .orderBy(...orderFor(list.sorts, query.sort, query.order, list.tieBreaker))
    .$dynamic();
}

export async function findPosts(
  executor: Executor,
  now: Date,
  query: ListNewsQuery,
): Promise<{ rows: PostRow[]; total: number }> {
  const where = newsConditions(now, query);
  const { rows, total } = await findPage(
    executor,
    newsList(now),
    (count) =>
      executor
        .select({ ...postColumns(now), _total: count })
        .from(newsPosts)
        .innerJoin(users, eq(users.id, newsPosts.authorId))
        .$dynamic(),
    where,
    query,
  );
  return { rows: rows as PostRow[], total };
}

export async function findPost(
  executor: Executor,
  now: Date,
  id: number,
  options: { forUpdate?: boolean } = {},
): Promise<PostRow | undefined> {
  const query = executor
    .select(postColumns(now))
    .from(newsPosts)
    .innerJoin(users, eq(users.id, newsPosts.authorId))
    .where(eq(newsPosts.id, id));
  const rows = options.forUpdate ? await query.for('update', { of: newsPosts }) : await query;
  return rows[0] as PostRow | undefined;
}

export async function insertPost(
  executor: Executor,
  values: PostValues & { authorId: string; createdAt: Date; updatedAt: Date },
): Promise<number> {
  const [row] = await executor.insert(newsPosts).values(values).returning({ id: newsPosts.id });
  if (!row) throw new Error('insert returned no row');
  return row.id;
}

export async function updatePostRow(
  executor: Executor,
  id: number,
  values: Partial<PostValues> & { updatedAt?: Date; version?: number },
): Promise<void> {
  await executor.update(newsPosts).set(values).where(eq(newsPosts.id, id));
}

export async function deletePostRow(executor: Executor, id: number): Promise<void> {
  await executor.delete(newsPosts).where(eq(newsPosts.id, id));
}

/**
 * Scheduled posts whose time has come, locked for promotion. SKIP LOCKED lets several API processes
 * run the scheduler at once without promoting (and auditing) a post twice.
 */
export async function lockDuePosts(executor: Executor, now: Date, limit: number): Promise<PostRow[]> {
  const rows = await executor
    .select(postColumns(now))
    .from(newsPosts)
    .innerJoin(users, eq(users.id, newsPosts.authorId))
    .where(and(eq(newsPosts.status, 'scheduled'), lte(newsPosts.publishAt, at(now))))
    .orderBy(asc(newsPosts.publishAt), asc(newsPosts.id))
    .limit(limit)
    .for('update', { of: newsPosts, skipLocked: true });
  return rows as PostRow[];
}

export async function uploadExists(executor: Executor, id: string): Promise<boolean> {
  const rows = await executor.select({ id: uploads.id }).from(uploads).where(eq(uploads.id, id)).limit(1);
  return rows.length > 0;
}

export async function countByEffectiveStatus(executor: Executor, now: Date): Promise<Record<NewsStatus, number>> {
  const countWhere = (status: NewsStatus) => sql<number>`count(*) filter (where ${hasEffectiveStatus(status, now)})`.mapWith(Number);
  const [row] = await executor
    .select({
      draft: countWhere('draft'),
      scheduled: countWhere('scheduled'),
      published: countWhere('published'),
      archived: countWhere('archived'),
    })
    .from(newsPosts);
  return row ?? { draft: 0, scheduled: 0, published: 0, archived: 0 };
}

export async function findNextScheduled(executor: Executor, now: Date, limit: number): Promise<PostRow[]> {
  const rows = await executor
    .select(postColumns(now))
    .from(newsPosts)
    .innerJoin(users, eq(users.id, newsPosts.authorId))
    .where(hasEffectiveStatus('scheduled', now))
    .orderBy(asc(newsPosts.publishAt), asc(newsPosts.id))
    .limit(limit);
  return rows as PostRow[];
}

/** What the customers' app reads: effective published posts, pinned first, then the newest. */
export async function findPublicPosts(
  executor: Executor,
  now: Date,
  paging: { page: number; pageSize: number } | { id: number },
  audience: { programId?: string | undefined; merchantId?: string | undefined } = {},
): Promise<{ rows: PostRow[]; total: number }> {
  // Posts for everyone, and those addressed to the program or merchant the app asks for.
  const addressed = or(
    eq(newsPosts.audience, 'everyone'),
    audience.programId ? and(eq(newsPosts.audience, 'program'), eq(newsPosts.audienceProgramId, audience.programId)) : undefined,
    audience.merchantId ? and(eq(newsPosts.audience, 'merchant'), eq(newsPosts.audienceMerchantId, audience.merchantId)) : undefined,
  );
  const published = and(hasEffectiveStatus('published', now), addressed)!;
  const publishedAt = sql`coalesce(${newsPosts.publishAt}, ${newsPosts.createdAt})`;
  if ('id' in paging) {
    const rows = await executor
      .select(postColumns(now))
      .from(newsPosts)
      .innerJoin(users, eq(users.id, newsPosts.authorId))
      .where(and(published, eq(newsPosts.id, paging.id)));
    return { rows: rows as PostRow[], total: rows.length };
  }
  const [rows, totals] = await Promise.all([
    executor
      .select(postColumns(now))
      .from(newsPosts)
      .innerJoin(users, eq(users.id, newsPosts.authorId))
      .where(published)
      .orderBy(desc(newsPosts.pinned), desc(publishedAt), desc(newsPosts.id))
      .limit(paging.pageSize)
      .offset((paging.page - 1) * paging.pageSize),
    executor.select({ total: count() }).from(newsPosts).where(published),
  ]);
  return { rows: rows as PostRow[], total: totals[0]?.total ?? 0 };
}

/** The titles of these posts (one query). */
export async function postTitlesByIds(executor: Executor, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await executor.select({ id: newsPosts.id, title: newsPosts.title }).from(newsPosts).where(inArray(newsPosts.id, ids));
  return new Map(rows.map((row) => [row.id, row.title]));
}

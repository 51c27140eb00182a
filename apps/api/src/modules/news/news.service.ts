import { asc, eq, ne } from 'drizzle-orm';
import type { Language } from '@sf/contract/app-info';
import type { AuditEntry } from '@sf/contract/audit';
import type { CreateNewsPost, ListNewsQuery, NewsAudience, NewsAudienceOptions, NewsPost, NewsStatus, UpdateNewsPost } from '@sf/contract/news';
import type { Database, Executor, Transaction } from '../../db/client.ts';
import { merchants, programs } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { recordAudit, type AuditActor } from '../../lib/audit.ts';
import { fieldError, notFound, versionConflict } from '../../lib/errors.ts';
import { entityHistory } from '../audit/audit.service.ts';
import { sanitizeRichText } from './rich-text.ts';
import {
  countByEffectiveStatus,
  deletePostRow,
  findNextScheduled,
  findPost,
  findPosts,
  insertPost,
  postTitlesByIds,
  toNewsPost,
  updatePostRow,
  uploadExists,
  type PostRow,
  type PostValues,
} from './news.repository.ts';

export const NEWS_ENTITY = 'news_post';

/**
 * The news editor's allow-list, for other rich texts written with the same editor (campaign bodies,
 * issue 28): one definition of what a rich text may contain.
 */
export function sanitizeEditorHtml(html: string): string {
  return sanitizeRichText(html);
}

/** What the news rules need from the app: its database and its clock (faked in tests). */
export type NewsDeps = { db: Database; clock: Clock };
export type Caller = { actor: AuditActor; authorId: string; language: Language };

const postNotFound = () => notFound('post');

/**
 * Turns the status a writer asked for into what is stored: `scheduled` needs a future publishAt,
 * `published` without a date is published now, and `published` with a future date waits as scheduled.
 */
function resolveSchedule(
  status: NewsStatus,
  publishAt: Date | null,
  now: Date,
): { status: NewsStatus; publishAt: Date | null } {
  if (status === 'scheduled') {
    if (!publishAt) throw fieldError('publishAt', 'required');
    if (publishAt.getTime() <= now.getTime()) throw fieldError('publishAt', 'invalid');
    return { status, publishAt };
  }
  if (status === 'published') {
    if (!publishAt) return { status, publishAt: now };
    return { status: publishAt.getTime() > now.getTime() ? 'scheduled' : 'published', publishAt };
  }
  return { status, publishAt };
}

async function checkCover(deps: NewsDeps, coverImageId: string | null) {
  if (coverImageId !== null && !(await uploadExists(deps.db, coverImageId))) {
    throw fieldError('coverImageId', 'invalid');
  }
}

/** Reads the post for change, locked until the transaction ends; `version` null skips the check. */
async function lockForChange(deps: NewsDeps, tx: Transaction, id: number, version: number | null) {
  const row = await findPost(tx, deps.clock.now(), id, { forUpdate: true });
  if (!row) throw postNotFound();
  if (version !== null && row.version !== version) throw versionConflict();
  return row;
}

export async function listPosts(deps: NewsDeps, query: ListNewsQuery) {
  const { rows, total } = await findPosts(deps.db, deps.clock.now(), query);
  return { items: rows.map(toNewsPost), total, page: query.page, pageSize: query.pageSize };
}

export async function getPost(deps: NewsDeps, id: number): Promise<NewsPost> {
  const row = await findPost(deps.db, deps.clock.now(), id);
  if (!row) throw postNotFound();
  return toNewsPost(row);
}

/**
 * The stored audience of a post: everyone, or the members of a program, or the customers of a
 * merchant, which must exist (400 naming `audienceId` otherwise).
 */
async function audienceValues(
  executor: Executor,
  audience: NewsAudience,
  audienceId: string | null,
): Promise<Pick<PostValues, 'audience' | 'audienceProgramId' | 'audienceMerchantId'>> {
  if (audience === 'everyone') {
    if (audienceId !== null) throw fieldError('audienceId', 'invalid');
    return { audience, audienceProgramId: null, audienceMerchantId: null };
  }
  if (audienceId === null) throw fieldError('audienceId', 'required');
  const table = audience === 'program' ? programs : merchants;
  const [found] = await executor.select({ id: table.id }).from(table).where(eq(table.id, audienceId));
  if (!found) throw fieldError('audienceId', 'invalid');
  return audience === 'program'
    ? { audience, audienceProgramId: audienceId, audienceMerchantId: null }
    : { audience, audienceProgramId: null, audienceMerchantId: audienceId };
}

/** The programs (not closed) and merchants (not archived) a post may be addressed to, by name. */
export async function audienceOptions(deps: NewsDeps): Promise<NewsAudienceOptions> {
  const [programRows, merchantRows] = await Promise.all([
    deps.db.select({ id: programs.id, name: programs.name }).from(programs).where(ne(programs.status, 'closed')).orderBy(asc(programs.name)),
    deps.db
      .select({ id: merchants.id, name: merchants.signName, legalName: merchants.legalName })
      .from(merchants)
      .where(ne(merchants.status, 'archived'))
      .orderBy(asc(merchants.legalName)),
  ]);
  return {
    programs: programRows,
    merchants: merchantRows.map((row) => ({ id: row.id, name: row.name ?? row.legalName })),
  };
}

export async function createPost(deps: NewsDeps, caller: Caller, input: CreateNewsPost): Promise<NewsPost> {
  const now = deps.clock.now();
  const schedule = resolveSchedule(input.status, input.publishAt ? new Date(input.publishAt) : null, now);
  await checkCover(deps, input.coverImageId);
  return deps.db.transaction(async (tx) => {
    const id = await insertPost(tx, {
      title: input.title,
      summary: input.summary,
      body: sanitizeRichText(input.body),
      coverImageId: input.coverImageId,
      ...(await audienceValues(tx, input.audience, input.audienceId)),
      pinned: input.pinned,
      ...schedule,
      authorId: caller.authorId,
      createdAt: now,
      updatedAt: now,
    });
    const created = toNewsPost((await findPost(tx, now, id)) as PostRow);
    await recordAudit(tx, caller.actor, { action: 'news.create', entityType: NEWS_ENTITY, entityId: id, after: created });
    return created;
  });
}

export async function updatePost(deps: NewsDeps, caller: Caller, id: number, patch: UpdateNewsPost): Promise<NewsPost> {
  const now = deps.clock.now();
  if (patch.coverImageId !== undefined) await checkCover(deps, patch.coverImageId);
  return deps.db.transaction(async (tx) => {
    const row = await lockForChange(deps, tx, id, patch.version);
    const before = toNewsPost(row);
    const values: Partial<PostValues> = {};
    if (patch.title !== undefined) values.title = patch.title;
    if (patch.summary !== undefined) values.summary = patch.summary;
    if (patch.body !== undefined) values.body = sanitizeRichText(patch.body);
    if (patch.coverImageId !== undefined) values.coverImageId = patch.coverImageId;
    if (patch.audience !== undefined || patch.audienceId !== undefined) {
      // Either may change alone: the other keeps the post's current one.
      const audience = patch.audience ?? row.audience;
      const currentId = row.audience === 'program' ? row.audienceProgramId : row.audience === 'merchant' ? row.audienceMerchantId : null;
      const audienceId = patch.audienceId !== undefined ? patch.audienceId : patch.audience === 'everyone' ? null : currentId;
      Object.assign(values, await audienceValues(tx, audience, audienceId));
    }
    if (patch.pinned !== undefined) values.pinned = patch.pinned;
    if (patch.status !== undefined || patch.publishAt !== undefined) {
      // Without a new status the post keeps the one it shows (an archived post stays archived).
      const status = patch.status ?? row.status;
      const publishAt = patch.publishAt === undefined ? row.publishAt : patch.publishAt ? new Date(patch.publishAt) : null;
      Object.assign(values, status === 'archived' ? { publishAt } : resolveSchedule(status, publishAt, now));
    }
    await updatePostRow(tx, id, { ...values, updatedAt: now, version: row.version + 1 });
    const after = toNewsPost((await findPost(tx, now, id)) as PostRow);
    await recordAudit(tx, caller.actor, { action: 'news.update', entityType: NEWS_ENTITY, entityId: id, before, after });
    return after;
  });
}

/**
 * A post nobody has read yet (a draft, or a scheduled post whose time has not come) is deleted; a
 * published post has been seen by customers, so it is archived instead and stays in the history.
 * An archived post is already out of sight and is answered unchanged.
 */
export async function deletePost(
  deps: NewsDeps,
  caller: Caller,
  id: number,
): Promise<{ deleted: true } | { deleted: false; post: NewsPost }> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = await lockForChange(deps, tx, id, null);
    const before = toNewsPost(row);
    if (row.status === 'draft' || row.status === 'scheduled') {
      await deletePostRow(tx, id);
      await recordAudit(tx, caller.actor, { action: 'news.delete', entityType: NEWS_ENTITY, entityId: id, before });
      return { deleted: true as const };
    }
    if (row.status === 'archived') return { deleted: false as const, post: before };
    await updatePostRow(tx, id, { status: 'archived', updatedAt: now, version: row.version + 1 });
    const after = toNewsPost((await findPost(tx, now, id)) as PostRow);
    await recordAudit(tx, caller.actor, { action: 'news.archive', entityType: NEWS_ENTITY, entityId: id, before, after });
    return { deleted: false as const, post: after };
  });
}

export type NewsAction = 'publish' | 'unpublish' | 'archive';

/**
 * publish: now, or at a future publishAt already set (then it reads as scheduled); unpublish: back to
 * draft; archive: out of the customers' app. Asking for the state a post is already in changes
 * nothing and writes no audit entry.
 */
export async function applyAction(
  deps: NewsDeps,
  caller: Caller,
  id: number,
  input: { action: NewsAction; version: number },
): Promise<NewsPost> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = await lockForChange(deps, tx, id, input.version);
    const before = toNewsPost(row);
    let values: Partial<PostValues>;
    if (input.action === 'publish') {
      if (row.status === 'published' || row.status === 'scheduled') return before;
      const isFuture = row.publishAt !== null && row.publishAt.getTime() > now.getTime();
      values = isFuture ? { status: 'scheduled' } : { status: 'published', publishAt: now };
    } else if (input.action === 'unpublish') {
      if (row.status === 'draft') return before;
      values = { status: 'draft' };
    } else {
      if (row.status === 'archived') return before;
      values = { status: 'archived' };
    }
    await updatePostRow(tx, id, { ...values, updatedAt: now, version: row.version + 1 });
    const after = toNewsPost((await findPost(tx, now, id)) as PostRow);
    await recordAudit(tx, caller.actor, { action: `news.${input.action}`, entityType: NEWS_ENTITY, entityId: id, before, after });
    return after;
  });
}

/** The post's audit entries, newest first; a deleted post keeps its history. */
export async function postHistory(deps: NewsDeps, id: number): Promise<{ items: AuditEntry[] }> {
  const items = await entityHistory(deps, { entityType: NEWS_ENTITY, entityId: String(id) });
  if (items.length === 0 && !(await findPost(deps.db, deps.clock.now(), id))) throw postNotFound();
  return { items };
}

/** The dashboard's news figures: posts by effective status and the next scheduled ones. */
export async function newsSummary(deps: NewsDeps, input: { nextLimit: number }) {
  const now = deps.clock.now();
  const [postsByStatus, next] = await Promise.all([countByEffectiveStatus(deps.db, now), findNextScheduled(deps.db, now, input.nextLimit)]);
  return {
    postsByStatus,
    nextScheduled: next.map((row) => {
      const post = toNewsPost(row);
      return { id: post.id, title: post.title, publishAt: post.publishAt, author: post.author };
    }),
  };
}

/** For the audit list: these posts' titles in one query, by the audit's text ids (a deleted post is missing). */
export async function postTitles(executor: Executor, ids: string[]): Promise<Map<string, string>> {
  const titles = await postTitlesByIds(executor, ids.map(Number));
  return new Map([...titles].map(([id, title]) => [String(id), title]));
}

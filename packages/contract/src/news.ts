import { z } from 'zod';
import { pagingQuerySchema, sortOrderSchema } from './common.ts';
import { listPageSchema } from './list-query.ts';
import { BOUNDS } from './validation.ts';
import { auditEntrySchema } from './audit.ts';

export const NEWS_STATUSES = ['draft', 'scheduled', 'published', 'archived'] as const;
export const newsStatusSchema = z.enum(NEWS_STATUSES);
export type NewsStatus = z.infer<typeof newsStatusSchema>;

/**
 * Who sees a post in the customers' app: everyone, the members of one loyalty program, or the customers
 * of one merchant (`audienceId` names the program or the merchant; null for everyone).
 */
export const NEWS_AUDIENCES = ['everyone', 'program', 'merchant'] as const;
export const newsAudienceSchema = z.enum(NEWS_AUDIENCES);
export type NewsAudience = z.infer<typeof newsAudienceSchema>;

export const newsAuthorSchema = z.object({ id: z.string(), displayName: z.string() });

export const newsPostSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  summary: z.string(),
  /** Sanitised HTML (allow-list on the server). */
  body: z.string(),
  coverImageUrl: z.string().nullable(),
  audience: newsAudienceSchema,
  /** The program's or the merchant's id for those audiences; null for everyone. */
  audienceId: z.uuid().nullable(),
  /** The effective status: a scheduled post whose time has come reads as published. */
  status: newsStatusSchema,
  publishAt: z.iso.datetime({ offset: true }).nullable(),
  pinned: z.boolean(),
  author: newsAuthorSchema,
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
  /** Optimistic concurrency: an update names the version it was based on. */
  version: z.number().int(),
});
export type NewsPost = z.infer<typeof newsPostSchema>;

/** Statuses a writer may ask for; `archived` goes through the archive action. */
export const writableNewsStatusSchema = z.enum(['draft', 'scheduled', 'published']);

const newsFields = {
  title: z.string().trim().min(BOUNDS.newsTitleMin).max(BOUNDS.newsTitleMax),
  summary: z.string().trim().max(BOUNDS.newsSummaryMax),
  body: z.string().max(BOUNDS.newsBodyMax),
  /** An id returned by the cover upload, or null for none. */
  coverImageId: z.string().max(100).nullable(),
  audience: newsAudienceSchema,
  /** Required for the `program` and `merchant` audiences, null for `everyone` (checked by the server). */
  audienceId: z.uuid().nullable(),
  status: writableNewsStatusSchema,
  /** Required when status is `scheduled` (and then in the future). */
  publishAt: z.iso.datetime({ offset: true }).nullable(),
  pinned: z.boolean(),
};

export const createNewsPostSchema = z.strictObject({
  ...newsFields,
  summary: newsFields.summary.default(''),
  body: newsFields.body.default(''),
  coverImageId: newsFields.coverImageId.default(null),
  audience: newsFields.audience.default('everyone'),
  audienceId: newsFields.audienceId.default(null),
  status: newsFields.status.default('draft'),
  publishAt: newsFields.publishAt.default(null),
  pinned: newsFields.pinned.default(false),
});
export type CreateNewsPost = z.infer<typeof createNewsPostSchema>;

export const updateNewsPostSchema = z.strictObject({
  ...Object.fromEntries(Object.entries(newsFields).map(([k, v]) => [k, v.optional()])),
  version: z.number().int().min(1),
}) as unknown as z.ZodObject<
  { [K in keyof typeof newsFields]: z.ZodOptional<(typeof newsFields)[K]> } & { version: z.ZodNumber },
  z.core.$strict
>;
export type UpdateNewsPost = z.infer<typeof updateNewsPostSchema>;

/** publish / unpublish / archive, each confirmed in the UI. */
export const newsActionSchema = z.strictObject({
  action: z.enum(['publish', 'unpublish', 'archive']),
  version: z.number().int().min(1),
});

export const NEWS_SORT_FIELDS = ['updatedAt', 'createdAt', 'publishAt', 'title', 'status'] as const;

export const listNewsQuerySchema = pagingQuerySchema.extend({
  q: z.string().trim().max(BOUNDS.searchMax).optional(),
  status: newsStatusSchema.optional(),
  sort: z.enum(NEWS_SORT_FIELDS).default('updatedAt'),
  order: sortOrderSchema.default('desc'),
});
export type ListNewsQuery = z.infer<typeof listNewsQuerySchema>;
export const newsPageSchema = listPageSchema(newsPostSchema);
/** The export takes the list's search, filter and sort, without paging. */
export const exportNewsQuerySchema = listNewsQuerySchema.omit({ page: true, pageSize: true });

export const coverUploadResponseSchema = z.object({ id: z.string(), url: z.string() });

/** What the customers' app reads: published posts only, no personal data. */
export const publicNewsPostSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  summary: z.string(),
  body: z.string(),
  coverImageUrl: z.string().nullable(),
  publishedAt: z.iso.datetime({ offset: true }),
  pinned: z.boolean(),
});
/**
 * The app asks for the posts of its member's program or of the merchant it is at: it gets those, plus
 * the posts for everyone. Without either, only the posts for everyone.
 */
export const publicNewsQuerySchema = pagingQuerySchema.extend({
  programId: z.uuid().optional(),
  merchantId: z.uuid().optional(),
});
export const publicNewsPageSchema = listPageSchema(publicNewsPostSchema);

/** A post's audit entries (create, update, publish...), newest first. */
export const newsHistorySchema = z.object({ items: z.array(auditEntrySchema) });
export type NewsHistory = z.infer<typeof newsHistorySchema>;

/** The programs and merchants a post may be addressed to (the editor's choices; editors may not read those lists). */
export const newsAudienceOptionsSchema = z.object({
  programs: z.array(z.object({ id: z.string(), name: z.string() })),
  merchants: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type NewsAudienceOptions = z.infer<typeof newsAudienceOptionsSchema>;

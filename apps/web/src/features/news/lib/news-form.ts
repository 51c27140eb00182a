import type { Language } from '@sf/contract/app-info';
import { message } from '@sf/contract/messages';
import {
  createNewsPostSchema,
  type CreateNewsPost,
  type NewsAudience,
  type NewsPost,
  type UpdateNewsPost,
} from '@sf/contract/news';
import { issueField, issueMessage } from '@sf/contract/validation';
import type { FieldErrors, Resolver } from 'react-hook-form';
import { z } from 'zod';
import { instantToWallClock, wallClockToInstant } from '../../../lib/time-zone.ts';

export type PublishMode = 'now' | 'schedule';

export type NewsFormValues = {
  title: string;
  summary: string;
  body: string;
  /** The id of a freshly uploaded cover; null when none was uploaded in this session or it was removed. */
  coverImageId: string | null;
  coverImageUrl: string | null;
  audience: NewsAudience;
  /** The program or merchant of those audiences; null for everyone. */
  audienceId: string | null;
  publishMode: PublishMode;
  /** Wall-clock time in the user's zone, as the date picker holds it. */
  publishAt: string | null;
  pinned: boolean;
};

const shape = createNewsPostSchema.shape;

/** The contract's own field rules, so the form shows exactly what the API would refuse. */
const formSchema = z
  .object({
    title: shape.title,
    summary: shape.summary,
    body: shape.body,
    coverImageId: shape.coverImageId,
    audience: shape.audience,
    audienceId: z.string().nullable(),
    pinned: shape.pinned,
    publishMode: z.enum(['now', 'schedule']),
    publishAt: z.string().nullable(),
  })
  // A program or a merchant audience needs its program or merchant (the server says so too).
  .refine((values) => values.audience === 'everyone' || values.audienceId !== null, { path: ['audienceId'], message: 'required' });

function valueAt(values: Record<string, unknown>, path: PropertyKey[]): unknown {
  return path.reduce<unknown>(
    (current, key) => (current && typeof current === 'object' ? (current as Record<PropertyKey, unknown>)[key] : undefined),
    values,
  );
}

/**
 * A resolver that turns zod issues into the S12 texts (the generic zod resolver would show zod's
 * English messages). An emptied text field reads "<field> is required", not a length rule.
 */
export function newsFormResolver(languageOf: Language | (() => Language)): Resolver<NewsFormValues> {
  return async (values) => {
    // Read per call, so a language switch while the form is open changes the texts at once.
    const language = typeof languageOf === 'function' ? languageOf() : languageOf;
    const result = formSchema.safeParse(values);
    if (result.success) return { values, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const issue of result.error.issues) {
      const field = issueField(issue);
      if (errors[field]) continue;
      const current = valueAt(values as Record<string, unknown>, issue.path);
      const isEmpty = typeof current === 'string' && current.trim() === '';
      errors[field] = {
        type: issue.code,
        message:
          (issue.code === 'too_small' && isEmpty) || (issue.code === 'custom' && issue.message === 'required')
            ? message('required', language, { field })
            : issueMessage(issue, language),
      };
    }
    return { values: {}, errors: errors as FieldErrors<NewsFormValues> };
  };
}

export function emptyNewsForm(): NewsFormValues {
  return {
    title: '',
    summary: '',
    body: '',
    coverImageId: null,
    coverImageUrl: null,
    audience: 'everyone',
    audienceId: null,
    publishMode: 'now',
    publishAt: null,
    pinned: false,
  };
}

export function newsFormFromPost(post: NewsPost, timeZone: string): NewsFormValues {
  return {
    title: post.title,
    summary: post.summary,
    body: post.body,
    coverImageId: null,
    coverImageUrl: post.coverImageUrl,
    audience: post.audience,
    audienceId: post.audienceId,
    publishMode: post.status === 'scheduled' ? 'schedule' : 'now',
    publishAt: post.publishAt ? instantToWallClock(post.publishAt, timeZone) : null,
    pinned: post.pinned,
  };
}

export type SaveIntent = 'draft' | 'publish' | 'schedule' | 'keep';

function statusFor(intent: SaveIntent): CreateNewsPost['status'] | undefined {
  if (intent === 'draft') return 'draft';
  if (intent === 'publish') return 'published';
  if (intent === 'schedule') return 'scheduled';
  return undefined;
}

function publishAtFor(values: NewsFormValues, intent: SaveIntent, timeZone: string): string | null | undefined {
  if (intent === 'schedule') return values.publishAt ? wallClockToInstant(values.publishAt, timeZone) : null;
  if (intent === 'publish') return null;
  return undefined;
}

export function toCreateBody(values: NewsFormValues, intent: SaveIntent, timeZone: string): CreateNewsPost {
  return {
    title: values.title.trim(),
    summary: values.summary.trim(),
    body: values.body,
    coverImageId: values.coverImageId,
    audience: values.audience,
    audienceId: values.audience === 'everyone' ? null : values.audienceId,
    status: statusFor(intent) ?? 'draft',
    publishAt: publishAtFor(values, intent, timeZone) ?? null,
    pinned: values.pinned,
  };
}

/**
 * Only the changed fields go to the server, so a PATCH never overwrites what it did not mean to
 * touch; the cover is sent only when it was replaced or removed here.
 */
export function toUpdateBody(
  values: NewsFormValues,
  dirty: Partial<Record<keyof NewsFormValues, unknown>>,
  intent: SaveIntent,
  version: number,
  timeZone: string,
): UpdateNewsPost {
  const body: UpdateNewsPost = { version };
  if (dirty.title) body.title = values.title.trim();
  if (dirty.summary) body.summary = values.summary.trim();
  if (dirty.body) body.body = values.body;
  if (dirty.coverImageUrl || dirty.coverImageId) body.coverImageId = values.coverImageId;
  if (dirty.pinned) body.pinned = values.pinned;
  if (dirty.audience || dirty.audienceId) {
    body.audience = values.audience;
    body.audienceId = values.audience === 'everyone' ? null : values.audienceId;
  }
  const status = statusFor(intent);
  if (status) body.status = status;
  const publishAt = publishAtFor(values, intent, timeZone);
  if (publishAt !== undefined) body.publishAt = publishAt;
  return body;
}

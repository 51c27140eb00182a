import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamSchema } from '@sf/contract/common';
import { publicNewsPageSchema, publicNewsPostSchema, publicNewsQuerySchema } from '@sf/contract/news';
import { notFound } from '../../lib/errors.ts';
import { findStoredImage, readStoredImage } from '../../lib/uploads.ts';
import { findPublicPosts, uploadUrl, type PostRow } from './news.repository.ts';

const NEWS_CACHE_CONTROL = 'public, max-age=60';
/**
 * Uploads may be cached but are revalidated on every use (issue 30): an erasure deletes a proof's
 * screenshot, and the next use anywhere then gets 404 instead of a copy that outlives it. A file is
 * never replaced under its random id, so its ETag is the id and a revalidation costs a 304 (one
 * indexed row read, no file). A customer's screenshot is `private` (no shared cache keeps it);
 * covers and reward images are public content, shared caches may keep them (and revalidate).
 */
const PERSONAL_UPLOAD_CACHE_CONTROL = 'private, no-cache';
const PUBLIC_UPLOAD_CACHE_CONTROL = 'public, no-cache';

/** Only what the customers' app shows: no author, no internal status or version. */
function toPublicPost(row: PostRow) {
  return {
    id: row.id,
    title: row.title,
    summary: row.summary,
    body: row.body,
    coverImageUrl: row.coverImageId ? uploadUrl(row.coverImageId) : null,
    publishedAt: (row.publishAt ?? row.createdAt).toISOString(),
    pinned: row.pinned,
  };
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  // If-None-Match compares weakly (RFC 9110 13.1.2): W/"x" matches "x".
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}

/**
 * A strong ETag over the serialised answer, so the app's poll costs a 304 when nothing changed. The
 * hook sees the exact bytes that would be sent, so equal tags always mean equal bodies.
 */
async function etagOnSend(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (reply.statusCode !== 200 || typeof payload !== 'string') return payload;
  const etag = `"${createHash('sha256').update(payload).digest('base64url')}"`;
  reply.header('ETag', etag);
  reply.header('Cache-Control', NEWS_CACHE_CONTROL);
  if (matchesEtag(request.headers['if-none-match'], etag)) {
    reply.code(304);
    reply.removeHeader('content-type');
    reply.removeHeader('content-length');
    return '';
  }
  return payload;
}

/** What the customers' app reads without signing in: published news and cover images. */
export const publicNewsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/news',
    {
      config: { access: 'public' },
      onSend: etagOnSend,
      schema: {
        tags: ['public'],
        summary: 'Published posts, pinned first then newest; cacheable (ETag, If-None-Match → 304)',
        querystring: publicNewsQuerySchema,
        response: { 200: publicNewsPageSchema },
      },
    },
    async (request) => {
      const { page, pageSize, programId, merchantId } = request.query;
      const { rows, total } = await findPublicPosts(app.db, app.clock.now(), { page, pageSize }, { programId, merchantId });
      return { items: rows.map(toPublicPost), total, page, pageSize };
    },
  );

  app.get(
    '/news/:id',
    {
      config: { access: 'public' },
      onSend: etagOnSend,
      schema: {
        tags: ['public'],
        summary: 'One published post (404 for anything not published)',
        params: idParamSchema,
        response: { 200: publicNewsPostSchema },
      },
    },
    async (request) => {
      const { rows } = await findPublicPosts(app.db, app.clock.now(), { id: request.params.id });
      const row = rows[0];
      if (!row) throw notFound('post');
      return toPublicPost(row);
    },
  );

  app.get(
    '/uploads/:id',
    {
      // An image, not an API answer: it sets no forgery-protection cookie (plugins/csrf.ts).
      config: { access: 'public', setsCsrfCookie: false },
      schema: {
        tags: ['public'],
        summary: 'An uploaded image (cover, reward image, proof screenshot) with its detected content type; revalidated on every use (ETag)',
        params: z.object({ id: z.string().max(100) }),
      },
    },
    async (request, reply) => {
      const etag = `"${request.params.id}"`;
      if (matchesEtag(request.headers['if-none-match'], etag)) {
        const row = await findStoredImage(app.db, request.params.id);
        if (!row) throw notFound('file');
        return reply
          .code(304)
          .header('ETag', etag)
          .header('Cache-Control', row.purpose === 'proof' ? PERSONAL_UPLOAD_CACHE_CONTROL : PUBLIC_UPLOAD_CACHE_CONTROL)
          .send();
      }
      const image = await readStoredImage({ db: app.db, dataDir: app.env.dataDir }, request.params.id);
      if (!image) throw notFound('file');
      return reply
        .header('Content-Type', image.contentType)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', image.purpose === 'proof' ? PERSONAL_UPLOAD_CACHE_CONTROL : PUBLIC_UPLOAD_CACHE_CONTROL)
        .header('ETag', etag)
        .header('Content-Disposition', 'inline')
        .send(image.bytes);
    },
  );
};

import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamSchema } from '@sf/contract/common';
import {
  coverUploadResponseSchema,
  createNewsPostSchema,
  exportNewsQuerySchema,
  listNewsQuerySchema,
  newsActionSchema,
  newsAudienceOptionsSchema,
  newsHistorySchema,
  newsPageSchema,
  newsPostSchema,
  updateNewsPostSchema,
} from '@sf/contract/news';
import { actorOf } from '../../lib/audit.ts';
import { SINGLE_FILE_LIMITS, readUploadedImage, storeImage } from '../../lib/uploads.ts';
import { newsExportColumns, newsExportQuery, uploadUrl } from './news.repository.ts';
import { registerListRoutes } from '../../lib/list-routes.ts';
import {
  applyAction,
  audienceOptions,
  createPost,
  deletePost,
  getPost,
  listPosts,
  postHistory,
  updatePost,
  type Caller,
} from './news.service.ts';

function callerOf(request: FastifyRequest): Caller {
  // Guarded routes only run after access control has set the user.
  const user = request.user as NonNullable<FastifyRequest['user']>;
  return { actor: actorOf(request), authorId: user.id, language: request.language };
}

/** The News area of the back-office (admin and editor): posts, their history and cover images. */
export const newsRoutes: FastifyPluginAsyncZod = async (app) => {
  // Registered here, not app-wide: only the cover upload accepts multipart bodies.
  await app.register(multipart, { limits: SINGLE_FILE_LIMITS });

  registerListRoutes(app, {
    tags: ['news'],
    permission: 'news:read',
    list: {
      summary: 'List posts: paging, sort, search in title and summary, filter by (effective) status',
      querystring: listNewsQuerySchema,
      response: newsPageSchema,
      page: ({ query }) => listPosts(app, query),
    },
    export: {
      summary: 'The list as CSV for Italian Excel (`;`, BOM, dd/MM/yyyy HH:mm), with the same search, status filter and sort',
      querystring: exportNewsQuerySchema,
      fileName: 'news.csv',
      prepare: ({ query, request }) => {
        const now = app.clock.now();
        const columns = newsExportColumns(now, app.env.BUSINESS_TIME_ZONE, request.language);
        return { columns, query: (tx) => newsExportQuery(tx, now, columns, query) };
      },
    },
  });

  app.get(
    '/audiences',
    {
      config: { permission: 'news:write' },
      schema: {
        tags: ['news'],
        summary: 'The programs and merchants a post may be addressed to (for the editor, who may not read those lists)',
        response: { 200: newsAudienceOptionsSchema },
      },
    },
    async () => audienceOptions(app),
  );

  app.post(
    '/',
    {
      config: { permission: 'news:write' },
      schema: {
        tags: ['news'],
        summary: 'Create a post (scheduled needs a future publishAt; published without one is published now)',
        body: createNewsPostSchema,
        response: { 201: newsPostSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await createPost(app, callerOf(request), request.body)),
  );

  app.post(
    '/cover',
    {
      config: { permission: 'news:write' },
      schema: {
        tags: ['news'],
        summary: 'Upload a cover image (multipart field "file"): PNG, JPEG, WebP or GIF by content, at most 5 MB',
        consumes: ['multipart/form-data'],
        response: { 201: coverUploadResponseSchema },
      },
    },
    async (request, reply) => {
      const { bytes, fileName, type } = await readUploadedImage(request);
      const caller = callerOf(request);
      const { id } = await storeImage(
        { db: app.db, dataDir: app.env.dataDir, quotaBytes: app.env.UPLOAD_QUOTA_BYTES },
        caller.actor,
        { bytes, type, fileName, purpose: 'cover', uploadedBy: caller.authorId },
      );
      return reply.code(201).send({ id, url: uploadUrl(id) });
    },
  );

  app.get(
    '/:id',
    {
      config: { permission: 'news:read' },
      schema: { tags: ['news'], summary: 'One post', params: idParamSchema, response: { 200: newsPostSchema } },
    },
    async (request) => getPost(app, request.params.id),
  );

  app.patch(
    '/:id',
    {
      config: { permission: 'news:write' },
      schema: {
        tags: ['news'],
        summary: 'Change a post; `version` must be the one read (409 version_conflict when someone changed it meanwhile)',
        params: idParamSchema,
        body: updateNewsPostSchema,
        response: { 200: newsPostSchema },
      },
    },
    async (request) => updatePost(app, callerOf(request), request.params.id, request.body),
  );

  app.delete(
    '/:id',
    {
      config: { permission: 'news:write' },
      schema: {
        tags: ['news'],
        summary:
          'Delete a post: a draft or a not-yet-published scheduled post is deleted (204); a published post is archived instead (200 with the post); an archived post is answered unchanged (200)',
        params: idParamSchema,
        response: { 200: newsPostSchema, 204: z.null().describe('Deleted') },
      },
    },
    async (request, reply) => {
      const outcome = await deletePost(app, callerOf(request), request.params.id);
      if (outcome.deleted) return reply.code(204).send(null);
      return reply.code(200).send(outcome.post);
    },
  );

  app.post(
    '/:id/actions',
    {
      config: { permission: 'news:publish' },
      schema: {
        tags: ['news'],
        summary:
          'publish (now, or scheduled when its publishAt is in the future), unpublish (back to draft) or archive; `version` as read',
        params: idParamSchema,
        body: newsActionSchema,
        response: { 200: newsPostSchema },
      },
    },
    async (request) => applyAction(app, callerOf(request), request.params.id, request.body),
  );

  app.get(
    '/:id/history',
    {
      config: { permission: 'news:read' },
      schema: {
        tags: ['news'],
        summary: "The post's audit entries (who changed what, before/after), newest first",
        params: idParamSchema,
        response: { 200: newsHistorySchema },
      },
    },
    async (request) => postHistory(app, request.params.id),
  );
};

import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { uuidParamSchema } from '@sf/contract/list-query';
import { idempotencyHeadersSchema } from '@sf/contract/ledger';
import { coverUploadResponseSchema } from '@sf/contract/news';
import {
  createRedemptionSchema,
  createRewardSchema,
  exportRewardsQuerySchema,
  listRewardsQuerySchema,
  redemptionResultSchema,
  rewardPageSchema,
  rewardSchema,
  updateRewardSchema,
} from '@sf/contract/rewards';
import { actorOf } from '../../lib/audit.ts';
import { callerOf, depsOf, staffActorOf } from '../../lib/caller.ts';
import { registerListRoutes } from '../../lib/list-routes.ts';
import { SINGLE_FILE_LIMITS, readUploadedImage, storeImage } from '../../lib/uploads.ts';
import { rewardExportColumns, rewardExportQuery, uploadUrl } from './rewards.repository.ts';
import { createReward, getReward, listRewards, redeemReward, updateReward } from './rewards.service.ts';

/** An image upload checked like a news cover (type by content, size, the uploader's quota). */
async function storeUploadedImage(app: FastifyInstance, request: FastifyRequest) {
  const { bytes, fileName, type } = await readUploadedImage(request);
  const user = request.user as NonNullable<FastifyRequest['user']>;
  const { id } = await storeImage(
    { db: app.db, dataDir: app.env.dataDir, quotaBytes: app.env.UPLOAD_QUOTA_BYTES },
    actorOf(request),
    { bytes, type, fileName, purpose: 'reward', uploadedBy: user.id },
  );
  return { id, url: uploadUrl(id) };
}

/** Premi (admin): rewards and their images; their vouchers are in `vouchers.routes.ts`. */
export const rewardRoutes: FastifyPluginAsyncZod = async (app) => {
  // Registered here, not app-wide: only the image upload takes a multipart body.
  await app.register(multipart, { limits: SINGLE_FILE_LIMITS });
  const deps = depsOf(app);

  registerListRoutes(app, {
    tags: ['rewards'],
    permission: 'rewards:read',
    list: {
      summary: 'List rewards: paging, sort, search by name, filters programId/status; voucher counts by status',
      querystring: listRewardsQuerySchema,
      response: rewardPageSchema,
      page: ({ query }) => listRewards(deps, query),
    },
    export: {
      summary: 'The list as CSV for Italian Excel, with its search, filters and sort',
      querystring: exportRewardsQuerySchema,
      fileName: 'premi.csv',
      prepare: ({ query, request }) => {
        const columns = rewardExportColumns(request.language, deps.timeZone);
        return { columns, query: (tx) => rewardExportQuery(tx, columns, query) };
      },
    },
  });

  app.post(
    '/',
    {
      config: { permission: 'rewards:write' },
      schema: { tags: ['rewards'], summary: 'Create a reward (cost in the program’s unit: points or stamps)', body: createRewardSchema, response: { 201: rewardSchema } },
    },
    async (request, reply) => reply.code(201).send(await createReward(deps, callerOf(request), request.body)),
  );

  app.post(
    '/image',
    {
      config: { permission: 'rewards:write' },
      schema: {
        tags: ['rewards'],
        summary: 'Upload a reward image (multipart field "file"): PNG, JPEG, WebP or GIF by content, at most 5 MB; pass its id as imageId',
        consumes: ['multipart/form-data'],
        response: { 201: coverUploadResponseSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await storeUploadedImage(app, request)),
  );

  app.get(
    '/:id',
    {
      config: { permission: 'rewards:read' },
      schema: { tags: ['rewards'], summary: 'One reward', params: uuidParamSchema, response: { 200: rewardSchema } },
    },
    async (request) => getReward(deps, request.params.id),
  );

  app.patch(
    '/:id',
    {
      config: { permission: 'rewards:write' },
      schema: {
        tags: ['rewards'],
        summary: 'Change a reward; `version` as read (409 version_conflict)',
        params: uuidParamSchema,
        body: updateRewardSchema,
        response: { 200: rewardSchema },
      },
    },
    async (request) => updateReward(deps, callerOf(request), request.params.id, request.body),
  );
};

/** `POST /api/admin/redemptions`: a reward for a customer, paid from the ledger, with its voucher. */
export const redemptionRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = depsOf(app);
  app.post(
    '/',
    {
      config: { permission: 'rewards:redeem' },
      schema: {
        tags: ['rewards'],
        summary: 'Redeem a reward for a customer: a redeem entry and a voucher in one transaction, idempotently',
        description:
          'Idempotency-Key as for the ledger: a retry answers the first answer (Idempotent-Replayed: true). ' +
          '`merchantId` (optional): the merchant where the reward is handed over, recorded on the redeem entry; an active merchant of ' +
          'the reward’s program, else 400 on the field. Errors: 409 out_of_stock, reward_limit_reached, reward_not_available, insufficient_balance; 404 for an unknown reward.',
        headers: idempotencyHeadersSchema,
        body: createRedemptionSchema,
        response: { 201: redemptionResultSchema },
      },
    },
    async (request, reply) => {
      const answer = await redeemReward(deps, staffActorOf(request), request.body, request.headers['idempotency-key']);
      if (answer.isReplay) reply.header('Idempotent-Replayed', 'true');
      return reply.code(answer.status as 201).send(answer.body);
    },
  );
};

import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { queryBooleanSchema, uuidParamSchema } from '@sf/contract/list-query';
import { idempotencyHeadersSchema } from '@sf/contract/ledger';
import { coverUploadResponseSchema } from '@sf/contract/news';
import {
  createRedemptionSchema,
  createRewardSchema,
  exportRewardsQuerySchema,
  exportVouchersQuerySchema,
  generateVouchersSchema,
  listRewardsQuerySchema,
  listVouchersQuerySchema,
  redemptionResultSchema,
  rewardPageSchema,
  rewardSchema,
  updateRewardSchema,
  useVoucherSchema,
  voucherBatchResultSchema,
  voucherCheckSchema,
  voucherCodeParamSchema,
  voucherIdParamSchema,
  voucherPageSchema,
  voucherSchema,
} from '@sf/contract/rewards';
import { actorOf } from '../../lib/audit.ts';
import { callerOf, depsOf, staffActorOf } from '../../lib/caller.ts';
import { schemaFailed } from '../../lib/errors.ts';
import { registerListRoutes } from '../../lib/list-routes.ts';
import { IMAGE_MAX_BYTES, readUploadedFile, readUploadedImage, storeImage } from '../../lib/uploads.ts';
import { localDate } from '../../lib/business-days.ts';
import { rewardExportColumns, rewardExportQuery, uploadUrl, voucherExportColumns, voucherExportQuery } from './rewards.repository.ts';
import { createReward, getReward, listRewards, redeemReward, updateReward } from './rewards.service.ts';
import { generateVouchers, importVouchers, listVouchers, voidVoucher } from './vouchers.service.ts';
import { checkVoucher, useVoucher } from './voucher-use.service.ts';

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

const multipartLimits = { fileSize: IMAGE_MAX_BYTES, files: 1, fields: 0, parts: 1, fieldNameSize: 100, headerPairs: 50 };

/** Premi (admin): rewards, their vouchers (generate, import, list, export, void). */
export const rewardRoutes: FastifyPluginAsyncZod = async (app) => {
  // Registered here, not app-wide: only the image upload and the voucher import take multipart bodies.
  await app.register(multipart, { limits: multipartLimits });
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

  registerListRoutes(app, {
    path: '/:id/vouchers',
    tags: ['rewards'],
    permission: 'rewards:read',
    params: uuidParamSchema,
    list: {
      summary: "A reward's vouchers: status (available, issued, used, expired, void), search by code, filter by customer",
      querystring: listVouchersQuerySchema,
      response: voucherPageSchema,
      page: ({ params, query }) => listVouchers(deps, params.id, query),
    },
    export: {
      summary: "A reward's vouchers as CSV for Italian Excel",
      querystring: exportVouchersQuerySchema,
      prepare: async ({ params, query, request }) => {
        await getReward(deps, params.id);
        const today = localDate(deps.clock.now(), deps.timeZone);
        const columns = voucherExportColumns(request.language, deps.timeZone, today);
        return { columns, fileName: `buoni-${today}.csv`, query: (tx) => voucherExportQuery(tx, params.id, columns, query, today) };
      },
    },
  });

  app.post(
    '/:id/vouchers',
    {
      config: { permission: 'rewards:write' },
      schema: {
        tags: ['rewards'],
        summary: 'Generate `{ count }` codes (JSON body, count 1–10000), or import codes from a CSV file (multipart field "file"; ?dryRun=true reports without storing)',
        description:
          'CSV: one code per row, in the column headed "code"/"codice" or the first; Italian Excel (";", BOM) or comma-separated UTF-8. ' +
          'Rows with an invalid, repeated or existing code are reported with their row number and skipped.',
        params: uuidParamSchema,
        querystring: z.object({ dryRun: queryBooleanSchema.optional() }),
        response: { 201: voucherBatchResultSchema, 200: voucherBatchResultSchema },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      if (request.isMultipart()) {
        const { bytes } = await readUploadedFile(request);
        const dryRun = request.query.dryRun ?? false;
        const result = await importVouchers(deps, caller, request.params.id, bytes, { dryRun });
        return reply.code(dryRun ? 200 : 201).send(result);
      }
      // Checked here rather than as the route's body schema, which would refuse the multipart import.
      const parsed = generateVouchersSchema.safeParse(request.body ?? {});
      if (!parsed.success) {
        throw schemaFailed(parsed.error.issues);
      }
      return reply.code(201).send(await generateVouchers(deps, caller, request.params.id, parsed.data.count));
    },
  );

  app.post(
    '/:id/vouchers/:voucherId/void',
    {
      config: { permission: 'rewards:write' },
      schema: {
        tags: ['rewards'],
        summary: 'Void an available or issued voucher (a used one: 409 voucher_used). Points are not given back: reverse the redeem entry for that',
        params: voucherIdParamSchema,
        response: { 200: voucherSchema },
      },
    },
    async (request) => voidVoucher(deps, callerOf(request), request.params.id, request.params.voucherId),
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
          'Errors: 409 out_of_stock, reward_limit_reached, reward_not_available, insufficient_balance; 404 for an unknown reward.',
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

/** A voucher at the till, from the back-office: check it, use it once. */
export const voucherRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = depsOf(app);
  app.get(
    '/:code',
    {
      config: { permission: 'vouchers:use' },
      schema: {
        tags: ['rewards'],
        summary: 'Check a voucher code for a merchant: status, whether it can be used there now and if not why',
        params: voucherCodeParamSchema,
        querystring: useVoucherSchema,
        response: { 200: voucherCheckSchema },
      },
    },
    async (request) => checkVoucher(deps, { code: request.params.code, merchantId: request.query.merchantId }),
  );

  app.post(
    '/:code/use',
    {
      config: { permission: 'vouchers:use' },
      schema: {
        tags: ['rewards'],
        summary: 'Use a voucher at a merchant of its program, once',
        description:
          '409 voucher_used (already used), voucher_expired (past the reward window), voucher_not_yet_valid, voucher_not_issued, ' +
          'voucher_void, voucher_wrong_merchant (the merchant is not in the reward’s program); 404 unknown code.',
        params: voucherCodeParamSchema,
        body: useVoucherSchema,
        response: { 200: voucherCheckSchema },
      },
    },
    async (request) => useVoucher(deps, staffActorOf(request), { code: request.params.code, merchantId: request.body.merchantId }),
  );
};

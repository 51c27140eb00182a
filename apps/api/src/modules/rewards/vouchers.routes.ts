import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { queryBooleanSchema, uuidParamSchema } from '@sf/contract/list-query';
import {
  exportVouchersQuerySchema,
  generateVouchersSchema,
  listVouchersQuerySchema,
  useVoucherSchema,
  voucherBatchResultSchema,
  voucherCheckSchema,
  voucherCodeParamSchema,
  voucherIdParamSchema,
  voucherPageSchema,
  voucherSchema,
} from '@sf/contract/rewards';
import { callerOf, depsOf, staffActorOf } from '../../lib/caller.ts';
import { schemaFailed } from '../../lib/errors.ts';
import { registerListRoutes } from '../../lib/list-routes.ts';
import { SINGLE_FILE_LIMITS, readUploadedFile } from '../../lib/uploads.ts';
import { localDate } from '../../lib/business-days.ts';
import { voucherExportColumns, voucherExportQuery } from './rewards.repository.ts';
import { getReward } from './rewards.service.ts';
import { generateVouchers, importVouchers, listVouchers, voidVoucher } from './vouchers.service.ts';
import { ADMIN_VOUCHER_USE_SCOPE, checkVoucher, useVoucher } from './voucher-use.service.ts';
import { optionalIdempotencyHeadersSchema } from '@sf/contract/ledger';

/** A reward's vouchers (admin), under `/admin/rewards/:id/vouchers`: generate, import, list, export, void. */
export const rewardVoucherRoutes: FastifyPluginAsyncZod = async (app) => {
  // Registered here, not app-wide: only the voucher import takes a multipart body.
  await app.register(multipart, { limits: SINGLE_FILE_LIMITS });
  const deps = depsOf(app);

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
          'Answers the voucher as used (`usable: false`, reason voucher_used). With Idempotency-Key a retry answers the first ' +
          'answer (Idempotent-Replayed: true) instead of 409 voucher_used; the same key for another code or merchant: 422. ' +
          '409 voucher_used (already used), voucher_expired (past the reward window), voucher_not_yet_valid, voucher_not_issued, ' +
          'voucher_void, voucher_wrong_merchant (the merchant is not in the reward’s program); 404 unknown code.',
        params: voucherCodeParamSchema,
        headers: optionalIdempotencyHeadersSchema,
        body: useVoucherSchema,
        response: { 200: voucherCheckSchema },
      },
    },
    async (request, reply) => {
      const idempotencyKey = request.headers['idempotency-key'];
      const answer = await useVoucher(
        deps,
        staffActorOf(request),
        { code: request.params.code, merchantId: request.body.merchantId },
        idempotencyKey === undefined ? undefined : { scope: ADMIN_VOUCHER_USE_SCOPE, key: idempotencyKey },
      );
      if (answer.isReplay) reply.header('Idempotent-Replayed', 'true');
      return answer.body;
    },
  );
};

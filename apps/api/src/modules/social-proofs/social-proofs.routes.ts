import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { coverUploadResponseSchema } from '@sf/contract/news';
import {
  createSocialProofSchema,
  decideSocialProofsResultSchema,
  decideSocialProofsSchema,
  exportSocialProofsQuerySchema,
  listSocialProofsQuerySchema,
  socialProofPageSchema,
  socialProofSchema,
} from '@sf/contract/social-proofs';
import { callerOf, depsOf } from '../../lib/caller.ts';
import { registerListRoutes } from '../../lib/list-routes.ts';
import { SINGLE_FILE_LIMITS, readUploadedFile } from '../../lib/uploads.ts';
import { staffActorOf } from '../../lib/caller.ts';
import { proofExportColumns, proofExportQuery } from './social-proofs.repository.ts';
import { decideProofs, listProofs, proofWhere, storeProofImage, submitProof } from './social-proofs.service.ts';

/** Approvazioni (admin): the social-action proofs queue, its decisions and export. */
export const socialProofRoutes: FastifyPluginAsyncZod = async (app) => {
  // Only the screenshot upload takes a multipart body.
  await app.register(multipart, { limits: SINGLE_FILE_LIMITS });
  const deps = depsOf(app);

  registerListRoutes(app, {
    tags: ['social-proofs'],
    permission: 'proofs:read',
    hasPeriod: true,
    list: {
      summary: 'The queue: pending first (oldest first); filters status, kind, program, merchant, customer, period (from/to days); search by customer or link',
      querystring: listSocialProofsQuerySchema,
      response: socialProofPageSchema,
      page: ({ query }) => listProofs(deps, query),
    },
    export: {
      summary: 'The queue as CSV for Italian Excel, with its filters and sort',
      querystring: exportSocialProofsQuerySchema,
      fileName: 'approvazioni.csv',
      prepare: ({ query, request }) => {
        const columns = proofExportColumns(request.language, deps.timeZone);
        return { columns, query: (tx) => proofExportQuery(tx, columns, proofWhere(query, deps.timeZone), query) };
      },
    },
  });

  app.post(
    '/',
    {
      config: { permission: 'proofs:decide' },
      schema: {
        tags: ['social-proofs'],
        summary: "File a proof on a customer's behalf (a link and/or a screenshot uploaded with POST /image)",
        body: createSocialProofSchema,
        response: { 201: socialProofSchema },
      },
    },
    async (request, reply) => {
      const actor = staffActorOf(request);
      const { proof } = await submitProof(deps, { label: actor.label, audit: actor.audit, channel: 'back-office', uploader: { userId: actor.id! } }, request.body);
      return reply.code(201).send(proof);
    },
  );

  app.post(
    '/image',
    {
      config: { permission: 'proofs:decide' },
      schema: {
        tags: ['social-proofs'],
        summary: 'Upload a screenshot (multipart field "file"): PNG, JPEG, WebP or GIF by content, at most 5 MB',
        consumes: ['multipart/form-data'],
        response: { 201: coverUploadResponseSchema },
      },
    },
    async (request, reply) => {
      const { bytes, fileName } = await readUploadedFile(request);
      const actor = staffActorOf(request);
      const stored = await storeProofImage(
        { db: app.db, dataDir: app.env.dataDir, quotaBytes: app.env.UPLOAD_QUOTA_BYTES },
        actor.audit,
        { bytes, fileName, uploader: { userId: actor.id! } },
      );
      return reply.code(201).send(stored);
    },
  );

  app.post(
    '/decisions',
    {
      config: { permission: 'proofs:decide' },
      schema: {
        tags: ['social-proofs'],
        summary: 'Approve or reject proofs (one or many; a reason is required to reject); one outcome per id',
        description:
          'Approval writes the bonus of the program for the kind as an earn entry, once per proof, within the monthly cap ' +
          '(beyond it: approved with 0 points and the reason). Each decision is audited.',
        body: decideSocialProofsSchema,
        response: { 200: decideSocialProofsResultSchema },
      },
    },
    async (request) => decideProofs(deps, callerOf(request), request.body),
  );
};

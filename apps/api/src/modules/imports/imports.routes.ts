import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { uuidParamSchema } from '@sf/contract/list-query';
import { createImportFieldsSchema, importDetailSchema, importPageSchema, listImportsQuerySchema } from '@sf/contract/imports';
import { callerOf } from '../../lib/caller.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { sendCsv } from '../../db/csv-export.ts';
import { cancelImport, createImport, discardUnkeptUpload, getImport, importDeps, importErrorsExport, listImports, startImport, storeUpload } from './imports.service.ts';
import { nudgeBackgroundJobs } from '../../lib/job-runner.ts';

/** Importazioni (admin): CSV imports of customers and opening balances, their checks and progress. */
export const importRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = importDeps(app);
  // Registered here, not app-wide: only the import upload takes multipart bodies. A file may be as
  // large as the upload quota (UPLOAD_QUOTA_BYTES); it is kept under DATA_DIR/imports until the end.
  await app.register(multipart, {
    limits: { fileSize: app.env.UPLOAD_QUOTA_BYTES, files: 1, fields: 6, parts: 7, fieldNameSize: 100, fieldSize: 20_000, headerPairs: 50 },
  });

  app.get(
    '/',
    {
      config: { permission: 'imports:read' },
      schema: { tags: ['imports'], summary: 'List imports: q (file name), kind, status', querystring: listImportsQuerySchema, response: { 200: importPageSchema } },
    },
    async (request) => listImports(deps, request.query),
  );

  app.post(
    '/',
    {
      config: { permission: 'imports:write' },
      schema: {
        tags: ['imports'],
        summary:
          'Upload a CSV (multipart: file, kind customers|balances, dryRun true|false, mapping JSON field→column, programId, sendWelcome true|false: the welcome e-mail to each imported customer): Italian Excel or plain CSV, detected; every row is checked; with dryRun=false the import is queued',
        consumes: ['multipart/form-data'],
        response: { 201: importDetailSchema },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) {
        throw new AppError(415, 'unsupported_media_type', { text: 'multipart_required' });
      }
      const fields: Record<string, string> = {};
      let stored: { storedName: string; size: number; fileName: string } | undefined;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            if (part.fieldname !== 'file' || stored) {
              part.file.resume();
              continue;
            }
            const result = await storeUpload(deps, part.file);
            stored = { ...result, fileName: part.filename };
          } else {
            fields[part.fieldname] = String(part.value);
          }
        }
        if (!stored) {
          throw fieldError('file', 'required');
        }
        const parsed = createImportFieldsSchema.safeParse(fields);
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          const field = String(issue.path[0] ?? 'file');
          throw fieldError(field, fields[field] === undefined ? 'required' : 'invalid');
        }
        const result = await createImport(deps, callerOf(request), { ...parsed.data, ...stored });
        if (result.status === 'queued') nudgeBackgroundJobs(app.log);
        return reply.code(201).send(result);
      } catch (error) {
        if (stored && !(error instanceof AppError && error.statusCode >= 500)) {
          await discardUnkeptUpload(deps, stored.storedName);
        }
        throw error;
      }
    },
  );

  app.get(
    '/:id',
    {
      config: { permission: 'imports:read' },
      schema: { tags: ['imports'], summary: 'One import: status, progress, counts, report and its first row errors', params: uuidParamSchema, response: { 200: importDetailSchema } },
    },
    async (request) => getImport(deps, request.params.id, request.language),
  );

  app.get(
    '/:id/errors.csv',
    {
      config: { permission: 'imports:read' },
      schema: { tags: ['imports'], summary: "Every row error (row, column, message in the reader's language) as CSV for Italian Excel", params: uuidParamSchema },
    },
    async (request, reply) => {
      return sendCsv(reply, await importErrorsExport(deps, callerOf(request), request.params.id));
    },
  );

  app.post(
    '/:id/start',
    {
      config: { permission: 'imports:write' },
      schema: { tags: ['imports'], summary: 'Start a checked import (status validated → queued): it runs as a background job', params: uuidParamSchema, response: { 200: importDetailSchema } },
    },
    async (request) => {
      const result = await startImport(deps, callerOf(request), request.params.id);
      // The person is watching the progress bar: the runner starts now, not at its next interval.
      nudgeBackgroundJobs(app.log);
      return result;
    },
  );

  app.post(
    '/:id/cancel',
    {
      config: { permission: 'imports:write' },
      schema: { tags: ['imports'], summary: 'Cancel an import: it stops before its next batch; rows already imported stay', params: uuidParamSchema, response: { 200: importDetailSchema } },
    },
    async (request) => cancelImport(deps, callerOf(request), request.params.id),
  );
};

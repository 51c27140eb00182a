import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { can } from '@sf/contract/roles';
import {
  createLedgerEntrySchema,
  exportLedgerQuerySchema,
  idempotencyHeadersSchema,
  ledgerEntryIdParamSchema,
  ledgerPageSchema,
  ledgerWriteResultSchema,
  listLedgerQuerySchema,
  reverseLedgerEntrySchema,
} from '@sf/contract/ledger';
import { forbidden } from '../../lib/errors.ts';
import { registerListRoutes } from '../../lib/list-routes.ts';
import { ledgerExportColumns, ledgerExportQuery } from './ledger-export.repository.ts';
import { createEntry, filtersOf, listEntries, reverseEntry, type EntryCaller } from './ledger.service.ts';
import { localDate } from '../../lib/business-days.ts';
import { depsOf, staffActorOf } from '../../lib/caller.ts';

/** Movimenti (docs/product.md D "Ledger", F): admin only. */
export const ledgerRoutes: FastifyPluginAsyncZod = async (app) => {
  registerListRoutes(app, {
    tags: ['ledger'],
    permission: 'ledger:read',
    hasPeriod: true,
    list: {
      summary: 'Ledger entries, newest first, with filters (customer, program, merchant, kind, source, period)',
      description: `total counts at most ${100_000} rows; narrow with filters to see an exact figure beyond it.`,
      querystring: listLedgerQuerySchema,
      response: ledgerPageSchema,
      page: ({ query }) => listEntries(depsOf(app), query),
    },
    export: {
      summary: 'The filtered ledger as CSV for Italian Excel (";", UTF-8 BOM, comma decimals, dd/MM/yyyy), streamed',
      querystring: exportLedgerQuerySchema,
      prepare: ({ query, request }) => {
        const deps = depsOf(app);
        const language = request.language;
        const columns = ledgerExportColumns(deps.timeZone, language);
        return {
          columns,
          fileName: `movimenti-${localDate(app.clock.now(), deps.timeZone)}.csv`,
          query: () => ledgerExportQuery(columns, filtersOf(query)),
        };
      },
    },
  });

  app.post(
    '/',
    {
      // The busiest write: the caller's account is read in the write's own first round trip.
      config: { permission: 'ledger:write', accountCheckInWrite: true },
      schema: {
        tags: ['ledger'],
        summary: 'Record a purchase, a redemption, an adjustment (points:adjust) or a bonus, idempotently',
        description:
          'The Idempotency-Key header makes retries safe: the same key and body answer the first answer again ' +
          '(header Idempotent-Replayed: true) without a second entry; another body with the same key is 422 ' +
          'idempotency_key_reused; while the first is still running, 409 idempotency_key_in_flight.',
        headers: idempotencyHeadersSchema,
        body: createLedgerEntrySchema,
        response: { 201: ledgerWriteResultSchema },
      },
    },
    async (request, reply) => {
      // An adjustment also needs points:adjust, decided on the account as read for this request.
      const authorised = (user: NonNullable<FastifyRequest['user']>) => {
        if (request.body.kind === 'adjust' && !can(user.role, 'points:adjust')) throw forbidden();
        return staffActorOf(request);
      };
      const pending = request.pendingAccountCheck;
      const caller: EntryCaller = pending
        ? { check: pending.statement, settle: (rows) => authorised(pending.settle(rows)) }
        : authorised(request.user as NonNullable<FastifyRequest['user']>);
      const answer = await createEntry(depsOf(app), caller, request.body, request.headers['idempotency-key']);
      if (answer.isReplay) reply.header('Idempotent-Replayed', 'true');
      return reply.code(answer.status as 201).send(answer.body as never);
    },
  );

  app.post(
    '/:id/reversal',
    {
      config: { permission: 'ledger:write' },
      schema: {
        tags: ['ledger'],
        summary: 'Reverse an entry with a new entry of the opposite sign (at most one reversal per entry)',
        headers: idempotencyHeadersSchema,
        params: ledgerEntryIdParamSchema,
        body: reverseLedgerEntrySchema,
        response: { 201: ledgerWriteResultSchema },
      },
    },
    async (request, reply) => {
      const answer = await reverseEntry(
        depsOf(app),
        staffActorOf(request),
        request.params.id,
        request.body.reason,
        request.headers['idempotency-key'],
      );
      if (answer.isReplay) reply.header('Idempotent-Replayed', 'true');
      return reply.code(answer.status as 201).send(answer.body as never);
    },
  );
};

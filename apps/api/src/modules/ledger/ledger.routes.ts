import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { stringify } from 'csv-stringify';
import { can } from '@sf/contract/roles';
import { message } from '@sf/contract/messages';
import {
  createLedgerEntrySchema,
  exportLedgerQuerySchema,
  idempotencyHeadersSchema,
  ledgerEntryIdParamSchema,
  ledgerPageSchema,
  ledgerWriteResultSchema,
  listLedgerQuerySchema,
  reverseLedgerEntrySchema,
  type LedgerEntry,
} from '@sf/contract/ledger';
import { actorOf } from '../../lib/audit.ts';
import { forbidden, validationFailed } from '../../lib/errors.ts';
import { iterateEntries } from './ledger.repository.ts';
import { createEntry, filtersOf, listEntries, reverseEntry, type LedgerCaller, type LedgerDeps } from './ledger.service.ts';
import { localDate } from './ledger.rules.ts';

export function ledgerDeps(app: FastifyInstance): LedgerDeps {
  return { db: app.db, clock: app.clock, timeZone: app.env.BUSINESS_TIME_ZONE };
}

function callerOf(request: FastifyRequest): LedgerCaller {
  const user = request.user as NonNullable<FastifyRequest['user']>;
  return { id: user.id, label: user.email, audit: actorOf(request) };
}

function checkPeriod(request: FastifyRequest, from?: string, to?: string) {
  if (from && to && new Date(from).getTime() > new Date(to).getTime()) {
    const text = message('invalid', request.language, { field: 'to' });
    throw validationFailed(text, [{ field: 'to', message: text }]);
  }
}

/** Movimenti (PRODUCT.md D "Ledger", F): admin only. */
export const ledgerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/',
    {
      config: { permission: 'ledger:read' },
      schema: {
        tags: ['ledger'],
        summary: 'Ledger entries, newest first, with filters (customer, program, merchant, kind, source, period)',
        description: `total counts at most ${100_000} rows; narrow with filters to see an exact figure beyond it.`,
        querystring: listLedgerQuerySchema,
        response: { 200: ledgerPageSchema },
      },
    },
    async (request) => {
      checkPeriod(request, request.query.from, request.query.to);
      return listEntries(ledgerDeps(app), request.query);
    },
  );

  app.post(
    '/',
    {
      config: { permission: 'ledger:write' },
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
      const user = request.user as NonNullable<FastifyRequest['user']>;
      if (request.body.kind === 'adjust' && !can(user.role, 'points:adjust')) throw forbidden();
      const answer = await createEntry(ledgerDeps(app), callerOf(request), request.body, request.headers['idempotency-key']);
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
        ledgerDeps(app),
        callerOf(request),
        request.params.id,
        request.body.reason,
        request.headers['idempotency-key'],
      );
      if (answer.isReplay) reply.header('Idempotent-Replayed', 'true');
      return reply.code(answer.status as 201).send(answer.body as never);
    },
  );

  app.get(
    '/export.csv',
    {
      config: { permission: 'ledger:read' },
      schema: {
        tags: ['ledger'],
        summary: 'The filtered ledger as CSV for Italian Excel (";", UTF-8 BOM, comma decimals, dd/MM/yyyy), streamed',
        querystring: exportLedgerQuerySchema,
      },
    },
    async (request, reply) => {
      checkPeriod(request, request.query.from, request.query.to);
      const deps = ledgerDeps(app);
      const timeZone = deps.timeZone;
      const time = new Intl.DateTimeFormat('it-IT', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
      const euros = new Intl.NumberFormat('it-IT', { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: false });
      const italianDate = (iso: string) => {
        const [y, m, d] = localDate(new Date(iso), timeZone).split('-');
        return `${d}/${m}/${y} ${time.format(new Date(iso))}`;
      };
      const header = ['id', 'data', 'tipo', 'origine', 'cliente', 'programma', 'esercente', 'punti', 'timbri', 'importo_euro', 'motivo', 'storno_di', 'scadenza', 'operatore'];
      async function* rows() {
        yield header;
        for await (const e of iterateEntries(deps.db, filtersOf(request.query)) as AsyncGenerator<LedgerEntry>) {
          yield [
            e.id,
            italianDate(e.createdAt),
            e.kind,
            e.source,
            e.customerId,
            e.programId,
            e.merchantId ?? '',
            e.points,
            e.stamps,
            e.amountCents === null ? '' : euros.format(e.amountCents / 100),
            e.reason ?? '',
            e.reversesId ?? '',
            e.expiresOn ? e.expiresOn.split('-').reverse().join('/') : '',
            e.createdByLabel,
          ];
        }
      }
      const csv = Readable.from(rows()).pipe(stringify({ delimiter: ';', bom: true, record_delimiter: '\r\n' }));
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="movimenti-${localDate(app.clock.now(), timeZone)}.csv"`)
        .send(csv);
    },
  );
};

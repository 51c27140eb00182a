import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
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
import { actorOf } from '../../lib/audit.ts';
import { forbidden } from '../../lib/errors.ts';
import { csvCell, type CsvColumns } from '../../db/csv-export.ts';
import { VALUE_LABELS } from '@sf/contract/value-labels';
import { registerListRoutes } from '../../lib/list-routes.ts';
import { whereOf } from './ledger.repository.ts';
import { createEntry, filtersOf, listEntries, reverseEntry, type EntryCaller, type LedgerCaller, type LedgerDeps } from './ledger.service.ts';
import { localDate } from './ledger.rules.ts';

export function ledgerDeps(app: FastifyInstance): LedgerDeps {
  return { db: app.db, clock: app.clock, timeZone: app.env.BUSINESS_TIME_ZONE };
}

function callerOf(request: FastifyRequest): LedgerCaller {
  const user = request.user as NonNullable<FastifyRequest['user']>;
  return { id: user.id, label: user.email, audit: actorOf(request) };
}

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
      page: ({ query }) => listEntries(ledgerDeps(app), query),
    },
    export: {
      summary: 'The filtered ledger as CSV for Italian Excel (";", UTF-8 BOM, comma decimals, dd/MM/yyyy), streamed',
      querystring: exportLedgerQuerySchema,
      prepare: ({ query, request }) => {
        const deps = ledgerDeps(app);
        const language = request.language;
        const e = (column: string) => sql.raw(`e.${column}`);
        // Names and card numbers, as a person reads them; the ids stay as the last columns (for joins).
        const customer = (column: string) => sql.raw(`(select ${column} from customers c where c.id = e.customer_id)`);
        const columns: CsvColumns = {
          id: { header: { it: 'ID', en: 'ID' }, value: csvCell.integer(e('id')) },
          createdAt: { header: { it: 'Data', en: 'Date' }, value: csvCell.dateTime(e('created_at'), deps.timeZone) },
          kind: { header: { it: 'Tipo', en: 'Kind' }, value: csvCell.label(e('kind'), VALUE_LABELS.ledgerKind, language) },
          source: { header: { it: 'Origine', en: 'Source' }, value: csvCell.label(e('source'), VALUE_LABELS.ledgerSource, language) },
          customer: { header: { it: 'Cliente', en: 'Customer' }, value: csvCell.text(customer(`c.first_name || ' ' || c.last_name`)) },
          cardNumber: { header: { it: 'Numero tessera', en: 'Card number' }, value: csvCell.text(customer('c.card_number')) },
          program: { header: { it: 'Programma', en: 'Program' }, value: csvCell.text(sql.raw('(select p.name from programs p where p.id = e.program_id)')) },
          merchant: {
            header: { it: 'Esercente', en: 'Merchant' },
            value: csvCell.text(sql.raw('(select coalesce(m.sign_name, m.legal_name) from merchants m where m.id = e.merchant_id)')),
          },
          points: { header: { it: 'Punti', en: 'Points' }, value: csvCell.integer(e('points')) },
          stamps: { header: { it: 'Timbri', en: 'Stamps' }, value: csvCell.integer(e('stamps')) },
          amount: { header: { it: 'Importo (€)', en: 'Amount (€)' }, value: csvCell.cents(e('amount_cents')) },
          balanceAfter: { header: { it: 'Saldo dopo', en: 'Balance after' }, value: csvCell.integer(e('balance_after')) },
          reason: { header: { it: 'Motivo', en: 'Reason' }, value: csvCell.text(e('reason')) },
          reversesId: { header: { it: 'Storno di', en: 'Reverses' }, value: csvCell.integer(e('reverses_id')) },
          expiresOn: { header: { it: 'Scadenza', en: 'Expires on' }, value: csvCell.date(e('expires_on')) },
          createdBy: { header: { it: 'Operatore', en: 'Made by' }, value: csvCell.text(e('created_by_label')) },
          customerId: { header: { it: 'ID cliente', en: 'Customer ID' }, value: csvCell.text(e('customer_id')) },
          programId: { header: { it: 'ID programma', en: 'Program ID' }, value: csvCell.text(e('program_id')) },
          merchantId: { header: { it: 'ID esercente', en: 'Merchant ID' }, value: csvCell.text(e('merchant_id')) },
        };
        const selection = sql.join(
          Object.values(columns).map((column, index) => sql`${column.value} as ${sql.raw(`c${index}`)}`),
          sql`, `,
        );
        const where = whereOf(filtersOf(query));
        return {
          columns,
          fileName: `movimenti-${localDate(app.clock.now(), deps.timeZone)}.csv`,
          query: () => sql`select ${selection} from ledger_entries e where ${where} order by e.created_at desc, e.id desc`,
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
        return callerOf(request);
      };
      const pending = request.pendingAccountCheck;
      const caller: EntryCaller = pending
        ? { check: pending.statement, settle: (rows) => authorised(pending.settle(rows)) }
        : authorised(request.user as NonNullable<FastifyRequest['user']>);
      const answer = await createEntry(ledgerDeps(app), caller, request.body, request.headers['idempotency-key']);
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
};

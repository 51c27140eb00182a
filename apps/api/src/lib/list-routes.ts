import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { SQLWrapper } from 'drizzle-orm';
import type { z } from 'zod';
import type { Permission } from '@sf/contract/roles';
import type { Language } from '@sf/contract/app-info';
import { sendCsv, type CsvColumns } from '../db/csv-export.ts';
import type { Transaction } from '../db/client.ts';
import { recordAudit } from './audit.ts';
import { fieldError } from './errors.ts';
import { callerOf } from './caller.ts';

/**
 * The list-route factory (docs/decisions/013): a resource DECLARES its list — who may read it, its
 * query schemas, the page handler over `findPage`, its CSV columns and export query — and this file
 * registers `GET <path>` and `GET <path>/export.csv` the same way for all of them: one permission for
 * both, the same checks before both (e.g. a period), and the export streamed in the Italian Excel
 * dialect, audited in its own transaction when the list holds personal data (B5). Both read on the
 * read replica when there is one (`readReplica`, db/read-replica.ts).
 */

type Schema = z.ZodType;
type Out<S extends Schema | undefined> = S extends Schema ? z.output<S> : Record<string, never>;

/** What a list's handlers get: the checked query and path parameters, and the request. */
export type ListRequest<Q extends Schema, P extends Schema | undefined> = { query: z.output<Q>; params: Out<P>; request: FastifyRequest };

/** What an export streams: its columns and its query (`db.select(csvSelection(columns))…`). */
export type CsvSource = { columns: CsvColumns; query: (tx: Transaction) => PgSelect | SQLWrapper; fileName?: string };

export type ListRoutesDefinition<L extends Schema, E extends Schema, P extends Schema | undefined = undefined> = {
  /** Below the plugin's prefix: '' (the default) registers `/` and `/export.csv`; `/staff` registers `/staff` and `/staff/export.csv`. */
  path?: string;
  tags: string[];
  permission: Permission;
  /** Path parameters shared by both routes (e.g. a reward's id for its vouchers). */
  params?: P;
  /** The query has a `from`/`to` period: a `to` before `from` is a 400 naming `to`, for the page and the export. */
  hasPeriod?: boolean;
  /** Runs before the page and before the export (after the period check). */
  check?: (input: ListRequest<L | E, P>) => void | Promise<void>;
  list: {
    summary: string;
    description?: string;
    querystring: L;
    response: Schema;
    page: (input: ListRequest<L, P>) => Promise<unknown>;
  };
  export: {
    summary: string;
    querystring: E;
    /** The file's name, unless `prepare` names it (e.g. with today's date). */
    fileName?: string;
    /** The CSV columns and the export query with the list's filters and sort (may read first, e.g. check a parent exists). */
    prepare: (input: ListRequest<E, P>) => CsvSource | Promise<CsvSource>;
    /** Set where the rows are personal data: the export writes an `export` audit entry with its filters (B5). */
    auditEntity?: string;
  };
};

/** A period whose end comes before its start (ISO days or date-times): 400 naming `to` in the reader's language. */
export function checkPeriod(language: Language, from?: string, to?: string): void {
  if (from && to && new Date(from).getTime() > new Date(to).getTime()) {
    throw fieldError('to');
  }
}

function inputOf<Q extends Schema, P extends Schema | undefined>(request: FastifyRequest): ListRequest<Q, P> {
  return { query: request.query as z.output<Q>, params: (request.params ?? {}) as Out<P>, request };
}

/** Registers a resource's list and its `export.csv` from its declaration. */
export function registerListRoutes<L extends Schema, E extends Schema, P extends Schema | undefined = undefined>(
  app: FastifyInstance,
  definition: ListRoutesDefinition<L, E, P>,
): void {
  const path = definition.path ?? '';
  const { tags, permission, params } = definition;
  const check = async (input: ListRequest<L | E, P>) => {
    if (definition.hasPeriod) {
      const { from, to } = input.query as { from?: string; to?: string };
      checkPeriod(input.request.language, from, to);
    }
    await definition.check?.(input);
  };
  const withParams = params ? { params } : {};

  app.get(
    path === '' ? '/' : path,
    {
      config: { permission, readReplica: true },
      schema: {
        tags,
        summary: definition.list.summary,
        ...(definition.list.description ? { description: definition.list.description } : {}),
        ...withParams,
        querystring: definition.list.querystring,
        response: { 200: definition.list.response },
      },
    },
    async (request) => {
      const input = inputOf<L, P>(request);
      await check(input);
      return definition.list.page(input);
    },
  );

  const csv = definition.export;
  app.get(
    `${path}/export.csv`,
    {
      config: { permission, readReplica: true },
      schema: { tags, summary: csv.summary, ...withParams, querystring: csv.querystring },
    },
    async (request, reply: FastifyReply) => {
      const input = inputOf<E, P>(request);
      await check(input);
      const source = await csv.prepare(input);
      const entityType = csv.auditEntity;
      return sendCsv(reply, {
        db: app.db,
        fileName: source.fileName ?? csv.fileName ?? 'export.csv',
        language: request.language,
        columns: source.columns,
        query: source.query,
        ...(entityType
          ? { before: (tx: Transaction) => recordAudit(tx, callerOf(request).actor, { action: 'export', entityType, after: { filters: request.query } }) }
          : {}),
      });
    },
  );
}

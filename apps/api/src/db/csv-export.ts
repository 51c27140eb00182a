import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify/sync';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { FastifyReply } from 'fastify';
import type { Language } from '@sf/contract/app-info';
import { ERASED_CUSTOMER_NAME, type ValueLabels } from '@sf/contract/value-labels';
import type { Database, Transaction } from './client.ts';
import { executorOn, inlineStatement, poolOf } from './batch.ts';
import { CopyBinaryValues } from './copy-binary-values.ts';
import { ReadRoutingPool } from './read-replica.ts';

/**
 * Streamed CSV exports in the Italian Excel dialect (docs/product.md D): `;` separator, UTF-8 BOM, CRLF,
 * comma decimals, `dd/MM/yyyy` dates in the business time zone. Rows come from a PostgreSQL cursor
 * (DECLARE … FETCH in batches) and are written with back-pressure, so a million rows never sit in
 * memory. Values are formatted by PostgreSQL itself (to_char), so every column arrives as text.
 *
 * PostgreSQL writes the CSV lines too (csvLine: the same quoting as csv-stringify, which still writes
 * the header): each fetched row is ONE string, so Node makes one small object and one string per row
 * instead of a row object with a string per column, a record array and csv-stringify's work per cell.
 * Each fetched batch is written as a few chunks of 250 lines; the next batch is fetched only once the
 * answer has drained (the socket took the previous ones). So the server holds at most one batch and
 * one chunk per export, whatever its size, and spends no per-row stream calls (decision record 024).
 */

export type CsvColumn = { header: Record<Language, string>; value: SQL };

/** Columns of an export: the header per language and an SQL expression that yields the cell's text. */
export type CsvColumns = Record<string, CsvColumn>;

const zone = (timeZone: string) => sql.raw(`'${timeZone.replace(/'/g, "''")}'`);
/** A constant of our own catalogue as an SQL literal (inlined: the COPY export takes no parameters). */
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** Formatters producing the Italian Excel text of a value (null stays an empty cell). */
export const csvCell = {
  text: (expression: SQLWrapper): SQL => sql`(${expression})::text`,
  integer: (expression: SQLWrapper): SQL => sql`(${expression})::text`,
  /** 1234.5 → `1234,5` (no thousands separator: Excel reads it as a number). */
  decimal: (expression: SQLWrapper): SQL => sql`replace((${expression})::text, '.', ',')`,
  /** Euro cents → `12,50`. */
  cents: (expression: SQLWrapper): SQL => sql`replace(to_char((${expression}) / 100.0, 'FM9999999999990.00'), '.', ',')`,
  /** A calendar date (no time zone) → `dd/MM/yyyy`. */
  date: (expression: SQLWrapper): SQL => sql`to_char(${expression}, 'DD/MM/YYYY')`,
  /** An instant → `dd/MM/yyyy HH:mm` in the business time zone. */
  dateTime: (expression: SQLWrapper, timeZone: string): SQL =>
    sql`to_char((${expression}) at time zone ${zone(timeZone)}, 'DD/MM/YYYY HH24:MI')`,
  /**
   * A stored value (a status, a kind, a category) as the reader's word for it ("Attivo", "Accredito");
   * a value without a word is written as it is.
   */
  label: (expression: SQLWrapper, labels: ValueLabels, language: Language): SQL => {
    const cases = Object.entries(labels).map(([value, words]) => sql`when ${sql.raw(literal(value))} then ${sql.raw(literal(words[language]))}`);
    return sql`case (${expression})::text ${sql.join(cases, sql` `)} else (${expression})::text end`;
  },
  /**
   * A customer's name (whole, or the surname of a list with two name columns) as the screens say it:
   * "Cliente cancellato" / "Erased customer" once erased — the erasure blanks the name, and an export
   * never names a person with a blank cell or a lone space (decision 021).
   */
  customerName: (status: SQLWrapper, name: SQLWrapper, language: Language): SQL =>
    sql`case when (${status})::text = 'erased' then ${sql.raw(literal(ERASED_CUSTOMER_NAME[language]))} else (${name}) end`,
  /** `trim(first || ' ' || last)`: the whole name as the lists show it. */
  fullName: (firstName: SQLWrapper, lastName: SQLWrapper): SQL => sql`trim((${firstName}) || ' ' || (${lastName}))`,
  /** A yes/no in the reader's language. */
  boolean: (expression: SQLWrapper, language: Language): SQL =>
    language === 'it'
      ? sql`case when ${expression} then 'sì' when not ${expression} then 'no' end`
      : sql`case when ${expression} then 'yes' when not ${expression} then 'no' end`,
};

/** The selection of an export query: each column's SQL aliased c0, c1, … in the columns' order. */
export function csvSelection(columns: CsvColumns): Record<string, SQL.Aliased> {
  return Object.fromEntries(Object.values(columns).map((column, index) => [`c${index}`, column.value.as(`c${index}`)]));
}

export type CsvExportOptions = {
  db: Database;
  fileName: string;
  language: Language;
  columns: CsvColumns;
  /** The export query: `db.select(csvSelection(columns)).from(…).where(…).orderBy(…)`. */
  query: (executor: Transaction) => PgSelect | SQLWrapper;
  /** Runs in the export's transaction before the first row, e.g. to audit the read (B5). */
  before?: (executor: Transaction) => Promise<void>;
  batchSize?: number;
};

/** Waits until the stream wants more, or fails when the client went away (so the cursor is closed). */
function drained(stream: NodeJS.WritableStream & { destroyed?: boolean }): Promise<void> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      stream.off('drain', onDrain);
      stream.off('close', onClose);
    };
    const onDrain = () => {
      cleanup();
      resolve();
    };
    const onClose = () => {
      cleanup();
      reject(new Error('export stream closed before the end'));
    };
    stream.on('drain', onDrain);
    stream.on('close', onClose);
  });
}

/**
 * Formula neutralisation (OWASP "CSV injection", issue 30 M5): a cell that starts with `=`, `+`, `-`,
 * `@`, a tab or a carriage return is one Excel would evaluate (`=HYPERLINK(…)` in a customer's name,
 * a hostile column header echoed by an import's error report), so it gets a leading `'`, which Excel
 * shows as text and does not display. A cell that is a plain number (`-30`, `+12,50`) is no formula
 * and keeps its sign, so that the ledger's points stay numbers.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?[0-9]+([.,][0-9]+)?$/;

export function neutraliseCsvCell(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/**
 * One CSV line of the export query's row (its columns c0, c1, …): each cell neutralised as
 * neutraliseCsvCell does, then quoted as csv-stringify quotes in our dialect: a cell holding `;`,
 * `"`, CR or LF is put in quotes with its quotes doubled; a null is an empty cell; CRLF ends the line.
 */
function csvLine(keys: string[]): SQL {
  const cell = (key: string) => {
    const raw = sql`(q.${sql.identifier(key)})::text`;
    const value = sql`(case when ${raw} ~ E'^[=+@\t\r-]' and ${raw} !~ '^[+-]?[0-9]+([.,][0-9]+)?$' then '''' || ${raw} else ${raw} end)`;
    return sql`case when ${value} ~ E'[;"\r\n]' then '"' || replace(${value}, '"', '""') || '"' else coalesce(${value}, '') end`;
  };
  return sql`${sql.join(keys.map(cell), sql` || ';' || `)} || E'\r\n'`;
}

/** The header line, its cells neutralised like every other cell. */
function headerLine(headers: string[]): string {
  return `\uFEFF${stringify([headers.map(neutraliseCsvCell)], { delimiter: ';', record_delimiter: '\r\n' })}`;
}

/** Rows fetched per cursor round trip (about 100–300 KB of CSV: one chunk of the answer). */
export const CSV_BATCH_ROWS = 2000;
/** Rows per chunk of CSV text written to the answer. */
const CSV_CHUNK_ROWS = 250;

/**
 * Answers the request with the streamed CSV. The cursor is opened and the first batch read before
 * the answer starts, so that a failing query still gets a JSON error answer instead of a cut stream.
 */
export async function sendCsv(reply: FastifyReply, options: CsvExportOptions): Promise<FastifyReply> {
  const headers = Object.values(options.columns).map((column) => column.header[options.language]);
  const keys = Object.keys(options.columns).map((_key, index) => `c${index}`);
  const pool = poolOf(options.db);
  if (pool) return sendCsvByCopy(reply, options, pool, headers, keys);
  const batchSize = options.batchSize ?? CSV_BATCH_ROWS;
  // Bytes, not rows: write() answers false once a batch's chunk is buffered, and the loop waits.
  const out = new PassThrough({ highWaterMark: 64 * 1024 });
  let started: () => void = () => undefined;
  const isStarted = new Promise<void>((resolve) => {
    started = resolve;
  });
  const send = async (chunk: string) => {
    if (out.destroyed) throw new Error('export stream closed before the end');
    if (!out.write(chunk)) await drained(out);
  };

  const work = options.db.transaction(async (tx) => {
    if (options.before) await options.before(tx);
    // The export query's order is kept: PostgreSQL pulls a subquery in FROM up into this projection.
    await tx.execute(sql`declare sf_export no scroll cursor for select ${csvLine(keys)} as line from (${options.query(tx)}) as q`);
    for (let batch = 0; ; batch += 1) {
      const result = await tx.execute(sql`fetch forward ${sql.raw(String(batchSize))} from sf_export`);
      const rows = result.rows as { line: string }[];
      if (batch === 0) {
        started();
        await send(headerLine(headers));
      }
      if (rows.length === 0) break;
      // Chunks of a few hundred rows (tens of KB): short-lived strings the young generation frees at
      // once, where one string per 2,000 rows (hundreds of KB) would wait in the large-object space.
      for (let from = 0; from < rows.length; from += CSV_CHUNK_ROWS) {
        let chunk = '';
        for (let index = from; index < Math.min(rows.length, from + CSV_CHUNK_ROWS); index += 1) chunk += rows[index]!.line;
        await send(chunk);
      }
    }
    await tx.execute(sql`close sf_export`);
  });
  // Fails here (before any byte is sent) when the query itself fails.
  await Promise.race([isStarted, work]);
  work.then(
    () => out.end(),
    (error: unknown) => {
      reply.log.error({ err: error }, 'CSV export failed');
      out.destroy(error instanceof Error ? error : new Error(String(error)));
    },
  );

  return sendCsvStream(reply, options.fileName, out);
}

function sendCsvStream(reply: FastifyReply, fileName: string, out: Readable): FastifyReply {
  const safeName = fileName.replace(/[^A-Za-z0-9._-]/g, '_');
  return reply
    .header('Content-Type', 'text/csv; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="${safeName}"`)
    .send(out);
}

/**
 * On a real PostgreSQL: the lines come from `COPY (…) TO STDOUT` in binary, on a connection of our
 * own, and flow to the answer as bytes (`CopyBinaryValues` takes the framing off): no row object or
 * string per row in Node, so the server's memory stays flat whatever the export's size. Back-pressure
 * is the stream's: when the answer is not read, the connection is not read, and PostgreSQL waits to
 * write. The same transaction holds `before` (the audit record) and the COPY, and commits before the
 * answer's last byte: a complete file means a recorded export. A failure (the commit's too), or a
 * client gone mid-file, ends the connection instead of returning it to the pool in the middle of a COPY.
 *
 * With a read replica the COPY runs there (db/read-replica.ts), and the replica takes no writes: the
 * audit record is then committed on the primary first, so an export begun is recorded.
 */
async function sendCsvByCopy(
  reply: FastifyReply,
  options: CsvExportOptions,
  pool: pg.Pool,
  headers: string[],
  keys: string[],
): Promise<FastifyReply> {
  const { client, isReplica } = pool instanceof ReadRoutingPool ? await pool.connectForRead() : { client: await pool.connect(), isReplica: false };
  if (isReplica && options.before) {
    const before = options.before;
    try {
      await options.db.transaction((tx) => before(tx));
    } catch (error) {
      client.release();
      throw error;
    }
  }
  const values = new CopyBinaryValues();
  const out = new PassThrough({ highWaterMark: 64 * 1024 });
  out.write(headerLine(headers));
  let finished: Promise<unknown>;
  try {
    await client.query('begin');
    const tx = executorOn(client) as unknown as Transaction;
    if (options.before && !isReplica) await options.before(tx);
    // COPY takes no parameters: the statement's values are written in as literals, as a batch's are.
    const text = inlineStatement(sql`select ${csvLine(keys)} as line from (${options.query(tx)}) as q`);
    const started = once(values, 'header');
    // The answer ends only once the transaction (the audit record among it) has committed: a reader
    // that got the whole file may count on its export being recorded, as on PGlite (the cursor path).
    finished = pipeline(client.query(copyTo(`copy (${text}) to stdout (format binary)`)), values, out, { end: false }).then(async () => {
      await client.query('commit');
      out.end();
    });
    // Answers only once the COPY has started: a failing query still gets a JSON error, not a cut file.
    await Promise.race([started, finished]);
  } catch (error) {
    out.destroy();
    client.release(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
  finished.then(
    () => client.release(),
    (error: unknown) => {
      const failure = error instanceof Error ? error : new Error(String(error));
      reply.log.error({ err: failure }, 'CSV export failed');
      out.destroy(failure);
      client.release(failure);
    },
  );
  return sendCsvStream(reply, options.fileName, out);
}

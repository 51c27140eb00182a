import { afterAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { createTestContext } from '../../test/helper.ts';
import { csvCell, csvSelection, sendCsv, type CsvColumns } from './csv-export.ts';
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

async function exportApp(query: (tx: Parameters<Parameters<typeof ctx.app.db.transaction>[0]>[0]) => ReturnType<typeof sql>) {
  const app = Fastify();
  app.get('/export', (_request, reply) => sendCsv(reply, { db: ctx.app.db, fileName: 'x y.csv', language: 'it', columns, query, batchSize: 2 }));
  await app.ready();
  return app;
}

describe('the streamed CSV export', () => {
  it('reads every row through the cursor in batches and writes the Italian Excel dialect', async () => {
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

  it('answers a JSON error, not a cut file, when the query fails', async () => {
    const app = await exportApp(() => sql`select no_such_column from users`);
    const response = await app.inject({ method: 'GET', url: '/export' });
    await app.close();
    expect(response.statusCode).toBe(500);
    expect(response.headers['content-type']).not.toMatch(/text\/csv/);
  });
});

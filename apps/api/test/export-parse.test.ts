import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestContext, type TestContext } from './helper.ts';
import { createLedgerFixture } from './ledger-fixtures.ts';

/**
 * Exports read back by a CSV library the way Excel reads them: a BOM, `;`, comma decimals and
 * dd/MM/yyyy dates; the parsed rows carry the figures and filters of the list they came from.
 */
let ctx: TestContext;
let token = '';
beforeAll(async () => {
  ctx = await createTestContext();
  token = await ctx.tokenFor('admin@demo.test');
});
afterAll(() => ctx.close());

async function exported(url: string): Promise<Record<string, string>[]> {
  const response = await ctx.request({ method: 'GET', url, token });
  expect(response.statusCode, response.body).toBe(200);
  const raw = response.rawPayload;
  expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  // Without `bom: true` the first header would carry the BOM: the library must be told, as Excel knows.
  return parse(raw, { bom: true, delimiter: ';', columns: true, record_delimiter: '\r\n' }) as Record<string, string>[];
}

const euros = (text: string) => Number(text.replace(/\./g, '').replace(',', '.'));
const DATE_TIME = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2})$/;

describe('exports parsed back with csv-parse', () => {
  it('the ledger: amounts with comma decimals, dates dd/MM/yyyy HH:mm, only the filtered rows', async () => {
    const fx = await createLedgerFixture(ctx.app.db, { customers: 1 });
    const send = (payload: object) =>
      ctx.request({ method: 'POST', url: '/api/admin/ledger', token, payload, headers: { 'idempotency-key': randomUUID() } });
    await send({ customerId: fx.customerIds[0], programId: fx.pointsProgramId, merchantId: fx.merchantId, kind: 'purchase', amountCents: 1250 });
    await send({ customerId: fx.customerIds[0], programId: fx.pointsProgramId, kind: 'purchase', amountCents: 99_905 });
    await send({ customerId: fx.customerIds[0], programId: fx.pointsProgramId, kind: 'redeem', points: 3 });
    const rows = await exported(`/api/admin/ledger/export.csv?customerId=${fx.customerIds[0]}&kind=earn`);
    expect(rows).toHaveLength(2);
    expect(rows.map((row) => euros(row['Importo (€)']!)).sort((a, b) => a - b)).toEqual([12.5, 999.05]);
    expect(rows.every((row) => row['Tipo'] === 'Accredito')).toBe(true);
    for (const row of rows) {
      const [, dd, mm, yyyy] = DATE_TIME.exec(row['Data']!) ?? [];
      expect(Number(yyyy)).toBeGreaterThan(2000);
      expect(Number(mm)).toBeLessThanOrEqual(12);
      expect(Number(dd)).toBeLessThanOrEqual(31);
    }
  });

  it('the customers: birth dates dd/MM/yyyy and the list total', async () => {
    const id = randomUUID();
    await ctx.app.db.execute(
      sql`insert into customers (id, first_name, last_name, card_number, referral_code, birth_date)
          values (${id}, 'Lucia', 'Esportata', '2790000000017', 'EXPORT01', '1990-03-07')`,
    );
    const list = (await ctx.request({ method: 'GET', url: '/api/admin/customers?q=Esportata', token })).json();
    const rows = await exported('/api/admin/customers/export.csv?q=Esportata');
    expect(rows).toHaveLength(list.total);
    expect(rows[0]!['Data di nascita']).toBe('07/03/1990');
    expect(rows[0]!['Cognome']).toBe('Esportata');
  });

  it('the programs: decimals with a comma', async () => {
    const fx = await createLedgerFixture(ctx.app.db, { customers: 0, pointsPerEuro: '1.50' });
    const rows = await exported('/api/admin/programs/export.csv?pageSize=100');
    const program = rows.find((row) => row['Punti per euro'] === '1,50');
    expect(program, JSON.stringify(rows.slice(0, 3))).toBeDefined();
    expect(fx.pointsProgramId).toBeTruthy();
  });
});

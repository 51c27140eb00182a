import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { isValidCardNumber } from '@sf/contract/customers';
import { createTestContext, manualJobRunner, multipartBody, selectRows } from '../../../test/helper.ts';
import { createLedgerFixture } from '../../../test/ledger-fixtures.ts';
import { startBackgroundJobs } from '../../jobs.ts';
import { IMPORT_JOB, importDeps } from './imports.service.ts';
import { runImportChunk } from './imports.run.ts';
import { verifyLedger } from '../ledger/ledger.verify.ts';

const ctx = await createTestContext();
let token = '';
let referrer = { id: '', referralCode: '', cardNumber: '' };
let programId = '';
beforeAll(async () => {
  token = await ctx.tokenFor('admin@demo.test');
  programId = (await createLedgerFixture(ctx.app.db, { customers: 0 })).pointsProgramId;
  const response = await ctx.request({
    method: 'POST',
    url: '/api/admin/customers',
    token,
    payload: { firstName: 'Teresa', lastName: 'Referente', email: 'teresa@example.it' },
  });
  referrer = response.json();
});
afterAll(() => ctx.close());

const rows = <T>(query: ReturnType<typeof sql>) => selectRows<T>(ctx.app, query);

async function upload(fields: Record<string, string>, file?: { name: string; content: string }, language = 'it') {
  const body = multipartBody(fields, file);
  return ctx.request({ method: 'POST', url: '/api/admin/imports', token, payload: body.payload, headers: { ...body.headers, 'accept-language': language } });
}

const italianCustomers = () =>
  '\uFEFF' +
  [
    'Nome;Cognome;Email;Telefono;Data di nascita;Città;Provincia;Codice invito;Consenso servizio;Consenso marketing;Consenso profilazione',
    'Mario;Rossi;mario.rossi@example.it;347 111 2222;10/12/1985;Milano;MI;;sì;sì;no',
    'Lucia;Bianchi;lucia@example;;31/02/1990;Roma;RM;;sì;no;no',
    ';Verdi;verdi@example.it;;;;;;sì;;',
    'Anna;Neri;MARIO.ROSSI@example.it;;;;;;sì;no;no',
    'Paolo;Gialli;paolo@example.it;;01/01/1970;Torino;XX;;sì;forse;no',
    `Sara;Blu;;;;;;${referrer.referralCode};sì;no;no`,
    'Luca;Rosa;;;;;;ZZZZZZZZ;sì;no;no',
    '"Maria Grazia";"D\'Amico; detta ""Mary""";;;;;;;si;;',
  ].join('\r\n') +
  '\r\n';

describe('CSV import of customers', () => {
  let italianId = '';

  it('dry-runs an Italian Excel file: dialect detected, row errors named by row and column in the reader language', async () => {
    const response = await upload({ kind: 'customers', dryRun: 'true' }, { name: 'clienti.csv', content: italianCustomers() });
    expect(response.statusCode, response.body).toBe(201);
    const detail = response.json();
    italianId = detail.id;
    expect(detail).toMatchObject({
      status: 'validated',
      dialect: { delimiter: ';', hasBom: true, decimal: ',', dateFormat: 'dd/MM/yyyy' },
      totalRows: 8,
      validRows: 3,
      errorRows: 5,
      mapping: { firstName: 'Nome', lastName: 'Cognome', email: 'Email', birthDate: 'Data di nascita', referrerCode: 'Codice invito' },
    });
    const errors = detail.errors.map((error: { row: number; column: string; message: string }) => [error.row, error.column, error.message]);
    expect(errors).toEqual(
      expect.arrayContaining([
        [3, 'Email', 'Email non è valida'],
        [3, 'Data di nascita', 'Data di nascita non è valida'],
        [4, 'Nome', 'Nome è obbligatorio'],
        [5, 'Email', 'Email non è valida: valore ripetuto nel file'],
        [6, 'Provincia', 'Provincia non è valida'],
        [6, 'Consenso marketing', 'Consenso marketing non è valido: usa sì o no'],
        [8, 'Codice invito', expect.stringContaining('non è valido')],
      ]),
    );
    const english = await ctx.request({ method: 'GET', url: `/api/admin/imports/${italianId}`, token, headers: { 'accept-language': 'en' } });
    expect(english.json().errors.find((error: { row: number }) => error.row === 4).message).toBe('First name is required');
    expect(await rows(sql`select 1 from customers where last_name = 'Rossi' and first_name = 'Mario'`)).toHaveLength(0);

    const csv = await ctx.request({ method: 'GET', url: `/api/admin/imports/${italianId}/errors.csv`, token });
    expect(csv.statusCode, csv.body).toBe(200);
    const records = parse(csv.body, { delimiter: ';', bom: true, columns: true }) as Record<string, string>[];
    expect(records.find((record) => record['Riga'] === '4')).toEqual({ Riga: '4', Colonna: 'Nome', Errore: 'Nome è obbligatorio' });
    expect(records.length).toBe(detail.errors.length);
  });

  it('imports the good rows as a background job with consents, referrer and a report', async () => {
    const started = await ctx.request({ method: 'POST', url: `/api/admin/imports/${italianId}/start`, token });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().status).toBe('queued');
    // A double click on "Importa": the second start answers the queued import, and queues nothing more.
    const twice = await ctx.request({ method: 'POST', url: `/api/admin/imports/${italianId}/start`, token });
    expect(twice.statusCode, twice.body).toBe(200);
    expect(twice.json().status).toBe('queued');
    const runner = startBackgroundJobs(ctx.app, { isAutomatic: false });
    await runner.tick();
    await runner.stop();
    const detail = (await ctx.request({ method: 'GET', url: `/api/admin/imports/${italianId}`, token })).json();
    expect(detail).toMatchObject({ status: 'done', progress: 100, importedRows: 3, report: { imported: 3, skipped: 5 } });
    const afterDone = await ctx.request({ method: 'POST', url: `/api/admin/imports/${italianId}/start`, token });
    expect([afterDone.statusCode, afterDone.json().status]).toEqual([200, 'done']);
    const mario = await rows<Record<string, unknown>>(
      sql`select id, phone, birth_date::text as birth_date, province, marketing_consent, profiling_consent from customers where email = 'mario.rossi@example.it'`,
    );
    expect(mario).toEqual([
      expect.objectContaining({ phone: '+393471112222', birth_date: '1985-12-10', province: 'MI', marketing_consent: true, profiling_consent: false }),
    ]);
    const consents = await rows<{ purpose: string; granted: boolean; channel: string }>(
      sql`select purpose, granted, channel from customer_consents where customer_id = ${mario[0]!['id'] as string} order by purpose`,
    );
    expect(consents).toEqual([
      { purpose: 'marketing', granted: true, channel: 'import' },
      { purpose: 'profiling', granted: false, channel: 'import' },
      { purpose: 'service', granted: true, channel: 'import' },
    ]);
    const [sara] = await rows<{ referred_by: string }>(sql`select referred_by from customers where last_name = 'Blu'`);
    expect(sara?.referred_by).toBe(referrer.id);
    const [quoted] = await rows<{ first_name: string; last_name: string }>(sql`select first_name, last_name from customers where first_name = 'Maria Grazia'`);
    expect(quoted?.last_name).toBe('D\'Amico; detta "Mary"');
  });

  it('names every field of a row error by its translated label, consents included (it and en)', async () => {
    const content = ['firstName,lastName,serviceConsent,profilingConsent', 'Ada,Byron,maybe,yes', 'Bea,Neri,yes,forse'].join('\n');
    const response = await upload({ kind: 'customers', dryRun: 'true' }, { name: 'consents.csv', content }, 'en');
    expect(response.statusCode, response.body).toBe(201);
    const detail = response.json();
    expect(detail.errors.map((error: { row: number; code: string; message: string }) => [error.row, error.code, error.message])).toEqual([
      [2, 'consentValue', 'Service consent is not valid: use yes or no'],
      [3, 'consentValue', 'Profiling consent is not valid: use yes or no'],
    ]);
    const italian = await ctx.request({ method: 'GET', url: `/api/admin/imports/${detail.id}`, token, headers: { 'accept-language': 'it' } });
    expect(italian.json().errors.map((error: { message: string }) => error.message)).toEqual([
      'Consenso servizio non è valido: usa sì o no',
      'Consenso profilazione non è valido: usa sì o no',
    ]);
  });

  it('imports a plain comma-separated UTF-8 file straight away (dryRun=false), mixed good and bad rows', async () => {
    const content = [
      'firstName,lastName,email,phone,birthDate,city,province,marketingConsent',
      'Carla,Verdi,carla@example.com,+39 333 1234567,1990-04-01,"Reggio, Emilia",RE,yes',
      'Marco,,marco@example.com,,,,,no',
      'Gino,Bruni,gino@example.com,,1980-13-01,,,no',
      'Rita,Sole,rita@example.com,,,,,',
    ].join('\n');
    const response = await upload({ kind: 'customers', dryRun: 'false' }, { name: 'customers.csv', content }, 'en');
    expect(response.statusCode, response.body).toBe(201);
    const detail = response.json();
    expect(detail).toMatchObject({ status: 'queued', dialect: { delimiter: ',', hasBom: false }, totalRows: 4, errorRows: 2 });
    expect(detail.errors.map((error: { row: number; message: string }) => [error.row, error.message])).toEqual([
      [3, 'Last name is required'],
      [4, 'Birth date is not valid'],
    ]);
    const runner = startBackgroundJobs(ctx.app, { isAutomatic: false });
    await runner.tick();
    await runner.stop();
    const done = (await ctx.request({ method: 'GET', url: `/api/admin/imports/${detail.id}`, token })).json();
    expect(done.report).toMatchObject({ imported: 2, skipped: 2 });
    const [carla] = await rows<{ city: string; marketing_consent: boolean }>(sql`select city, marketing_consent from customers where email = 'carla@example.com'`);
    expect(carla).toEqual({ city: 'Reggio, Emilia', marketing_consent: true });
  });

  it('refuses bad uploads with 400 naming the field', async () => {
    const noFile = await upload({ kind: 'customers' });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().error.fields[0].field).toBe('file');
    const badKind = await upload({ kind: 'people' }, { name: 'x.csv', content: 'Nome;Cognome\nA;B\n' });
    expect(badKind.statusCode).toBe(400);
    expect(badKind.json().error.fields[0].field).toBe('kind');
    const unmapped = await upload({ kind: 'customers', mapping: JSON.stringify({ firstName: 'Nome' }) }, { name: 'x.csv', content: 'Nome;Cognome\nA;B\n' }, 'en');
    expect(unmapped.statusCode).toBe(400);
    expect(unmapped.json().error.fields[0]).toEqual({ field: 'mapping', message: 'Column mapping is not valid' });
    const files = await rows<{ n: number }>(sql`select count(*)::int as n from imports where file_name = 'x.csv'`);
    expect(files[0]?.n).toBe(0);
  });

  it('answers a file that is not readable CSV with 400 naming its line, keeps no import and no file (issue 30)', async () => {
    const send = (name: string, content: Buffer) => {
      const boundary = '----sf-hostile';
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\ncustomers\r\n--${boundary}\r\nContent-Disposition: form-data; name="dryRun"\r\n\r\ntrue\r\n`),
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/csv\r\n\r\n`),
        content,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return ctx.request({ method: 'POST', url: '/api/admin/imports', token, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'accept-language': 'it' } });
    };
    const binary = Buffer.alloc(4096);
    for (let index = 0; index < binary.length; index += 1) binary[index] = (index * 7919) % 256;
    const cases: [string, Buffer, number][] = [
      ['virgolette.csv', Buffer.from('Nome;Cognome;Email\nMario;Rossi;mario@example.it\n"Lucia;Bianchi;lucia@example.it\nAnna;Neri;anna@example.it\n'), 3],
      ['nul.csv', Buffer.from('Nome;Cognome;Email\nMario;Rossi;mario@example.it\nLu\u0000cia;Bianchi;lucia@example.it\n'), 3],
      ['binario.csv', Buffer.concat([Buffer.from('Nome;Cognome\n'), binary]), 0],
      // A one-line "header" far longer than any row: refused as soon as the parser has read its limit.
      ['riga-lunga.csv', Buffer.from(`${'Nome;'.repeat(400_000)}\nMario;Rossi\n`), 1],
    ];
    for (const [name, content, line] of cases) {
      const started = Date.now();
      const response = await send(name, content);
      expect(response.statusCode, `${name}: ${response.body.slice(0, 300)}`).toBe(400);
      const error = response.json().error as { fields: { field: string; message: string }[] };
      expect(error.fields[0]!.field).toBe('file');
      expect(error.fields[0]!.message).toMatch(line > 0 ? new RegExp(`riga ${line}\\b`) : /riga \d+/);
      expect(response.body).not.toContain('Lucia');
      expect(Date.now() - started).toBeLessThan(5000);
      expect(await rows(sql`select id from imports where file_name = ${name}`)).toEqual([]);
    }
    expect((await readdir(path.join(ctx.dataDir, 'imports')).catch(() => [] as string[])).length).toBe(
      (await rows<{ n: number }>(sql`select count(*)::int as n from imports where status in ('validated', 'queued', 'running', 'failed') and staged = false`))[0]!.n,
    );
  });

  it('resumes after its runner died midway (lease expired) and never imports a row twice', async () => {
    const lines = ['Nome;Cognome;Email'];
    for (let index = 1; index <= 9; index += 1) lines.push(`Cliente;Ripresa${index};ripresa${index}@example.it`);
    lines.push(';SenzaNome;senza@example.it');
    const response = await upload({ kind: 'customers', dryRun: 'false' }, { name: 'ripresa.csv', content: lines.join('\r\n') });
    expect(response.statusCode, response.body).toBe(201);
    const id = response.json().id as string;
    const deps = importDeps(ctx.app);

    // A process that commits one batch of 2 rows, then freezes holding the job's lease (like a kill -9).
    let release: () => void = () => undefined;
    const frozen = new Promise<void>((resolve) => {
      release = resolve;
    });
    const dying = manualJobRunner(ctx.app, {
      handlers: {
        [IMPORT_JOB]: async (payload) => {
          await runImportChunk(deps, String(payload['importId']), { batchRows: 2, maxBatches: 1 });
          await frozen;
          return null;
        },
      },
    });
    void dying.tick();
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const [row] = await rows<{ processed_rows: number }>(sql`select processed_rows from imports where id = ${id}`);
      if (row?.processed_rows === 2) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const midway = (await ctx.request({ method: 'GET', url: `/api/admin/imports/${id}`, token })).json();
    expect(midway).toMatchObject({ status: 'running', processedRows: 2, importedRows: 2, progress: 20 });

    // The lease runs out; another process takes the job over and goes on from row 4 (one batch).
    await ctx.app.db.execute(sql`update jobs set locked_until = now() - interval '1 second' where kind = ${IMPORT_JOB} and status = 'running'`);
    const second = manualJobRunner(ctx.app, {
      handlers: { [IMPORT_JOB]: async (payload) => runImportChunk(deps, String(payload['importId']), { batchRows: 2, maxBatches: 1 }) },
    });
    expect(await second.tick()).toBe(1);
    const resumed = (await ctx.request({ method: 'GET', url: `/api/admin/imports/${id}`, token })).json();
    expect(resumed).toMatchObject({ processedRows: 4, importedRows: 4 });
    const [firstRows] = await rows<{ n: number }>(sql`select count(*)::int as n from customers where email in ('ripresa1@example.it', 'ripresa3@example.it')`);
    expect(firstRows?.n).toBe(2);

    // Even a run that lost the progress and starts again from the top imports nothing twice.
    await ctx.app.db.execute(sql`update imports set processed_rows = 0 where id = ${id}`);
    expect((await runImportChunk(deps, id, { batchRows: 3 })).status).toBe('done');
    release();
    await dying.stop();
    await second.stop();

    const imported = await rows<{ email: string; n: number }>(
      sql`select email, count(*)::int as n from customers where email like 'ripresa%' group by email order by email`,
    );
    expect(imported).toHaveLength(9);
    expect(imported.every((row) => row.n === 1)).toBe(true);
    // The resumed runs read on from the byte where the committed rows end: each row whole.
    const whole = await rows<{ n: number }>(
      sql`select count(*)::int as n from customers where email like 'ripresa%' and first_name = 'Cliente' and last_name = 'Ripresa' || substring(email from 8 for 1)`,
    );
    expect(whole[0]?.n).toBe(9);
    const detail = (await ctx.request({ method: 'GET', url: `/api/admin/imports/${id}`, token })).json();
    expect(detail).toMatchObject({ status: 'done', importedRows: 9, report: { imported: 9, skipped: 1 } });
    // Its rows were claimed by leaving the staging table in the transaction that inserted them.
    const [staged] = await rows<{ n: number }>(sql`select count(*)::int as n from import_staged_customers where import_id = ${id}`);
    expect(staged?.n).toBe(0);
  });

  it('marks an import failed when its run breaks, and resumes it when started again', async () => {
    const content = 'Nome;Cognome\nGuasto;Uno\nGuasto;Due\n';
    const response = await upload({ kind: 'customers', dryRun: 'false' }, { name: 'guasto.csv', content });
    const id = response.json().id as string;
    // A staged row whose referrer no longer exists: the batch's insert breaks on the foreign key.
    const missing = '00000000-0000-4000-8000-000000000000';
    await ctx.app.db.execute(sql`update import_staged_customers set referred_by = ${missing} where import_id = ${id} and row_number = 3`);
    const runner = startBackgroundJobs(ctx.app, { isAutomatic: false });
    await runner.tick();
    expect((await ctx.request({ method: 'GET', url: `/api/admin/imports/${id}`, token })).json()).toMatchObject({ status: 'failed', importedRows: 0 });
    // The failed batch rolled back whole: its rows are still staged, none claimed.
    const [staged] = await rows<{ n: number }>(sql`select count(*)::int as n from import_staged_customers where import_id = ${id}`);
    expect(staged?.n).toBe(2);
    await ctx.app.db.execute(sql`update import_staged_customers set referred_by = null where import_id = ${id}`);
    const resumed = await ctx.request({ method: 'POST', url: `/api/admin/imports/${id}/start`, token });
    expect(resumed.statusCode, resumed.body).toBe(200);
    await runner.tick();
    await runner.stop();
    expect((await ctx.request({ method: 'GET', url: `/api/admin/imports/${id}`, token })).json()).toMatchObject({ status: 'done', importedRows: 2 });
    const [left] = await rows<{ n: number }>(sql`select count(*)::int as n from import_staged_customers where import_id = ${id}`);
    expect(left?.n).toBe(0);
  });

  it('stages the checked rows at the dry run; the job retries a referral code drawn twice and reports an e-mail taken since the check', async () => {
    const lines = ['Nome;Cognome;Email;Consenso servizio'];
    for (let index = 1; index <= 6; index += 1) lines.push(`Staged;Riga${index};staged${index}@example.it;sì`);
    const response = await upload({ kind: 'customers', dryRun: 'true' }, { name: 'staged.csv', content: lines.join('\r\n') });
    expect(response.statusCode, response.body).toBe(201);
    const id = response.json().id as string;
    const staged = await rows<{ row_number: number; email: string; service: boolean; referral_code: string }>(
      sql`select row_number, email, service, referral_code from import_staged_customers where import_id = ${id} order by row_number`,
    );
    expect(staged.map((row) => [row.row_number, row.email, row.service])).toEqual(
      [2, 3, 4, 5, 6, 7].map((row) => [row, `staged${row - 1}@example.it`, true]),
    );
    expect(staged.every((row) => /^[34679ACDEFGHJKMNPQRTUVWXY]{8}$/.test(row.referral_code))).toBe(true);
    // Since the check: row 3 drew the referrer's referral code, and someone took row 5's e-mail.
    await ctx.app.db.execute(sql`update import_staged_customers set referral_code = ${referrer.referralCode} where import_id = ${id} and row_number = 3`);
    const taken = await ctx.request({ method: 'POST', url: '/api/admin/customers', token, payload: { firstName: 'Già', lastName: 'Presa', email: 'staged4@example.it' } });
    expect(taken.statusCode, taken.body).toBe(201);
    expect((await ctx.request({ method: 'POST', url: `/api/admin/imports/${id}/start`, token })).statusCode).toBe(200);
    const deps = importDeps(ctx.app);
    // Batches of 4 rows: rows 2–5, then 6–7.
    expect(await runImportChunk(deps, id, { batchRows: 4, maxBatches: 1 })).toEqual({ status: 'more', processedRows: 4 });
    expect((await ctx.request({ method: 'GET', url: `/api/admin/imports/${id}`, token })).json()).toMatchObject({ processedRows: 4, importedRows: 3, progress: 66 });
    expect((await runImportChunk(deps, id, { batchRows: 4 })).status).toBe('done');
    const detail = (await ctx.request({ method: 'GET', url: `/api/admin/imports/${id}`, token, headers: { 'accept-language': 'en' } })).json();
    expect(detail).toMatchObject({ status: 'done', importedRows: 5, report: { imported: 5, skipped: 1, errors: 1 } });
    expect(detail.errors).toEqual([{ row: 5, column: 'Email', code: 'alreadyExists', message: expect.stringContaining('already used') }]);
    const imported = await rows<{ email: string; referral_code: string; card_number: string; consents: number }>(
      sql`select c.email, c.referral_code, c.card_number, (select count(*)::int from customer_consents k where k.customer_id = c.id) as consents
          from customers c where c.last_name like 'Riga%' order by c.email`,
    );
    expect(imported.map((row) => row.email)).toEqual(['staged1@example.it', 'staged2@example.it', 'staged3@example.it', 'staged5@example.it', 'staged6@example.it']);
    expect(imported.every((row) => row.consents === 1 && row.referral_code !== referrer.referralCode)).toBe(true);
    expect(imported.every((row) => isValidCardNumber(row.card_number))).toBe(true);
    const [left] = await rows<{ n: number }>(sql`select count(*)::int as n from import_staged_customers where import_id = ${id}`);
    expect(left?.n).toBe(0);
  });

  it("reports a row by the file's line, blank lines included, at the dry run and when the job finds an e-mail taken", async () => {
    // Line 3 is blank, line 5 has a bad e-mail, lines 6 and 7 are blank, line 8's e-mail is taken after the check.
    const content = ['Nome;Cognome;Email', 'Riga;Due;riga2@example.it', '', 'Riga;Quattro;riga4@example.it', 'Riga;Cinque;riga5@', '', ';', 'Riga;Otto;riga8@example.it', ''].join('\r\n');
    const response = await upload({ kind: 'customers', dryRun: 'true' }, { name: 'righe-vuote.csv', content });
    expect(response.statusCode, response.body).toBe(201);
    const id = response.json().id as string;
    expect(response.json()).toMatchObject({ totalRows: 5, validRows: 3, errorRows: 2 });
    expect(response.json().errors.map((error: { row: number; column: string }) => [error.row, error.column])).toEqual([
      [5, 'Email'],
      [7, 'Cognome'],
      [7, 'Nome'],
    ]);
    const taken = await ctx.request({ method: 'POST', url: '/api/admin/customers', token, payload: { firstName: 'Già', lastName: 'Presa', email: 'riga8@example.it' } });
    expect(taken.statusCode, taken.body).toBe(201);
    expect((await ctx.request({ method: 'POST', url: `/api/admin/imports/${id}/start`, token })).statusCode).toBe(200);
    // One row a batch, each batch its own chunk: the run resumes four times.
    const deps = importDeps(ctx.app);
    for (let chunk = 0; chunk < 10 && (await runImportChunk(deps, id, { batchRows: 1, maxBatches: 1 })).status === 'more'; chunk += 1);
    const detail = (await ctx.request({ method: 'GET', url: `/api/admin/imports/${id}`, token })).json();
    expect(detail).toMatchObject({ status: 'done', importedRows: 2, report: { imported: 2, errors: 3 } });
    expect(detail.errors.map((error: { row: number; code: string }) => [error.row, error.code])).toEqual([
      [5, 'invalid'],
      [7, 'required'],
      [7, 'required'],
      [8, 'alreadyExists'],
    ]);
  });

  it('still imports an import checked before staging existed (read from its file)', async () => {
    const content = 'Nome;Cognome;Email\nVecchia;Una;vecchia1@example.it\nVecchia;Due;vecchia2@example.it\n';
    const response = await upload({ kind: 'customers', dryRun: 'true' }, { name: 'vecchia.csv', content });
    const id = response.json().id as string;
    await ctx.app.db.execute(sql`update imports set staged = false where id = ${id}`);
    await ctx.app.db.execute(sql`delete from import_staged_customers where import_id = ${id}`);
    // A staged import's file goes once its rows are staged; an import checked before staging kept its own.
    const [stored] = await rows<{ stored_name: string }>(sql`select stored_name from imports where id = ${id}`);
    const file = path.join(ctx.dataDir, 'imports', stored!.stored_name);
    expect(existsSync(file)).toBe(false);
    await writeFile(file, content);
    expect((await ctx.request({ method: 'POST', url: `/api/admin/imports/${id}/start`, token })).statusCode).toBe(200);
    expect((await runImportChunk(importDeps(ctx.app), id)).status).toBe('done');
    const imported = await rows<{ n: number }>(sql`select count(*)::int as n from customers where email like 'vecchia%'`);
    expect(imported[0]?.n).toBe(2);
  });

  it('cancels a queued import: the runner then imports nothing', async () => {
    const response = await upload({ kind: 'customers', dryRun: 'false' }, { name: 'annullata.csv', content: 'Nome;Cognome\nDa;Annullare\n' });
    const id = response.json().id as string;
    const cancelled = await ctx.request({ method: 'POST', url: `/api/admin/imports/${id}/cancel`, token });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().status).toBe('cancelled');
    const [staged] = await rows<{ n: number }>(sql`select count(*)::int as n from import_staged_customers where import_id = ${id}`);
    expect(staged?.n).toBe(0);
    const runner = startBackgroundJobs(ctx.app, { isAutomatic: false });
    await runner.tick();
    await runner.stop();
    expect(await rows(sql`select 1 from customers where last_name = 'Annullare'`)).toHaveLength(0);
    // A second cancel (a double click) answers the cancelled import, not an error; starting it is refused.
    const again = await ctx.request({ method: 'POST', url: `/api/admin/imports/${id}/cancel`, token });
    expect(again.statusCode).toBe(200);
    expect(again.json().status).toBe('cancelled');
    const start = await ctx.request({ method: 'POST', url: `/api/admin/imports/${id}/start`, token });
    expect(start.statusCode).toBe(409);
    const list = await ctx.request({ method: 'GET', url: '/api/admin/imports?status=cancelled', token });
    expect(list.json().items.map((item: { id: string }) => item.id)).toContain(id);
  });
});

describe('CSV import of customers, afterwards', () => {
  it('leaves every stored figure equal to its sources (ledger:verify): new customers on the dashboard, consents', async () => {
    expect(await verifyLedger(ctx.app.db)).toEqual([]);
  });
});

describe('CSV import of opening balances', () => {
  it('credits each row once through the ledger (adjust entries, idempotent per import and row)', async () => {
    const content =
      '\uFEFF' +
      [
        'Numero tessera;Programma;Punti;Causale',
        `${referrer.cardNumber};Circuito Punti;1.250;Saldo dal vecchio gestionale`,
        `2790000000000;Circuito Punti;10;`,
        `${referrer.cardNumber};Circuito Punti;12,5;`,
        `${referrer.cardNumber};Programma Inesistente;5;`,
      ].join('\r\n');
    const response = await upload({ kind: 'balances', dryRun: 'false' }, { name: 'saldi.csv', content });
    expect(response.statusCode, response.body).toBe(201);
    const detail = response.json();
    expect(detail).toMatchObject({ totalRows: 4, validRows: 1, errorRows: 3, mapping: { cardNumber: 'Numero tessera', programId: 'Programma', points: 'Punti' } });
    expect(detail.errors.map((error: { row: number; column: string }) => [error.row, error.column])).toEqual([
      [3, 'Numero tessera'],
      [4, 'Punti'],
      [5, 'Programma'],
    ]);
    // The first row is written, then the process dies before recording that the row was done
    // (its claim is lost): the run from the top replays the ledger's answer for the same key.
    const deps = importDeps(ctx.app);
    expect((await runImportChunk(deps, detail.id, { batchRows: 1, maxBatches: 1 })).status).toBe('more');
    await ctx.app.db.execute(sql`delete from import_rows where import_id = ${detail.id}`);
    await ctx.app.db.execute(sql`update imports set processed_rows = 0 where id = ${detail.id}`);
    const runner = startBackgroundJobs(ctx.app, { isAutomatic: false });
    await runner.tick();
    await runner.stop();
    const done = (await ctx.request({ method: 'GET', url: `/api/admin/imports/${detail.id}`, token })).json();
    expect(done).toMatchObject({ status: 'done', report: { imported: 1, skipped: 3 } });
    const entries = await rows<{ kind: string; points: number; reason: string; idempotency_key: string; program_id: string }>(
      sql`select kind, points, reason, idempotency_key, program_id from ledger_entries where customer_id = ${referrer.id}`,
    );
    expect(entries).toEqual([
      { kind: 'adjust', points: 1250, reason: 'Saldo dal vecchio gestionale', idempotency_key: `import:${detail.id}:2`, program_id: programId },
    ]);
    const [membership] = await rows<{ balance: number }>(sql`select balance from memberships where customer_id = ${referrer.id}`);
    expect(membership?.balance).toBe(1250);
  });
});

describe("CSV import of opening balances, by the file's lines", () => {
  it('numbers the rows by their lines through a run resumed after every row, also for a run whose line was not kept', async () => {
    // Lines 3 and 4 are blank; line 5's points are not a number, line 7 (after blank line 6) names no known program.
    const content = [
      'Numero tessera;Programma;Punti',
      `${referrer.cardNumber};Circuito Punti;3`,
      '',
      '',
      `${referrer.cardNumber};Circuito Punti;tre`,
      '',
      `${referrer.cardNumber};Nessuno;4`,
      `${referrer.cardNumber};Circuito Punti;5`,
    ].join('\n');
    const response = await upload({ kind: 'balances', dryRun: 'true' }, { name: 'saldi-righe.csv', content });
    expect(response.statusCode, response.body).toBe(201);
    const id = response.json().id as string;
    const dryRun = response.json().errors.map((error: { row: number; column: string }) => [error.row, error.column]);
    expect(dryRun).toEqual([
      [5, 'Punti'],
      [7, 'Programma'],
    ]);
    expect((await ctx.request({ method: 'POST', url: `/api/admin/imports/${id}/start`, token })).statusCode).toBe(200);
    const deps = importDeps(ctx.app);
    expect((await runImportChunk(deps, id, { batchRows: 1, maxBatches: 1 })).status).toBe('more');
    const [committed] = await rows<{ processed_rows: number; processed_lines: number }>(sql`select processed_rows, processed_lines from imports where id = ${id}`);
    expect(committed).toEqual({ processed_rows: 1, processed_lines: 2 });
    expect((await runImportChunk(deps, id, { batchRows: 1, maxBatches: 1 })).status).toBe('more');
    // An import committed before its line was kept: the run counts the lines before its byte.
    await ctx.app.db.execute(sql`update imports set processed_lines = 0 where id = ${id}`);
    for (let chunk = 0; chunk < 10 && (await runImportChunk(deps, id, { batchRows: 1, maxBatches: 1 })).status === 'more'; chunk += 1);
    const detail = (await ctx.request({ method: 'GET', url: `/api/admin/imports/${id}`, token })).json();
    expect(detail).toMatchObject({ status: 'done', importedRows: 2, report: { imported: 2, errors: 2 } });
    // The run's rows kept the dry run's numbers: no row reported twice under another line.
    expect(detail.errors.map((error: { row: number; column: string }) => [error.row, error.column])).toEqual(dryRun);
    const entries = await rows<{ idempotency_key: string }>(sql`select idempotency_key from ledger_entries where idempotency_key like ${`import:${id}:%`} order by id`);
    expect(entries.map((entry) => entry.idempotency_key)).toEqual([`import:${id}:2`, `import:${id}:5`]);
  });

  it('counts a Windows line end inside a quoted cell as one line break, at the dry run and through a resumed run', async () => {
    // Excel saves a cell typed with Alt+Enter as a quoted "\r\n": the row of lines 2–3 is one row; line 4's
    // points are not a number; line 6 (after blank line 5) names no known program.
    const content = [
      'Numero tessera;Programma;Punti;Causale',
      `${referrer.cardNumber};Circuito Punti;6;"Saldo\r\ndal vecchio gestionale"`,
      `${referrer.cardNumber};Circuito Punti;sei;`,
      '',
      `${referrer.cardNumber};Nessuno;7;`,
      `${referrer.cardNumber};Circuito Punti;8;`,
      '',
    ].join('\r\n');
    const response = await upload({ kind: 'balances', dryRun: 'true' }, { name: 'saldi-a-capo.csv', content });
    expect(response.statusCode, response.body).toBe(201);
    const id = response.json().id as string;
    const dryRun = response.json().errors.map((error: { row: number; column: string }) => [error.row, error.column]);
    expect(dryRun).toEqual([
      [4, 'Punti'],
      [6, 'Programma'],
    ]);
    expect((await ctx.request({ method: 'POST', url: `/api/admin/imports/${id}/start`, token })).statusCode).toBe(200);
    const deps = importDeps(ctx.app);
    for (let chunk = 0; chunk < 10 && (await runImportChunk(deps, id, { batchRows: 1, maxBatches: 1 })).status === 'more'; chunk += 1);
    const detail = (await ctx.request({ method: 'GET', url: `/api/admin/imports/${id}`, token })).json();
    expect(detail).toMatchObject({ status: 'done', importedRows: 2, report: { imported: 2, errors: 2 } });
    expect(detail.errors.map((error: { row: number; column: string }) => [error.row, error.column])).toEqual(dryRun);
    // The ledger's keys are by spreadsheet row (header row 1), not by line.
    const entries = await rows<{ idempotency_key: string; reason: string }>(
      sql`select idempotency_key, reason from ledger_entries where idempotency_key like ${`import:${id}:%`} order by id`,
    );
    expect(entries).toEqual([
      { idempotency_key: `import:${id}:2`, reason: 'Saldo\r\ndal vecchio gestionale' },
      { idempotency_key: `import:${id}:5`, reason: 'Saldo iniziale' },
    ]);
  });
});

describe('CSV import of opening balances, afterwards', () => {
  it('leaves every stored figure equal to its sources (ledger:verify): balances, lots, rollups, tiers', async () => {
    expect(await verifyLedger(ctx.app.db)).toEqual([]);
  });
});

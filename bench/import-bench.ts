import os from 'node:os';
import path from 'node:path';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { once } from 'node:events';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { parse } from 'csv-parse';
import { sql } from 'drizzle-orm';
import { cardNumberFor, REFERRAL_ALPHABET } from '@sf/contract/customers';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { seedDemoData } from '../apps/api/src/db/seed.ts';
import { systemClock } from '../apps/api/src/lib/clock.ts';
import { createImport, startImport, type ImportDeps } from '../apps/api/src/modules/imports/imports.service.ts';
import { runImportChunk } from '../apps/api/src/modules/imports/imports.run.ts';
import { startPostgresServer } from '../apps/api/test/postgres-server.ts';
import { loadAverage } from './support.ts';

/**
 * `npm run bench:import` — prints figures, asserts nothing. On a real PostgreSQL it writes a CSV of
 * N customers in the Italian Excel dialect (default 100,000; `-- --rows=1000000` for the issue's
 * million), then:
 *  1. imports it through the import's own code (the dry run: every row checked and the good ones
 *     staged; then the committed batches of the background job, set-based from the staging table:
 *     claims, customers, consents, progress, audit) into one database;
 *  2. loads the same rows with `COPY … FROM STDIN` (customers only: card numbers and referral codes
 *     generated beforehand, no checks, no consents) into a second database with the same schema;
 * and prints rows/s of each and the ratio (goal: the import ≥ 50 % of COPY).
 */
function argument(name: string, fallback: number): number {
  const prefix = `--${name}=`;
  const found = process.argv.find((value) => value.startsWith(prefix));
  return found ? Number(found.slice(prefix.length)) : fallback;
}
const ROWS = argument('rows', 100_000);

const FIRST = ['Giulia', 'Marco', 'Francesca', 'Luca', 'Chiara', 'Alessandro', 'Sara', 'Matteo', 'Elena', 'Davide'];
const LAST = ['Rossi', 'Bianchi', 'Esposito', 'Romano', 'Colombo', 'Ricci', 'Marino', 'Greco', 'Bruno', 'Gallo'];
const PROVINCES = ['MI', 'RM', 'TO', 'NA', 'BO', 'FI', 'BA', 'PA', 'VE', 'GE'];

async function writeCsv(file: string, rows: number): Promise<void> {
  const out = createWriteStream(file);
  out.write('\uFEFFNome;Cognome;Email;Telefono;Data di nascita;Città;Provincia;Consenso servizio;Consenso marketing\r\n');
  for (let index = 0; index < rows; index += 1) {
    const day = String((index % 28) + 1).padStart(2, '0');
    const month = String((index % 12) + 1).padStart(2, '0');
    const line = `${FIRST[index % 10]};${LAST[(index * 7) % 10]} ${index};cliente${index}@example.it;+39347${String(1_000_000 + index).slice(-7)};${day}/${month}/${1950 + (index % 50)};Città ${index % 100};${PROVINCES[index % 10]};sì;${index % 3 === 0 ? 'sì' : 'no'}\r\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

async function createDatabase(adminUrl: string, name: string) {
  const admin = new pg.Client({ connectionString: `${adminUrl}/postgres` });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const database = await openDatabase({ url: `${adminUrl}/${name}`, poolSize: 4 });
  await database.migrate();
  return database;
}

const rate = (rows: number, ms: number) => Math.round((rows * 1000) / ms);
const server = await startPostgresServer();
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sf-bench-import-'));
try {
  await mkdir(path.join(dataDir, 'imports'), { recursive: true });
  const storedName = 'bench.csv';
  const file = path.join(dataDir, 'imports', storedName);
  console.log(`writing ${ROWS.toLocaleString('en')} customers as Italian Excel CSV…`);
  await writeCsv(file, ROWS);
  const size = (await stat(file)).size;
  // The import deletes its file when it ends: COPY reads its own copy.
  const copySource = path.join(dataDir, 'copy-source.csv');
  await copyFile(file, copySource);
  console.log(`file: ${(size / 1024 / 1024).toFixed(1)} MiB · cores: ${os.cpus().length} · load average: ${os.loadavg().map((value) => value.toFixed(1)).join(' ')}`);

  // 1. The import, as the app runs it.
  const importing = await createDatabase(server.adminUrl, 'bench_import');
  await seedDemoData(importing.db);
  const [admin] = ((await importing.db.execute(sql`select id from users where email = 'admin@demo.test'`)) as unknown as { rows: { id: string }[] }).rows;
  const caller = { actor: { id: admin!.id, email: 'admin@demo.test' }, userId: admin!.id, language: 'it' as const };
  const deps: ImportDeps = { db: importing.db, clock: systemClock, timeZone: 'Europe/Rome', dataDir, quotaBytes: 2 ** 31 };
  let started = performance.now();
  const checked = await createImport(deps, caller, { kind: 'customers', dryRun: true, fileName: storedName, storedName, size });
  const checkMs = performance.now() - started;
  console.log(`dry run: ${checked.totalRows.toLocaleString('en')} rows checked, ${checked.errorRows} with errors, in ${(checkMs / 1000).toFixed(1)} s (${rate(checked.totalRows, checkMs).toLocaleString('en')} rows/s) · ${loadAverage()}`);
  await startImport(deps, caller, checked.id);
  started = performance.now();
  for (;;) {
    const result = await runImportChunk(deps, checked.id);
    if (result.status !== 'more') break;
    console.log(`  … ${result.processedRows.toLocaleString('en')} rows committed`);
  }
  const importMs = performance.now() - started;
  const [imported] = ((await importing.db.execute(sql`select count(*)::int as n from customers where email like 'cliente%'`)) as unknown as { rows: { n: number }[] }).rows;
  console.log(`import job: ${imported!.n.toLocaleString('en')} customers (+ consents) in ${(importMs / 1000).toFixed(1)} s → ${rate(imported!.n, importMs).toLocaleString('en')} rows/s · ${loadAverage()}`);
  await importing.close();

  // 2. The same rows through COPY (no checks; card numbers and referral codes made beforehand).
  const copying = await createDatabase(server.adminUrl, 'bench_copy');
  await copying.close();
  const client = new pg.Client({ connectionString: `${server.adminUrl}/bench_copy` });
  client.on('error', (error) => console.error('COPY connection:', error.message));
  await client.connect();
  const referralCodes = new Set<string>();
  let sequence = 0;
  const toCopyRow = (record: string[]) => {
    const draw = () => {
      let drawn = '';
      for (let index = 0; index < 8; index += 1) drawn += REFERRAL_ALPHABET[Math.floor(Math.random() * REFERRAL_ALPHABET.length)];
      return drawn;
    };
    let code = draw();
    while (referralCodes.has(code)) code = draw();
    referralCodes.add(code);
    sequence += 1;
    const [first, last, email, phone, birth, city, province] = record;
    const [day, month, year] = (birth ?? '').split('/');
    return `${[first, last, email, phone, `${year}-${month}-${day}`, city, province, cardNumberFor(sequence), code].join('\t')}\n`;
  };
  started = performance.now();
  const copy = client.query(copyFrom('COPY customers (first_name, last_name, email, phone, birth_date, city, province, card_number, referral_code) FROM STDIN'));
  let isHeader = true;
  await pipeline(
    createReadStream(copySource),
    parse({ delimiter: ';', bom: true }),
    async function* (records: AsyncIterable<string[]>) {
      for await (const record of records) {
        if (isHeader) {
          isHeader = false;
          continue;
        }
        yield toCopyRow(record);
      }
    },
    copy,
  );
  const copyMs = performance.now() - started;
  const { rows } = await client.query<{ n: number }>('select count(*)::int as n from customers');
  await client.end();
  console.log(`COPY: ${rows[0]!.n.toLocaleString('en')} customers in ${(copyMs / 1000).toFixed(1)} s → ${rate(rows[0]!.n, copyMs).toLocaleString('en')} rows/s · ${loadAverage()}`);
  console.log(`import / COPY: ${((copyMs / importMs) * 100).toFixed(0)} % (goal ≥ 50 %)`);
  console.log(
    `check + import / COPY: ${((copyMs / (checkMs + importMs)) * 100).toFixed(0)} % (the dry run counted too: ${rate(imported!.n, checkMs + importMs).toLocaleString('en')} rows/s)`,
  );
} catch (error) {
  console.error('benchmark failed:', error);
  process.exitCode = 1;
} finally {
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
}

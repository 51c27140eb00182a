import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { setImmediate } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Language } from '@sf/contract/app-info';
import { REFERRAL_ALPHABET } from '@sf/contract/customers';
import { message, type MessageKey } from '@sf/contract/messages';
import type { Import, ImportDetail, ImportErrorCode, ImportKind, ListImportsQuery } from '@sf/contract/imports';
import type { Database, Executor } from '../../db/client.ts';
import { recordAudit, type AuditActor } from '../../lib/audit.ts';
import { depsOf, type Caller, type ServiceDeps } from '../../lib/caller.ts';
import { AppError, fieldError, notFound } from '../../lib/errors.ts';
import { enqueueJob } from '../../lib/job-runner.ts';
import { createEntry } from '../ledger/ledger.service.ts';
import { drawCardNumber } from '../customers/customer-cards.service.ts';
import {
  balanceRow,
  cellReader,
  customerRow,
  detectDialect,
  mappingProblems,
  proposeMapping,
  readRecords,
  readRecordsFrom,
  UnreadableCsvError,
  type BalanceRowValues,
  type CustomerRowValues,
  type RowError,
} from './imports.csv.ts';
import * as repo from './imports.repository.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';

export const IMPORT_ENTITY = 'import';
export const IMPORT_JOB = 'imports.run';
/** Rows per committed batch: the unit of progress, of resumption and of the audit record. */
export const IMPORT_BATCH_ROWS = 5000;
/** Rows per committed batch of a staged import (one set-based statement each). */
export const IMPORT_STAGED_BATCH_ROWS = 10_000;
/** Rows checked between two turns of the event loop (see prepareBatch). */
const CHECK_SLICE_ROWS = 250;
/** One job run stops after this long and queues its continuation (well inside the runner's lease). */
const CHUNK_MILLISECONDS = 60_000;
/** Row errors shown in the answer of GET /imports/:id (all of them in errors.csv). */
const ERRORS_SHOWN = 200;

export type ImportDeps = ServiceDeps & { dataDir: string; quotaBytes: number; log?: FastifyBaseLogger };

export function importDeps(app: FastifyInstance): ImportDeps {
  return { ...depsOf(app), dataDir: app.env.dataDir, quotaBytes: app.env.UPLOAD_QUOTA_BYTES, log: app.log };
}

const importsDir = (dataDir: string) => path.join(dataDir, 'imports');
const filePathOf = (dataDir: string, storedName: string) => path.join(importsDir(dataDir), storedName);

const importNotFound = () => notFound('importJob');
const fieldProblem = (field: string, key: MessageKey = 'invalid') => fieldError(field, key);
const invalidState = () => new AppError(409, 'invalid_state');

/** An import error's text in the reader's language, naming the field. */
export function rowErrorText(code: string, field: string, language: Language): string {
  switch (code as ImportErrorCode) {
    case 'required':
      return message('required', language, { field });
    case 'notFound':
      return message('notFound', language, { field });
    case 'duplicateInFile':
      return language === 'it' ? `${message('invalid', language, { field })}: ripetuto nel file` : `${message('invalid', language, { field })}: repeated in the file`;
    case 'alreadyExists':
      return language === 'it' ? `${fieldLabelText(field, language)}: valore già usato` : `${fieldLabelText(field, language)} is already used`;
    case 'consentValue':
      return language === 'it' ? `${message('invalid', language, { field })}: usa sì o no` : `${message('invalid', language, { field })}: use yes or no`;
    case 'insufficientBalance':
    case 'invalid':
    default:
      return message('invalid', language, { field });
  }
}

function fieldLabelText(field: string, language: Language): string {
  // "<label> is required" without its ending gives the bare label in either language.
  return message('required', language, { field }).replace(/ (è|is) (obbligatori[oa]|required)$/, '');
}

export function toImport(row: repo.ImportListRow): Import {
  const value = row.import;
  return {
    id: value.id,
    kind: value.kind,
    status: value.status,
    fileName: value.fileName,
    sizeBytes: value.sizeBytes,
    dialect: value.dialect,
    mapping: value.mapping,
    totalRows: value.totalRows,
    validRows: value.validRows,
    errorRows: value.errorRows,
    processedRows: value.processedRows,
    importedRows: value.importedRows,
    skippedRows: value.skippedRows,
    progress: value.totalRows === 0 ? (value.status === 'done' ? 100 : 0) : Math.min(100, Math.floor((value.processedRows * 100) / value.totalRows)),
    report: value.report ?? null,
    createdBy: row.createdByEmail,
    createdAt: value.createdAt.toISOString(),
    startedAt: value.startedAt?.toISOString() ?? null,
    finishedAt: value.finishedAt?.toISOString() ?? null,
  };
}

export async function listImports(deps: ServiceDeps, query: ListImportsQuery) {
  const { rows, total } = await repo.findImports(deps.db, query);
  return { items: rows.map(toImport), total, page: query.page, pageSize: query.pageSize };
}

export async function getImport(deps: ServiceDeps, id: string, language: Language): Promise<ImportDetail> {
  const row = await repo.findImportWithCreator(deps.db, id);
  if (!row) throw importNotFound();
  const errors = await repo.findRowErrors(deps.db, id, ERRORS_SHOWN);
  const fieldOf = fieldByColumn(row.import.mapping);
  return {
    ...toImport(row),
    errors: errors.map((error) => ({
      row: error.rowNumber,
      column: error.columnName,
      code: error.code,
      message: rowErrorText(error.code, fieldOf(error.columnName), language),
    })),
  };
}

/** The field a column was mapped to (errors name the file's column; the message names the field). */
/** Every row error of an import as CSV for Italian Excel (the read is audited in the export's transaction). */
export async function importErrorsExport(deps: ImportDeps, caller: Caller, id: string) {
  const detail = await getImport(deps, id, caller.language);
  const codes = ['required', 'invalid', 'notFound', 'duplicateInFile', 'alreadyExists', 'consentValue', 'insufficientBalance'];
  const fieldOf = new Map(Object.entries(detail.mapping).map(([field, column]) => [column, field]));
  const columns = [...new Set([...Object.values(detail.mapping), ...Object.keys(detail.mapping)])];
  const texts = columns.flatMap((column) => codes.map((code) => ({ t_column: column, t_code: code, t_text: rowErrorText(code, fieldOf.get(column) ?? column, caller.language) })));
  const source = repo.rowErrorsExport(id, texts);
  return {
    db: deps.db,
    fileName: `errori-importazione-${id.slice(0, 8)}.csv`,
    language: caller.language,
    columns: source.columns,
    query: source.query,
    before: (tx: Executor) => recordAudit(tx, caller.actor, { action: 'export_errors', entityType: IMPORT_ENTITY, entityId: id }),
  };
}

/** Removes an uploaded file that no import kept (the upload was refused before its import was written). */
export async function discardUnkeptUpload(deps: ImportDeps, storedName: string): Promise<void> {
  if (!(await repo.isStoredNameUsed(deps.db, storedName))) await rm(path.join(deps.dataDir, 'imports', storedName), { force: true });
}

export function fieldByColumn(mapping: Record<string, string>) {
  const byColumn = new Map(Object.entries(mapping).map(([field, column]) => [column, field]));
  return (column: string) => byColumn.get(column) ?? column;
}

/**
 * Writes the uploaded stream under DATA_DIR/imports (0600 under the 0700 data directory), stopping
 * at the upload quota. Answers the stored name and size; the caller removes it if the import fails.
 */
export async function storeUpload(deps: ImportDeps, stream: Readable & { truncated?: boolean }): Promise<{ storedName: string; size: number }> {
  await mkdir(importsDir(deps.dataDir), { recursive: true, mode: 0o700 });
  const storedName = `${randomUUID()}.csv`;
  const target = filePathOf(deps.dataDir, storedName);
  let size = 0;
  stream.on('data', (chunk: Buffer) => {
    size += chunk.length;
  });
  await pipeline(stream, createWriteStream(target, { flags: 'wx', mode: 0o600 }));
  if (stream.truncated) {
    await rm(target, { force: true });
    throw new AppError(413, 'payload_too_large', { text: 'file_too_large', params: { megabytes: Math.floor(deps.quotaBytes / (1024 * 1024)) } });
  }
  return { storedName, size };
}

async function readHead(filePath: string): Promise<string> {
  const handle = await open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

async function readHeader(filePath: string, dialect: ReturnType<typeof detectDialect>): Promise<string[]> {
  for await (const record of readRecords(filePath, dialect)) return record;
  return [];
}

type PreparedRow = {
  rowNumber: number;
  errors: RowError[];
  customer?: CustomerRowValues & { referredBy: string | null };
  balance?: BalanceRowValues & { customerId: string; programId: string };
};

/**
 * What a check keeps from batch to batch: the e-mails seen earlier in the file. `isImporting`: the
 * run itself does not look the e-mails up first — the insert's unique index refuses a taken one and
 * the row is reported then (one query less per batch).
 */
type CheckState = { seenEmails: Set<string>; programs?: Map<string, { id: string; status: string }>; isImporting?: boolean };

/**
 * Checks one batch of rows: the row's own validators, then what needs the database (e-mails taken,
 * referrers, cards, programs). The same code serves the dry run and the import.
 */
async function prepareBatch(
  executor: Executor,
  value: repo.ImportRow,
  header: string[],
  records: { rowNumber: number; record: string[] }[],
  state: CheckState,
): Promise<PreparedRow[]> {
  const cellsOf = cellReader(header, value.mapping);
  if (value.kind === 'customers') {
    const rows: { rowNumber: number; errors: RowError[]; values?: CustomerRowValues | undefined }[] = [];
    for (const [index, { rowNumber, record }] of records.entries()) {
      // Checking is CPU work: slices of rows let the previous batch's statements go out meanwhile.
      if (index > 0 && index % CHECK_SLICE_ROWS === 0) await setImmediate();
      const result = customerRow(cellsOf(record), value.mapping);
      rows.push({ rowNumber, errors: result.errors, values: result.values });
    }
    const emails = rows.flatMap((row) => (row.values?.customer.email ? [row.values.customer.email.toLowerCase()] : []));
    const codes = rows.flatMap((row) => (row.values?.customer.referrerCode ? [row.values.customer.referrerCode] : []));
    const [taken, referrers] = await Promise.all([
      state.isImporting ? new Set<string>() : repo.existingEmails(executor, emails),
      repo.customersByReferralCode(executor, codes),
    ]);
    return rows.map((row) => {
      const prepared: PreparedRow = { rowNumber: row.rowNumber, errors: [...row.errors] };
      if (!row.values) return prepared;
      const email = row.values.customer.email?.toLowerCase();
      const emailColumn = value.mapping['email'] || 'email';
      if (email && state.seenEmails.has(email)) prepared.errors.push({ column: emailColumn, field: 'email', code: 'duplicateInFile' });
      else if (email && taken.has(email)) prepared.errors.push({ column: emailColumn, field: 'email', code: 'alreadyExists' });
      if (email) state.seenEmails.add(email);
      const code = row.values.customer.referrerCode;
      const referredBy = code ? (referrers.get(code) ?? null) : null;
      if (code && referredBy === null) prepared.errors.push({ column: value.mapping['referrerCode'] || 'referrerCode', field: 'referrerCode', code: 'notFound' });
      if (prepared.errors.length === 0) prepared.customer = { ...row.values, referredBy };
      return prepared;
    });
  }
  state.programs ??= await repo.programsByIdOrName(executor);
  const programs = state.programs;
  const rows = records.map(({ rowNumber, record }) => {
    const result = balanceRow(cellsOf(record), value.mapping, value.dialect);
    return { rowNumber, errors: result.errors, values: result.values };
  });
  const cards = rows.flatMap((row) => (row.values?.cardNumber ? [row.values.cardNumber] : []));
  const emails = rows.flatMap((row) => (row.values?.email && !row.values.cardNumber ? [row.values.email] : []));
  const found = await repo.customersByCardOrEmail(executor, cards, emails);
  const defaultProgram = typeof value.options['programId'] === 'string' ? value.options['programId'] : undefined;
  return rows.map((row) => {
    const prepared: PreparedRow = { rowNumber: row.rowNumber, errors: [...row.errors] };
    if (!row.values) return prepared;
    const customer = row.values.cardNumber ? found.byCard.get(row.values.cardNumber) : found.byEmail.get(row.values.email ?? '');
    const customerField = row.values.cardNumber ? 'cardNumber' : 'email';
    if (!customer || customer.status !== 'active') {
      prepared.errors.push({ column: value.mapping[customerField] || customerField, field: customerField, code: 'notFound' });
    }
    const programKey = row.values.program?.toLowerCase() ?? defaultProgram;
    const program = programKey ? programs.get(programKey) : undefined;
    if (!program || program.status !== 'active') {
      prepared.errors.push({ column: value.mapping['programId'] || 'programId', field: 'programId', code: programKey ? 'notFound' : 'required' });
    }
    if (prepared.errors.length === 0 && customer && program) prepared.balance = { ...row.values, customerId: customer.id, programId: program.id };
    return prepared;
  });
}

/**
 * Streams the data rows of the file in batches after the first `after` data rows. Rows are numbered
 * as a spreadsheet shows them: the header is row 1, the first data row is row 2 (so data row n is
 * row n + 1, and `processedRows` — a count of data rows — is the last committed row minus one).
 */
async function* batchesOf(filePath: string, value: repo.ImportRow, after: number, batchRows: number) {
  let header: string[] | null = null;
  let dataIndex = 0;
  let start = 0;
  // A resumed run reads on from the byte where its committed rows end (the header read apart).
  if (after > 0 && value.processedBytes > 0) {
    header = await readHeader(filePath, value.dialect);
    dataIndex = after;
    start = value.processedBytes;
  }
  let batch: { rowNumber: number; record: string[] }[] = [];
  let end = start;
  for await (const { record, end: recordEnd } of readRecordsFrom(filePath, value.dialect, start)) {
    end = recordEnd;
    if (header === null) {
      header = record;
      continue;
    }
    dataIndex += 1;
    if (dataIndex <= after) continue;
    const rowNumber = dataIndex + 1;
    batch.push({ rowNumber, record });
    if (batch.length >= batchRows) {
      yield { header, batch, end };
      batch = [];
    }
  }
  if (batch.length > 0 && header) yield { header, batch, end };
}

const toStoredErrors = (rows: PreparedRow[]): repo.StoredRowError[] =>
  rows.flatMap((row) => row.errors.map((error) => ({ rowNumber: row.rowNumber, columnName: error.column, code: error.code })));

/** The dry run: every row checked, the errors stored, the counts kept on the import. */
async function checkFile(deps: ImportDeps, value: repo.ImportRow, batchRows: number) {
  const state: CheckState = { seenEmails: new Set() };
  let total = 0;
  let errorRows = 0;
  for await (const { header, batch } of batchesOf(filePathOf(deps.dataDir, value.storedName), value, 0, batchRows)) {
    const prepared = await prepareBatch(deps.db, value, header, batch, state);
    total += prepared.length;
    errorRows += prepared.filter((row) => row.errors.length > 0).length;
    await repo.insertRowErrors(deps.db, value.id, toStoredErrors(prepared));
    if (value.kind === 'customers') await repo.stageCustomers(deps.db, value.id, toStaged(prepared));
  }
  return repo.updateImport(deps.db, value.id, { totalRows: total, errorRows, validRows: total - errorRows, staged: value.kind === 'customers' });
}

/** A checked row's person as the customers table's columns (the e-mail lower-cased, as the form stores it). */
function personColumns(customer: NonNullable<PreparedRow['customer']>['customer']) {
  return {
    first_name: customer.firstName,
    last_name: customer.lastName,
    email: customer.email?.toLowerCase() ?? null,
    phone: customer.phone ?? null,
    birth_date: customer.birthDate ?? null,
    city: customer.city ?? null,
    province: customer.province ?? null,
  };
}

/** The checked rows of a batch as the dry run stages them, each with a referral code and a card number drawn now. */
function toStaged(prepared: PreparedRow[]): repo.StagedCustomer[] {
  const valid = prepared.filter((row) => row.customer);
  const codes = referralCodes(valid.length);
  return valid.map((row, index) => {
    const { customer, consents, noticeVersion, referredBy } = row.customer!;
    return {
      row_number: row.rowNumber,
      ...personColumns(customer),
      referral_code: codes[index]!,
      card_number: drawCardNumber(),
      referred_by: referredBy,
      service: consents.service ?? null,
      marketing: consents.marketing ?? null,
      profiling: consents.profiling ?? null,
      notice_version: noticeVersion,
    };
  });
}

export type CreateImportInput = {
  kind: ImportKind;
  dryRun: boolean;
  mapping?: Record<string, string> | undefined;
  programId?: string | undefined;
  fileName: string;
  storedName: string;
  size: number;
};

/**
 * `POST /api/admin/imports`: the file is stored, its dialect detected, the columns mapped (given, or
 * proposed from the header), every row checked (the dry run); with dryRun=false the import is queued.
 */
export async function createImport(deps: ImportDeps, caller: Caller, input: CreateImportInput, options: { batchRows?: number } = {}) {
  const filePath = filePathOf(deps.dataDir, input.storedName);
  let createdId: string | undefined;
  try {
    const dialect = detectDialect(await readHead(filePath));
    const header = await readHeader(filePath, dialect);
    if (header.length === 0) throw fieldProblem('file', 'required');
    const mapping = input.mapping ?? proposeMapping(input.kind, header);
    if (mappingProblems(input.kind, header, mapping).length > 0) throw fieldProblem('mapping');
    if (input.kind === 'balances' && !mapping['programId'] && !input.programId) throw fieldProblem('programId', 'required');
    const now = deps.clock.now();
    const created = await deps.db.transaction(async (tx) => {
      const row = await repo.insertImport(tx, {
        kind: input.kind,
        fileName: path.basename(input.fileName).slice(0, 255) || 'import.csv',
        storedName: input.storedName,
        sizeBytes: input.size,
        dialect,
        mapping: Object.fromEntries(Object.entries(mapping).filter(([, column]) => column !== '')),
        options: input.programId ? { programId: input.programId } : {},
        createdBy: caller.userId,
        createdAt: now,
      });
      await recordAudit(tx, caller.actor, {
        action: 'create',
        entityType: IMPORT_ENTITY,
        entityId: row.id,
        after: { kind: row.kind, fileName: row.fileName, sizeBytes: row.sizeBytes, dialect, mapping: row.mapping },
      });
      return row;
    });
    createdId = created.id;
    const checked = (await checkFile(deps, created, options.batchRows ?? IMPORT_BATCH_ROWS)) ?? created;
    // A staged import runs from its staging table alone: the file (every row of it, the refused ones
    // too) is not kept a moment longer than the check (issue 30: an erasure must find the person).
    if (checked.staged) await rm(filePath, { force: true });
    if (!input.dryRun) await startImport(deps, caller, checked.id);
    return getImport(deps, checked.id, caller.language);
  } catch (error) {
    if (error instanceof UnreadableCsvError) {
      // Not a CSV we can read: no half-checked import stays behind (its row errors and staged rows
      // go with it), and the answer names the line, not the cells (which never reach the log).
      if (createdId !== undefined) await refuseUnreadable(deps, caller, createdId, error.line);
      await rm(filePath, { force: true });
      throw unreadableFile(error.line);
    }
    // A refused file is not kept (an accepted one stays until its import ends).
    if (!(await repo.isStoredNameUsed(deps.db, input.storedName))) await rm(filePath, { force: true });
    throw error;
  }
}

const unreadableFile = (line: number) =>
  new AppError(400, 'validation', { fields: [{ field: 'file', text: 'unreadable_csv', params: { line } }] });

async function refuseUnreadable(deps: ImportDeps, caller: Caller, id: string, line: number) {
  await deps.db.transaction(async (tx) => {
    await repo.deleteImport(tx, id);
    await recordAudit(tx, caller.actor, { action: 'refuse', entityType: IMPORT_ENTITY, entityId: id, after: { line } });
  });
}

/**
 * An erasure (privacy requests): the person's rows leave every import not yet finished, so that
 * starting it afterwards cannot bring the person back. A staged row is the person's when it has their
 * e-mail, their phone, or their first and last name with their birth date. Answers how many rows went.
 */
export async function dropPersonFromPendingImports(
  executor: Executor,
  person: { email: string | null; phone: string | null; firstName: string; lastName: string; birthDate: string | null },
): Promise<number> {
  return repo.deleteStagedPerson(executor, person);
}

/**
 * Queues a checked import for the background runner. Starting one that is already queued, running or
 * done answers it as it is (a double click on "Importa", or a retry after a lost answer, is not an
 * error: the import the person asked for is under way or finished); a cancelled one cannot start.
 */
export async function startImport(deps: ImportDeps, caller: Caller, id: string) {
  const started = await deps.db.transaction(async (tx) => {
    const value = await repo.findImport(tx, id, { forUpdate: true });
    if (!value) throw importNotFound();
    if (value.status === 'queued' || value.status === 'running' || value.status === 'done') return null;
    // A failed import starts again after its last committed batch.
    if (value.status !== 'validated' && value.status !== 'failed') throw invalidState();
    await repo.updateImport(tx, id, { status: 'queued', version: value.version + 1 });
    await recordAudit(tx, caller.actor, { action: value.status === 'failed' ? 'resume' : 'start', entityType: IMPORT_ENTITY, entityId: id });
    return value;
  });
  if (started) await enqueueJob(deps.db, { kind: IMPORT_JOB, dedupeKey: `${IMPORT_JOB}:${id}:${started.version}`, payload: { importId: id } });
  return getImport(deps, id, caller.language);
}

/** Stops an import: a running one stops before its next batch; what was imported stays (the report says how much). */
export async function cancelImport(deps: ImportDeps, caller: Caller, id: string) {
  const now = deps.clock.now();
  const storedName = await deps.db.transaction(async (tx) => {
    const value = await repo.findImport(tx, id, { forUpdate: true });
    if (!value) throw importNotFound();
    // Cancelled already (a double click): answered as it is.
    if (value.status === 'cancelled') return null;
    if (!['validated', 'queued', 'running', 'failed'].includes(value.status)) throw invalidState();
    // A staged import claims a row by deleting it from the staging table and counts as it goes.
    const imported = value.staged ? value.importedRows : await repo.countImported(tx, id);
    await repo.updateImport(tx, id, {
      status: 'cancelled',
      cancelledAt: now,
      finishedAt: now,
      importedRows: imported,
      report: { imported, skipped: Math.max(0, value.processedRows - imported), errors: value.errorRows },
      version: value.version + 1,
    });
    await repo.deleteStaged(tx, id);
    await recordAudit(tx, caller.actor, { action: 'cancel', entityType: IMPORT_ENTITY, entityId: id, after: { processedRows: value.processedRows, imported } });
    return value.storedName;
  });
  if (storedName !== null) await rm(filePathOf(deps.dataDir, storedName), { force: true });
  return getImport(deps, id, caller.language);
}

export type ImportActor = { actor: AuditActor; userId: string | null; label: string };

/**
 * Referral codes for a batch from one buffer of random bytes (crypto-strong like the customer form's
 * newReferralCode, without a call per character): a byte below 250 picks one of the 25 letters evenly.
 */
function referralCodes(count: number): string[] {
  const size = REFERRAL_ALPHABET.length;
  const limit = 256 - (256 % size);
  const codes: string[] = [];
  let bytes = randomBytes(Math.ceil(count * 8 * 1.1) + 16);
  let at = 0;
  let code = '';
  while (codes.length < count) {
    if (at >= bytes.length) {
      bytes = randomBytes(64);
      at = 0;
    }
    const byte = bytes[at++]!;
    if (byte >= limit) continue;
    code += REFERRAL_ALPHABET[byte % size];
    if (code.length === 8) {
      codes.push(code);
      code = '';
    }
  }
  return codes;
}

/**
 * Claimed rows a unique index left out: a referral code (25^8 codes) or card number (10^9) drawn twice,
 * or an e-mail taken since the check. Retried with fresh codes and numbers; what still fails (an e-mail taken since the check) is
 * unclaimed and reported. Answers the ids inserted.
 */
async function retryLeftOut(tx: Executor, value: repo.ImportRow, leftOut: repo.CustomerBatchRow[], now: Date): Promise<string[]> {
  const inserted: string[] = [];
  let pending = leftOut;
  for (let attempt = 0; attempt < 3 && pending.length > 0; attempt += 1) {
    const fresh = referralCodes(pending.length);
    const retry = pending.map((row, index) => ({ ...row, referral_code: fresh[index]!, card_number: drawCardNumber() }));
    const added = await repo.insertCustomers(tx, retry, now);
    const consentRows: repo.ConsentInsert[] = [];
    for (const row of retry) {
      if (!added.has(row.id)) continue;
      inserted.push(row.id);
      for (const purpose of ['service', 'marketing', 'profiling'] as const) {
        const granted = row[purpose];
        if (granted !== null) consentRows.push({ customer_id: row.id, purpose, granted, notice_version: row.notice_version });
      }
    }
    await repo.insertConsents(tx, consentRows, now);
    pending = pending.filter((row) => !added.has(row.id));
  }
  if (pending.length > 0) {
    await repo.unclaimEntities(tx, value.id, pending.map((row) => row.row_number));
    await repo.insertRowErrors(
      tx,
      value.id,
      pending.map((row) => ({ rowNumber: row.row_number, columnName: value.mapping['email'] || 'email', code: 'alreadyExists' })),
    );
  }
  return inserted;
}

/**
 * One committed batch of STAGED customers — the rows `from`..`to` of the file — in one transaction
 * with the progress and one audit record. The dry run checked and staged the rows, so no row passes
 * through here: one set-based statement (repo.importStagedCustomers) deletes them from the staging
 * table, claims, inserts and records their consents; only the rare row a unique index left out comes
 * back (the batch's statement then runs again leaving them out), to be retried with a fresh referral
 * code or reported.
 */
async function importStagedBatch(deps: ImportDeps, value: repo.ImportRow, from: number, to: number, actor: ImportActor): Promise<boolean> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const current = await repo.findImport(tx, value.id, { forUpdate: true });
    if (!current || current.status !== 'running') return false;
    let result: { inserted: number; leftOut: (repo.StagedCustomer & { id: string })[] };
    try {
      result = { inserted: await tx.transaction((savepoint) => repo.importStagedCustomers(savepoint, value.id, { from, to }, now)), leftOut: [] };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      result = await repo.importStagedCustomersLeavingOut(tx, value.id, { from, to }, now);
    }
    let inserted = result.inserted;
    if (result.leftOut.length > 0) {
      const leftOut = result.leftOut.map((row): repo.CustomerBatchRow => ({
        ...row,
        service_consent: row.service === true,
        marketing_consent: row.marketing === true,
        profiling_consent: row.profiling === true,
      }));
      inserted += (await retryLeftOut(tx, value, leftOut, now)).length;
    }
    await repo.updateImport(tx, value.id, { ...progressOf(current, to, 0), importedRows: current.importedRows + inserted });
    await recordAudit(tx, actor.actor, {
      action: 'import_batch',
      entityType: IMPORT_ENTITY,
      entityId: value.id,
      after: { rows: [from, to], imported: inserted },
    });
    return true;
  });
}

/**
 * One committed batch of customers, in one transaction with the progress and one audit record: one
 * statement claims each row in import_rows (a row claimed before, by this run or another, is not
 * imported again), inserts the claimed customers and records their consents
 * (repo.claimAndInsertCustomers).
 */
async function importCustomerBatch(deps: ImportDeps, value: repo.ImportRow, prepared: PreparedRow[], end: number, actor: ImportActor): Promise<boolean> {
  const now = deps.clock.now();
  const valid = prepared.filter((row) => row.customer);
  const codes = referralCodes(valid.length);
  return deps.db.transaction(async (tx) => {
    const current = await repo.findImport(tx, value.id, { forUpdate: true });
    if (!current || current.status !== 'running') return false;
    const rows: repo.CustomerBatchRow[] = valid.map((row, index) => {
      const { customer, consents, noticeVersion, referredBy } = row.customer!;
      return {
        row_number: row.rowNumber,
        id: randomUUID(),
        ...personColumns(customer),
        card_number: drawCardNumber(),
        referral_code: codes[index]!,
        referred_by: referredBy,
        service_consent: consents.service === true,
        marketing_consent: consents.marketing === true,
        profiling_consent: consents.profiling === true,
        notice_version: noticeVersion,
        service: consents.service,
        marketing: consents.marketing,
        profiling: consents.profiling,
      };
    });
    const { claimed, inserted } = await repo.claimAndInsertCustomers(tx, value.id, rows, now);
    for (const id of await retryLeftOut(tx, value, rows.filter((row) => claimed.has(row.row_number) && !inserted.has(row.id)), now)) inserted.add(id);
    await repo.insertRowErrors(tx, value.id, toStoredErrors(prepared));
    const last = prepared.at(-1)?.rowNumber ?? current.processedRows + 1;
    await repo.updateImport(tx, value.id, {
      ...progressOf(current, last, end),
      importedRows: current.importedRows + inserted.size,
    });
    await recordAudit(tx, actor.actor, {
      action: 'import_batch',
      entityType: IMPORT_ENTITY,
      entityId: value.id,
      after: { rows: [prepared[0]?.rowNumber, last], imported: inserted.size },
    });
    return true;
  });
}

/**
 * One batch of opening balances: each row is an `adjust` entry through the ledger's own createEntry
 * (never a second ledger), with the idempotency key `import:<id>:<row>` — a row written before a
 * crash is answered from its first entry, not written twice.
 */
async function importBalanceBatch(deps: ImportDeps, value: repo.ImportRow, prepared: PreparedRow[], end: number, actor: ImportActor): Promise<boolean> {
  const current = await repo.findImport(deps.db, value.id);
  if (!current || current.status !== 'running') return false;
  let imported = 0;
  const failed: repo.StoredRowError[] = [];
  for (const row of prepared) {
    if (!row.balance) continue;
    if (await repo.isRowClaimed(deps.db, value.id, row.rowNumber)) continue;
    try {
      const result = await createEntry(
        deps,
        { id: actor.userId, label: actor.label, audit: actor.actor },
        { customerId: row.balance.customerId, programId: row.balance.programId, kind: 'adjust', points: row.balance.points, reason: row.balance.reason },
        `import:${value.id}:${row.rowNumber}`,
      );
      const entry = (result as { body?: { entry?: { id?: number } } }).body?.entry;
      const claimed = await repo.claimRows(deps.db, value.id, [{ rowNumber: row.rowNumber, entityId: String(entry?.id ?? 'entry') }]);
      imported += claimed.size;
    } catch (error) {
      deps.log?.warn({ err: error, row: row.rowNumber }, 'import row refused by the ledger');
      failed.push({ rowNumber: row.rowNumber, columnName: value.mapping['points'] || 'points', code: 'invalid' });
    }
  }
  return deps.db.transaction(async (tx) => {
    const locked = await repo.findImport(tx, value.id, { forUpdate: true });
    if (!locked) return false;
    await repo.insertRowErrors(tx, value.id, [...toStoredErrors(prepared), ...failed]);
    const last = prepared.at(-1)?.rowNumber ?? locked.processedRows + 1;
    await repo.updateImport(tx, value.id, { ...progressOf(locked, last, end), importedRows: locked.importedRows + imported });
    await recordAudit(tx, actor.actor, { action: 'import_batch', entityType: IMPORT_ENTITY, entityId: value.id, after: { rows: [prepared[0]?.rowNumber, last], imported } });
    return locked.status === 'running';
  });
}

/** The progress after a batch ending at row `last` and byte `end` (a batch behind the progress keeps it). */
function progressOf(current: repo.ImportRow, last: number, end: number) {
  return last - 1 >= current.processedRows ? { processedRows: last - 1, processedBytes: end } : {};
}

export type ChunkResult = { status: 'done' | 'more' | 'stopped'; processedRows: number };

/**
 * Runs an import from its last committed row: batches until the file ends, the import is cancelled,
 * or the chunk's time (or `maxBatches`) is used up. Safe to run twice at once or after a crash.
 */
export async function runImportChunk(
  deps: ImportDeps,
  id: string,
  options: { maxBatches?: number; batchRows?: number; actor?: ImportActor } = {},
): Promise<ChunkResult> {
  const startedAt = Date.now();
  const value = await deps.db.transaction(async (tx) => {
    const row = await repo.findImport(tx, id, { forUpdate: true });
    if (!row || !['queued', 'running'].includes(row.status)) return row ? { ...row, isStopped: true } : undefined;
    const updated = await repo.updateImport(tx, id, { status: 'running', startedAt: row.startedAt ?? deps.clock.now() });
    return { ...(updated ?? row), isStopped: false };
  });
  if (!value) return { status: 'stopped', processedRows: 0 };
  if (value.isStopped) return { status: value.status === 'done' ? 'done' : 'stopped', processedRows: value.processedRows };
  const creator = value.createdBy;
  const actor: ImportActor = options.actor ?? {
    actor: { id: creator, email: `import:${value.id}` },
    userId: creator,
    label: `import ${value.fileName}`,
  };
  if (value.kind === 'customers' && value.staged) {
    const batchRows = options.batchRows ?? IMPORT_STAGED_BATCH_ROWS;
    const last = value.totalRows + 1;
    let batches = 0;
    // Row n of the file is data row n - 1: the first row not done is processedRows + 2.
    for (let from = value.processedRows + 2; from <= last; from += batchRows) {
      const to = Math.min(last, from + batchRows - 1);
      if (!(await importStagedBatch(deps, value, from, to, actor))) return { status: 'stopped', processedRows: from - 2 };
      batches += 1;
      if (to < last && ((options.maxBatches !== undefined && batches >= options.maxBatches) || Date.now() - startedAt > CHUNK_MILLISECONDS)) {
        return { status: 'more', processedRows: to - 1 };
      }
    }
    await finishImport(deps, id, startedAt);
    return { status: 'done', processedRows: value.totalRows };
  }
  const state: CheckState = { seenEmails: new Set(), isImporting: true };
  let batches = 0;
  // Pipelined: the next batch is read and checked (CPU here) while this one is written (CPU in
  // PostgreSQL). Checking only reads, so a check thrown away when the run stops costs nothing.
  const source = batchesOf(filePathOf(deps.dataDir, value.storedName), value, value.processedRows, options.batchRows ?? IMPORT_BATCH_ROWS);
  const check = (next: IteratorResult<{ header: string[]; batch: { rowNumber: number; record: string[] }[]; end: number }>) => {
    if (next.done) return null;
    const checking = prepareBatch(deps.db, value, next.value.header, next.value.batch, state);
    checking.catch(() => undefined); // awaited below; a run that stops first must not leave it unhandled
    return { batch: next.value.batch, end: next.value.end, checking };
  };
  try {
    let current = check(await source.next());
    while (current) {
      const prepared = await current.checking;
      const following = check(await source.next());
      const isRunning =
        value.kind === 'customers'
          ? await importCustomerBatch(deps, value, prepared, current.end, actor)
          : await importBalanceBatch(deps, value, prepared, current.end, actor);
      if (!isRunning) return { status: 'stopped', processedRows: current.batch[0]!.rowNumber - 2 };
      batches += 1;
      const processed = current.batch.at(-1)!.rowNumber - 1;
      if ((options.maxBatches !== undefined && batches >= options.maxBatches) || Date.now() - startedAt > CHUNK_MILLISECONDS) {
        return { status: 'more', processedRows: processed };
      }
      current = following;
    }
  } finally {
    await source.return(undefined);
  }
  await finishImport(deps, id, startedAt);
  return { status: 'done', processedRows: value.totalRows };
}

async function finishImport(deps: ImportDeps, id: string, startedAt: number) {
  const storedName = await deps.db.transaction(async (tx) => {
    const value = await repo.findImport(tx, id, { forUpdate: true });
    if (!value || value.status !== 'running') return null;
    const imported = value.staged ? value.importedRows : await repo.countImported(tx, id);
    const errorCount = await repo.countErrorRows(tx, id);
    const report = { imported, skipped: Math.max(0, value.totalRows - imported), errors: errorCount, durationMs: Date.now() - startedAt };
    await repo.updateImport(tx, id, {
      status: 'done',
      finishedAt: deps.clock.now(),
      importedRows: imported,
      skippedRows: Math.max(0, value.totalRows - imported),
      processedRows: value.totalRows,
      report,
    });
    await repo.deleteStaged(tx, id);
    await recordAudit(tx, { id: value.createdBy, email: `import:${id}` }, { action: 'finish', entityType: IMPORT_ENTITY, entityId: id, after: report });
    return value.storedName;
  });
  if (storedName) await rm(filePathOf(deps.dataDir, storedName), { force: true });
}

/**
 * The job handler: one chunk, then its continuation queued (a new job, so each run keeps a short
 * lease). A chunk that fails marks the import `failed` (it shows on the screen, with the rows committed
 * so far); starting it again resumes after the last committed batch.
 */
export async function runImportJob(deps: ImportDeps, db: Database, payload: Record<string, unknown>) {
  const id = String(payload['importId'] ?? '');
  let result: ChunkResult;
  try {
    result = await runImportChunk(deps, id);
  } catch (error) {
    deps.log?.error({ err: error, importId: id }, 'import failed');
    await db.transaction(async (tx) => {
      const value = await repo.findImport(tx, id, { forUpdate: true });
      if (value?.status === 'running') await repo.updateImport(tx, id, { status: 'failed' });
    });
    return { status: 'failed' as const };
  }
  if (result.status === 'more') {
    await enqueueJob(db, { kind: IMPORT_JOB, dedupeKey: `${IMPORT_JOB}:${id}:${result.processedRows}`, payload: { importId: id } });
  }
  return result;
}

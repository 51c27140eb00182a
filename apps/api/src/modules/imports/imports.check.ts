import { randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';
import { setImmediate } from 'node:timers/promises';
import { REFERRAL_ALPHABET } from '@sf/contract/customers';
import type { Executor } from '../../db/client.ts';
import { drawCardNumber } from '../customers/customer-cards.service.ts';
import type { detectDialect} from './imports.csv.ts';
import { balanceRow, cellReader, countLines, customerRow, readRecords, readRecordsFrom, type BalanceRowValues, type CustomerRowValues, type RowError } from './imports.csv.ts';
import * as repo from './imports.repository.ts';
import { CHECK_SLICE_ROWS, filePathOf, type ImportDeps } from './imports.service.ts';

/**
 * The dry run's side of an import (split out of imports.service.ts, issue 26): reading the stored file
 * in batches, checking every row with the contract's validators, storing the row errors and staging
 * the checked customers. The service starts it; the run (imports.run.ts) reads the same batches.
 */
export async function readHead(filePath: string): Promise<string> {
  const handle = await open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

export async function readHeader(filePath: string, dialect: ReturnType<typeof detectDialect>): Promise<string[]> {
  for await (const record of readRecords(filePath, dialect)) return record;
  return [];
}

export type PreparedRow = {
  /** The row's position: data row n is row n + 1 (claims, staging, progress and resumption count by it). */
  rowNumber: number;
  /** The file's line it is on, blank lines counted: what a report names it by. */
  line: number;
  errors: RowError[];
  customer?: CustomerRowValues & { referredBy: string | null };
  balance?: BalanceRowValues & { customerId: string; programId: string };
};

/**
 * What a check keeps from batch to batch: the e-mails seen earlier in the file. `isImporting`: the
 * run itself does not look the e-mails up first — the insert's unique index refuses a taken one and
 * the row is reported then (one query less per batch).
 */
export type CheckState = { seenEmails: Set<string>; programs?: Map<string, { id: string; status: string }>; isImporting?: boolean };

/**
 * Checks one batch of rows: the row's own validators, then what needs the database (e-mails taken,
 * referrers, cards, programs). The same code serves the dry run and the import.
 */
export async function prepareBatch(
  executor: Executor,
  value: repo.ImportRow,
  header: string[],
  records: BatchRecord[],
  state: CheckState,
): Promise<PreparedRow[]> {
  const cellsOf = cellReader(header, value.mapping);
  if (value.kind === 'customers') {
    const rows: { rowNumber: number; line: number; errors: RowError[]; values?: CustomerRowValues | undefined }[] = [];
    for (const [index, { rowNumber, line, record }] of records.entries()) {
      // Checking is CPU work: slices of rows let the previous batch's statements go out meanwhile.
      if (index > 0 && index % CHECK_SLICE_ROWS === 0) await setImmediate();
      const result = customerRow(cellsOf(record), value.mapping);
      rows.push({ rowNumber, line, errors: result.errors, values: result.values });
    }
    const emails = rows.flatMap((row) => (row.values?.customer.email ? [row.values.customer.email.toLowerCase()] : []));
    const codes = rows.flatMap((row) => (row.values?.customer.referrerCode ? [row.values.customer.referrerCode] : []));
    const [taken, referrers] = await Promise.all([
      state.isImporting ? new Set<string>() : repo.existingEmails(executor, emails),
      repo.customersByReferralCode(executor, codes),
    ]);
    return rows.map((row) => {
      const prepared: PreparedRow = { rowNumber: row.rowNumber, line: row.line, errors: [...row.errors] };
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
  const rows = records.map(({ rowNumber, line, record }) => {
    const result = balanceRow(cellsOf(record), value.mapping, value.dialect);
    return { rowNumber, line, errors: result.errors, values: result.values };
  });
  const cards = rows.flatMap((row) => (row.values?.cardNumber ? [row.values.cardNumber] : []));
  const emails = rows.flatMap((row) => (row.values?.email && !row.values.cardNumber ? [row.values.email] : []));
  const found = await repo.customersByCardOrEmail(executor, cards, emails);
  const defaultProgram = typeof value.options['programId'] === 'string' ? value.options['programId'] : undefined;
  return rows.map((row) => {
    const prepared: PreparedRow = { rowNumber: row.rowNumber, line: row.line, errors: [...row.errors] };
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

/** A data row as a batch carries it: its position (`rowNumber`), the file's line it is on, its cells. */
export type BatchRecord = { rowNumber: number; line: number; record: string[] };

/**
 * Streams the data rows of the file in batches after the first `after` data rows. Rows are numbered
 * as a spreadsheet shows them: the header is row 1, the first data row is row 2 (so data row n is
 * row n + 1, and `processedRows` — a count of data rows — is the last committed row minus one). Each
 * row also has the file's line (`line`, as reports name it: a blank line before it counts, a spreadsheet
 * skips it), and each batch the byte and line where its last row ends (`end`, `endLine`), which the
 * run commits with the batch so that a resumed run reads on from there and goes on counting lines.
 */
export async function* batchesOf(filePath: string, value: repo.ImportRow, after: number, batchRows: number) {
  let header: string[] | null = null;
  let dataIndex = 0;
  let start = 0;
  let linesBefore = 0;
  // A resumed run reads on from the byte where its committed rows end (the header read apart).
  if (after > 0 && value.processedBytes > 0) {
    header = await readHeader(filePath, value.dialect);
    dataIndex = after;
    start = value.processedBytes;
    linesBefore = value.processedLines > 0 ? value.processedLines : await countLines(filePath, start);
  }
  let batch: BatchRecord[] = [];
  let end = start;
  let endLine = linesBefore;
  for await (const { record, end: recordEnd, line } of readRecordsFrom(filePath, value.dialect, start, linesBefore)) {
    end = recordEnd;
    endLine = line;
    if (header === null) {
      header = record;
      continue;
    }
    dataIndex += 1;
    if (dataIndex <= after) continue;
    const rowNumber = dataIndex + 1;
    batch.push({ rowNumber, line, record });
    if (batch.length >= batchRows) {
      yield { header, batch, end, endLine };
      batch = [];
    }
  }
  if (batch.length > 0 && header) yield { header, batch, end, endLine };
}

/** A row's errors as stored: under the file's line, which the report and errors.csv name it by. */
export const toStoredErrors = (rows: PreparedRow[]): repo.StoredRowError[] =>
  rows.flatMap((row) => row.errors.map((error) => ({ rowNumber: row.line, columnName: error.column, code: error.code })));

/** The dry run: every row checked, the errors stored, the counts kept on the import. */
export async function checkFile(deps: ImportDeps, value: repo.ImportRow, batchRows: number) {
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
export function personColumns(customer: NonNullable<PreparedRow['customer']>['customer']) {
  return {
    first_name: customer.firstName,
    last_name: customer.lastName,
    email: customer.email?.toLowerCase() ?? null,
    phone: customer.phone ?? null,
    birth_date: customer.birthDate ?? null,
    city: customer.city ?? null,
    province: customer.province ?? null,
    language: customer.language ?? 'it',
  };
}

/** The checked rows of a batch as the dry run stages them, each with a referral code and a card number drawn now. */
export function toStaged(prepared: PreparedRow[]): repo.StagedCustomer[] {
  const valid = prepared.filter((row) => row.customer);
  const codes = referralCodes(valid.length);
  return valid.map((row, index) => {
    const { customer, consents, noticeVersion, referredBy } = row.customer!;
    return {
      row_number: row.rowNumber,
      line_number: row.line,
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

/**
 * Referral codes for a batch from one buffer of random bytes (crypto-strong like the customer form's
 * newReferralCode, without a call per character): a byte below 250 picks one of the 25 letters evenly.
 */
export function referralCodes(count: number): string[] {
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

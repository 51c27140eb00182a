import { createReadStream } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CsvError, parse } from 'csv-parse';
import {
  createCustomerSchema,
  isValidCardNumber,
  type CreateCustomer,
} from '@sf/contract/customers';
import {
  IMPORT_COLUMN_ALIASES,
  IMPORT_FIELDS,
  REQUIRED_IMPORT_FIELDS,
  type CsvDialect,
  type ImportErrorCode,
  type ImportKind,
} from '@sf/contract/imports';

/**
 * Reading the imported CSV files (pure functions, no database): the dialect, the mapping of columns
 * to fields, and each row turned into the values to import or the row's errors.
 */

const BOM = '\uFEFF';

/**
 * Italian Excel writes `;`-separated files with a BOM, comma decimals and dd/MM/yyyy dates; other
 * tools write plain comma-separated UTF-8. The header line decides: more `;` than `,` outside quotes.
 */
export function detectDialect(head: string): CsvDialect {
  const hasBom = head.startsWith(BOM);
  const text = hasBom ? head.slice(1) : head;
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  let semicolons = 0;
  let commas = 0;
  let isQuoted = false;
  for (const character of firstLine) {
    if (character === '"') isQuoted = !isQuoted;
    else if (!isQuoted && character === ';') semicolons += 1;
    else if (!isQuoted && character === ',') commas += 1;
  }
  const isItalian = semicolons > 0 && semicolons >= commas;
  return {
    delimiter: isItalian ? ';' : ',',
    hasBom,
    decimal: isItalian ? ',' : '.',
    dateFormat: isItalian ? 'dd/MM/yyyy' : 'yyyy-MM-dd',
  };
}

/**
 * The longest record (line) we read, in characters: a customer's row is a few hundred; a file whose
 * "header" is one 50 MB line is refused at once instead of being buffered whole (issue 30).
 */
export const IMPORT_MAX_RECORD_CHARS = 100_000;

/** A file that is not CSV we can read (unclosed quote, NUL bytes, a record too long): the line where it broke. */
export class UnreadableCsvError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`unreadable CSV at line ${line}: ${reason}`);
    this.name = 'UnreadableCsvError';
  }
}

/**
 * Line breaks counted as an editor counts them: "\r\n", "\n" and a lone "\r" are one each, also
 * inside a quoted cell. csv-parse's own `info.lines` counts the "\r" and the "\n" of a "\r\n" apart
 * when they are not its record delimiter (a Windows line end inside a quoted cell, or a stray one in a
 * "\n" file): every row after such a cell was reported a line too far. So the lines are counted here,
 * on the bytes the parser reads, up to the byte where each record ends (its `info.bytes`).
 */
class LineCounter {
  private breaks = 0;
  private isAfterCr = false;
  private endsWithBreak = true;
  /** Bytes passed to the parser and not yet counted (a record ends in them), from the oldest. */
  private readonly pending: Buffer[] = [];
  private counted = 0;

  /** A pass-through to put before the parser: it keeps the bytes for `lineEndingAt`. */
  tap(): Transform {
    return new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        this.pending.push(chunk);
        done(null, chunk);
      },
    });
  }

  /** Counts the bytes up to `end` (from the start of the stream). */
  countTo(end: number): void {
    while (this.counted < end && this.pending.length > 0) {
      const chunk = this.pending[0]!;
      const take = Math.min(chunk.length, end - this.counted);
      this.add(chunk.subarray(0, take));
      this.counted += take;
      if (take === chunk.length) this.pending.shift();
      else this.pending[0] = chunk.subarray(take);
    }
  }

  /** The line breaks counted so far: the lines wholly before the counted bytes. */
  get completeLines(): number {
    return this.breaks;
  }

  /** The line the byte before `end` is on, as an editor numbers it from 1 (a line's own break belongs to it). */
  lineEndingAt(end: number): number {
    this.countTo(end);
    return this.endsWithBreak ? this.breaks : this.breaks + 1;
  }

  add(bytes: Buffer): void {
    if (bytes.length === 0) return;
    let lineFeeds = 0;
    for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) lineFeeds += 1;
    let carriageReturns = 0;
    let pairs = this.isAfterCr && bytes[0] === 10 ? 1 : 0;
    for (let at = bytes.indexOf(13); at >= 0; at = bytes.indexOf(13, at + 1)) {
      carriageReturns += 1;
      if (bytes[at + 1] === 10) pairs += 1;
    }
    this.breaks += lineFeeds + carriageReturns - pairs;
    const last = bytes[bytes.length - 1];
    this.isAfterCr = last === 13;
    this.endsWithBreak = last === 13 || last === 10;
  }
}

/**
 * csv-parse's own errors (CSV_QUOTE_NOT_CLOSED, CSV_MAX_RECORD_SIZE…) as an UnreadableCsvError;
 * others as they are. A quote never closed is reported at the end of the file: the line that matters
 * is where its record began, the one after the last record read. Otherwise the parser says on which of
 * its lines it stopped: the lines it read since the last record are added to that record's line.
 */
function asUnreadable(error: unknown, lastLine: number, parserLinesAtLastRecord: number): unknown {
  if (!(error instanceof CsvError)) return error;
  const parserLine = Number((error as { lines?: unknown }).lines);
  const line = error.code !== 'CSV_QUOTE_NOT_CLOSED' && parserLine > parserLinesAtLastRecord ? lastLine + parserLine - parserLinesAtLastRecord : lastLine + 1;
  return new UnreadableCsvError(line, error.code);
}

const parserOptions = (dialect: CsvDialect) =>
  ({ delimiter: dialect.delimiter, bom: true, relax_column_count: true, skip_empty_lines: true, trim: true, info: true, max_record_size: IMPORT_MAX_RECORD_CHARS }) as const;

/** The records of a file, the header first, streamed (a million rows never sit in memory). */
export async function* readRecords(filePath: string, dialect: CsvDialect): AsyncGenerator<string[]> {
  for await (const { record } of readRecordsFrom(filePath, dialect, 0)) yield record;
}

/**
 * The records of a file from byte `start` (0: the top, header included), each with the byte where
 * the next record starts (its end, delimiter included), so that a reader can resume there, and the
 * file's line it ends on (`linesBefore`: the lines wholly before `start`), blank lines counted, as a
 * person reading the file in an editor counts them. Throws UnreadableCsvError, with the line, for a
 * file that is not CSV (a NUL byte is refused here: no text column can store it).
 */
export async function* readRecordsFrom(
  filePath: string,
  dialect: CsvDialect,
  start: number,
  linesBefore = 0,
): AsyncGenerator<{ record: string[]; end: number; line: number }> {
  const parser = parse(parserOptions(dialect));
  const lines = new LineCounter();
  pipeline(createReadStream(filePath, { start }), lines.tap(), parser).catch((error: unknown) => parser.destroy(error as Error));
  let lastLine = linesBefore;
  let parserLinesAtLastRecord = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { bytes: number; lines: number } }>) {
      const line = linesBefore + lines.lineEndingAt(info.bytes);
      if (record.some((cell) => cell.includes('\u0000'))) throw new UnreadableCsvError(line, 'NUL byte');
      lastLine = line;
      parserLinesAtLastRecord = info.lines;
      yield { record, end: start + info.bytes, line };
    }
  } catch (error) {
    throw asUnreadable(error, lastLine, parserLinesAtLastRecord);
  }
}

/**
 * The lines wholly before byte `end` (its line breaks, counted as `readRecordsFrom` counts them):
 * where a run resumed there goes on counting, for an import whose committed line was not kept
 * (checked before migration 0030).
 */
export async function countLines(filePath: string, end: number): Promise<number> {
  if (end <= 0) return 0;
  const lines = new LineCounter();
  for await (const chunk of createReadStream(filePath, { start: 0, end: end - 1 }) as AsyncIterable<Buffer>) lines.add(chunk);
  return lines.completeLines;
}

const normalise = (name: string) => name.trim().toLowerCase().replace(/[_\s]+/g, ' ');

/** The mapping proposed for a header: each field whose alias (or own name) is a column. */
export function proposeMapping(kind: ImportKind, header: string[]): Record<string, string> {
  const mapping: Record<string, string> = {};
  for (const field of IMPORT_FIELDS[kind]) {
    const names = new Set([normalise(field), ...(IMPORT_COLUMN_ALIASES[field] ?? []).map(normalise)]);
    const column = header.find((name) => names.has(normalise(name)));
    if (column !== undefined) mapping[field] = column;
  }
  return mapping;
}

/** A mapping's problems: unknown fields, columns not in the file, required fields not mapped. */
export function mappingProblems(kind: ImportKind, header: string[], mapping: Record<string, string>): string[] {
  const problems: string[] = [];
  const fields = IMPORT_FIELDS[kind] as readonly string[];
  for (const [field, column] of Object.entries(mapping)) {
    if (!fields.includes(field)) problems.push(`unknown field ${field}`);
    else if (column !== '' && !header.includes(column)) problems.push(`${field}: no column ${column}`);
  }
  for (const field of REQUIRED_IMPORT_FIELDS[kind]) {
    if (!mapping[field]) problems.push(`${field} not mapped`);
  }
  return problems;
}

export type RowError = { column: string; field: string; code: ImportErrorCode };

/** `dd/MM/yyyy` (also d/M/yyyy) or `yyyy-MM-dd` → `yyyy-MM-dd`, only for real calendar days. */
export function parseDate(text: string): string | null {
  let year: number;
  let month: number;
  let day: number;
  const italian = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text);
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (italian) [day, month, year] = [Number(italian[1]), Number(italian[2]), Number(italian[3])];
  else if (iso) [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** A whole number as the dialect writes it: `1.234` in Italian, `1,234` in English; no decimals. */
export function parseInteger(text: string, dialect: CsvDialect): number | null {
  const thousands = dialect.decimal === ',' ? '.' : ',';
  const pattern = new RegExp(`^[+-]?(\\d{1,3}(\\${thousands}\\d{3})+|\\d+)$`);
  if (!pattern.test(text)) return null;
  const value = Number(text.split(thousands).join(''));
  return Number.isSafeInteger(value) ? value : null;
}

const YES = new Set(['sì', 'si', 'yes', 'y', 's', '1', 'true', 'x', 'vero']);
const NO = new Set(['no', 'n', '0', 'false', 'falso', '']);

export function parseYesNo(text: string): boolean | null {
  const value = text.trim().toLowerCase();
  if (YES.has(value)) return true;
  if (NO.has(value)) return false;
  return null;
}

/** The cells of a record by field, through the mapping (an unmapped field reads as empty). */
export function cellsOf(header: string[], record: string[], mapping: Record<string, string>): Record<string, string> {
  return cellReader(header, mapping)(record);
}

/** cellsOf for many records of one file: each field's column position is found once. */
export function cellReader(header: string[], mapping: Record<string, string>): (record: string[]) => Record<string, string> {
  const positions = Object.entries(mapping).map(([field, column]) => [field, header.indexOf(column)] as const);
  return (record) => {
    const cells: Record<string, string> = {};
    for (const [field, index] of positions) cells[field] = index >= 0 ? (record[index] ?? '').trim() : '';
    return cells;
  };
}

/** A language cell: the code or its name, Italian or English (`it`, `italiano`, `en`, `inglese`, `english`…); empty is Italian. */
const LANGUAGE_WORDS: Record<string, 'it' | 'en'> = { it: 'it', ita: 'it', italiano: 'it', italian: 'it', en: 'en', eng: 'en', inglese: 'en', english: 'en' };

function languageOf(cell: string | undefined): string | undefined {
  const value = cell?.trim().toLowerCase();
  if (!value) return undefined;
  // Unknown words go to the schema as they are, which refuses them naming the column.
  return LANGUAGE_WORDS[value] ?? value;
}

export type CustomerRowValues = {
  customer: CreateCustomer;
  consents: { service: boolean | null; marketing: boolean | null; profiling: boolean | null };
  noticeVersion: string;
};

/**
 * One customers row: the same validators as the customer form (contract customers.ts, italian.ts),
 * so the import accepts exactly what a person could type.
 */
export function customerRow(
  cells: Record<string, string>,
  mapping: Record<string, string>,
): { values?: CustomerRowValues; errors: RowError[] } {
  const errors: RowError[] = [];
  const columnOf = (field: string) => mapping[field] || field;
  const optional = (field: string) => (cells[field] ? cells[field] : undefined);
  let birthDate: string | undefined;
  if (cells['birthDate']) {
    const parsed = parseDate(cells['birthDate']);
    if (parsed === null) errors.push({ column: columnOf('birthDate'), field: 'birthDate', code: 'invalid' });
    else birthDate = parsed;
  }
  const input = {
    firstName: cells['firstName'] ?? '',
    lastName: cells['lastName'] ?? '',
    email: optional('email'),
    phone: optional('phone'),
    birthDate,
    city: optional('city'),
    province: optional('province'),
    language: languageOf(cells['language']),
    referrerCode: optional('referrerCode'),
  };
  const parsed = createCustomerSchema.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? '');
      if (errors.some((error) => error.field === field)) continue;
      const isMissing = (input as Record<string, unknown>)[field] === undefined || (input as Record<string, unknown>)[field] === '';
      errors.push({ column: columnOf(field), field, code: isMissing ? 'required' : 'invalid' });
    }
  }
  const consents = { service: null, marketing: null, profiling: null } as CustomerRowValues['consents'];
  for (const purpose of ['service', 'marketing', 'profiling'] as const) {
    const field = `${purpose}Consent`;
    if (cells[field] === undefined) continue;
    const value = parseYesNo(cells[field]);
    if (value === null) errors.push({ column: columnOf(field), field, code: 'consentValue' });
    else consents[purpose] = value;
  }
  if (errors.length > 0 || !parsed.success) return { errors };
  return { values: { customer: parsed.data, consents, noticeVersion: cells['noticeVersion'] || 'import' }, errors };
}

export type BalanceRowValues = { cardNumber?: string; email?: string; program?: string; points: number; reason: string };

/** One opening-balance row: the customer by card number or e-mail, the program, whole points > 0. */
export function balanceRow(
  cells: Record<string, string>,
  mapping: Record<string, string>,
  dialect: CsvDialect,
): { values?: BalanceRowValues; errors: RowError[] } {
  const errors: RowError[] = [];
  const columnOf = (field: string) => mapping[field] || field;
  const cardNumber = cells['cardNumber']?.replace(/\s/g, '') || undefined;
  const email = cells['email']?.toLowerCase() || undefined;
  if (!cardNumber && !email) errors.push({ column: columnOf(mapping['cardNumber'] ? 'cardNumber' : 'email'), field: 'cardNumber', code: 'required' });
  if (cardNumber && !isValidCardNumber(cardNumber)) errors.push({ column: columnOf('cardNumber'), field: 'cardNumber', code: 'invalid' });
  const pointsText = cells['points'] ?? '';
  const points = pointsText === '' ? null : parseInteger(pointsText, dialect);
  if (pointsText === '') errors.push({ column: columnOf('points'), field: 'points', code: 'required' });
  else if (points === null || points <= 0 || points > 10_000_000) errors.push({ column: columnOf('points'), field: 'points', code: 'invalid' });
  const reason = (cells['reason'] || 'Saldo iniziale').slice(0, 500);
  if (errors.length > 0 || points === null) return { errors };
  return {
    values: {
      ...(cardNumber ? { cardNumber } : {}),
      ...(email ? { email } : {}),
      ...(cells['programId'] ? { program: cells['programId'] } : {}),
      points,
      reason,
    },
    errors,
  };
}

import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { cardNumberFor } from '@sf/contract/customers';
import {
  balanceRow,
  countLines,
  customerRow,
  detectDialect,
  mappingProblems,
  parseDate,
  parseInteger,
  parseYesNo,
  proposeMapping,
  readRecordsFrom,
} from './imports.csv.ts';

const italian = detectDialect('\uFEFFNome;Cognome;Email\r\n');
const plain = detectDialect('firstName,lastName,"note; with semicolon"\n');

describe('reading imported CSV files', () => {
  it('detects Italian Excel (; and BOM) and plain comma-separated files', () => {
    expect(italian).toEqual({ delimiter: ';', hasBom: true, decimal: ',', dateFormat: 'dd/MM/yyyy' });
    expect(plain).toEqual({ delimiter: ',', hasBom: false, decimal: '.', dateFormat: 'yyyy-MM-dd' });
    expect(detectDialect('Nome;Cognome\n').hasBom).toBe(false);
  });

  it('reads dates in both forms and refuses days that do not exist', () => {
    expect(parseDate('10/12/1985')).toBe('1985-12-10');
    expect(parseDate('1/2/2001')).toBe('2001-02-01');
    expect(parseDate('1985-12-10')).toBe('1985-12-10');
    expect(parseDate('31/02/1990')).toBeNull();
    expect(parseDate('12/31/1990')).toBeNull();
    expect(parseDate('ieri')).toBeNull();
  });

  it('reads whole numbers with the dialect thousands separator and refuses decimals', () => {
    expect(parseInteger('1.250', italian)).toBe(1250);
    expect(parseInteger('1250', italian)).toBe(1250);
    expect(parseInteger('12,5', italian)).toBeNull();
    expect(parseInteger('1,250', plain)).toBe(1250);
    expect(parseInteger('12.5', plain)).toBeNull();
  });

  it('reads yes/no in Italian and English', () => {
    expect(['sì', 'SI', 'yes', 'x', '1'].map(parseYesNo)).toEqual([true, true, true, true, true]);
    expect(['no', '', 'false', '0'].map(parseYesNo)).toEqual([false, false, false, false]);
    expect(parseYesNo('forse')).toBeNull();
  });

  it('proposes a mapping from Italian or English headers and says what is missing', () => {
    expect(proposeMapping('customers', ['Nome', 'Cognome', 'E-mail', 'Cellulare'])).toEqual({
      firstName: 'Nome',
      lastName: 'Cognome',
      email: 'E-mail',
      phone: 'Cellulare',
    });
    expect(mappingProblems('customers', ['Nome'], { firstName: 'Nome' })).toEqual(['lastName not mapped']);
    expect(mappingProblems('customers', ['Nome'], { firstName: 'Nome', lastName: 'Surname' })).toEqual(['lastName: no column Surname']);
  });

  it('checks a customer row with the contract validators, naming the file column', () => {
    const mapping = { firstName: 'Nome', lastName: 'Cognome', phone: 'Tel', province: 'Prov' };
    const good = customerRow({ firstName: 'Ada', lastName: 'Lovelace', phone: '347 123 4567', province: 'mi' }, mapping);
    expect(good.values?.customer).toMatchObject({ phone: '+393471234567', province: 'MI' });
    const bad = customerRow({ firstName: '', lastName: 'X', phone: '12', province: 'ZZ' }, mapping);
    expect(bad.errors).toEqual([
      { column: 'Nome', field: 'firstName', code: 'required' },
      { column: 'Tel', field: 'phone', code: 'invalid' },
      { column: 'Prov', field: 'province', code: 'invalid' },
    ]);
  });

  it('checks a balance row: a card or e-mail, whole positive points', () => {
    const mapping = { cardNumber: 'Tessera', points: 'Punti' };
    expect(balanceRow({ cardNumber: '', points: '10' }, mapping, italian).errors[0]).toMatchObject({ field: 'cardNumber', code: 'required' });
    expect(balanceRow({ cardNumber: '2790000000001', points: '10' }, mapping, italian).errors[0]).toMatchObject({ code: 'invalid' });
    const card = cardNumberFor(1);
    expect(balanceRow({ cardNumber: card, points: '-5' }, mapping, italian).errors).toEqual([{ column: 'Punti', field: 'points', code: 'invalid' }]);
    expect(balanceRow({ cardNumber: card, points: '1.000' }, mapping, italian).values).toMatchObject({ cardNumber: card, points: 1000 });
  });
});

describe("the file's line of each record, as an editor numbers it", () => {
  const folder = mkdtemp(path.join(os.tmpdir(), 'sf-import-lines-'));
  afterAll(async () => rm(await folder, { recursive: true, force: true }));
  let files = 0;
  const fileWith = async (content: string) => {
    const file = path.join(await folder, `lines-${(files += 1)}.csv`);
    await writeFile(file, content);
    return file;
  };
  const linesOf = async (file: string, start = 0, linesBefore = 0) => {
    const read: { first: string; line: number; end: number }[] = [];
    for await (const { record, line, end } of readRecordsFrom(file, italian, start, linesBefore)) read.push({ first: record[0]!, line, end });
    return read;
  };

  it('counts a Windows line end inside a quoted cell once, for the rows after it too, also when a run resumes after it', async () => {
    // Excel writes a cell typed with Alt+Enter as a quoted "\r\n": lines 2–3 are one row, line 5 is blank.
    const file = await fileWith('\uFEFFTessera;Causale\r\nuno;"Saldo\r\ndal vecchio gestionale"\r\ndue;x\r\n\r\ntre;"a\r\nb\r\nc"\r\nquattro;y\r\n');
    const read = await linesOf(file);
    expect(read.map(({ first, line }) => [first, line])).toEqual([
      ['Tessera', 1],
      ['uno', 3],
      ['due', 4],
      ['tre', 8],
      ['quattro', 9],
    ]);
    // A resumed run starts at a record's end with the lines before it, kept or counted again.
    for (const resumeAfter of [1, 3]) {
      const { end, line } = read[resumeAfter]!;
      expect(await countLines(file, end)).toBe(line);
      expect((await linesOf(file, end, line)).map((record) => record.line)).toEqual(read.slice(resumeAfter + 1).map((record) => record.line));
    }
  });

  it('counts a stray Windows line end in a "\\n" file and a lone "\\r" in a cell once each', async () => {
    const file = await fileWith('Tessera;Causale\nuno;x\r\ndue;"a\rb"\ntre;y');
    expect((await linesOf(file)).map(({ first, line }) => [first, line])).toEqual([
      ['Tessera', 1],
      ['uno', 2],
      ['due', 4],
      ['tre', 5],
    ]);
  });
});

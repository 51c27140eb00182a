import Papa from 'papaparse';
import { IMPORT_COLUMN_ALIASES, IMPORT_FIELDS, type ImportKind } from '@sf/contract/imports';

export type CsvHead = { header: string[]; rows: string[][]; delimiter: string };

/**
 * The header and the first rows of a file, read in the browser (papaparse detects `;` or `,`), for
 * the mapping step; the server reads the whole file again with its own parser.
 */
export function readCsvHead(file: File, rows = 5): Promise<CsvHead> {
  return new Promise((resolve, reject) => {
    Papa.parse<string[]>(file, {
      preview: rows + 1,
      skipEmptyLines: true,
      complete: (result) => {
        const [header = [], ...data] = result.data;
        resolve({ header: header.map((name, index) => (index === 0 ? name.replace(/^\uFEFF/, '') : name).trim()), rows: data, delimiter: result.meta.delimiter });
      },
      error: (error) => reject(error),
    });
  });
}

const normalise = (name: string) => name.trim().toLowerCase().replace(/[_\s]+/g, ' ');

/** The same proposal as the server's: a field whose name or alias is a column of the file. */
export function proposeMapping(kind: ImportKind, header: string[]): Record<string, string> {
  const mapping: Record<string, string> = {};
  for (const field of IMPORT_FIELDS[kind]) {
    const names = new Set([normalise(field), ...(IMPORT_COLUMN_ALIASES[field] ?? []).map(normalise)]);
    const column = header.find((name) => names.has(normalise(name)));
    if (column !== undefined) mapping[field] = column;
  }
  return mapping;
}

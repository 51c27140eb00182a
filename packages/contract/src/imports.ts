import { z } from 'zod';
import { listPageSchema, listQuerySchema } from './list-query.ts';

/**
 * CSV imports (Importazioni, docs/product.md D and F): customers (with consents and referrer) and opening
 * balances. Italian Excel (`;`, BOM, dd/MM/yyyy, comma decimals) and plain comma-separated UTF-8.
 */
export const IMPORT_KINDS = ['customers', 'balances'] as const;
export const importKindSchema = z.enum(IMPORT_KINDS);
export type ImportKind = z.infer<typeof importKindSchema>;

/** validated: dry run done, waiting to start; then queued → running → done / cancelled / failed. */
export const IMPORT_STATUSES = ['validated', 'queued', 'running', 'done', 'cancelled', 'failed'] as const;
export const importStatusSchema = z.enum(IMPORT_STATUSES);
export type ImportStatus = z.infer<typeof importStatusSchema>;

export const csvDialectSchema = z.object({
  delimiter: z.enum([';', ',']),
  hasBom: z.boolean(),
  decimal: z.enum([',', '.']),
  dateFormat: z.enum(['dd/MM/yyyy', 'yyyy-MM-dd']),
});
export type CsvDialect = z.infer<typeof csvDialectSchema>;

/** The fields a file's columns map to, per kind. */
export const IMPORT_FIELDS = {
  customers: [
    'firstName',
    'lastName',
    'email',
    'phone',
    'birthDate',
    'city',
    'province',
    'language',
    'referrerCode',
    'serviceConsent',
    'marketingConsent',
    'profilingConsent',
    'noticeVersion',
  ],
  balances: ['cardNumber', 'email', 'programId', 'points', 'amountEuro', 'reason'],
} as const satisfies Record<ImportKind, readonly string[]>;
export type ImportField = (typeof IMPORT_FIELDS)[ImportKind][number];

/** Fields without which a row cannot be imported. */
export const REQUIRED_IMPORT_FIELDS: Record<ImportKind, readonly string[]> = {
  customers: ['firstName', 'lastName'],
  balances: ['points'],
};

/**
 * Column names recognised without mapping (lower-cased, Italian and English): the UI proposes them;
 * the user can change any.
 */
export const IMPORT_COLUMN_ALIASES: Record<string, readonly string[]> = {
  firstName: ['firstname', 'first name', 'nome'],
  lastName: ['lastname', 'last name', 'cognome'],
  email: ['email', 'e-mail', 'mail'],
  phone: ['phone', 'telefono', 'cellulare'],
  birthDate: ['birthdate', 'birth date', 'data di nascita', 'nascita'],
  city: ['city', 'città', 'citta', 'comune'],
  province: ['province', 'provincia', 'prov'],
  language: ['language', 'lingua'],
  referrerCode: ['referrercode', 'referrer', 'codice invito', 'presentato da'],
  serviceConsent: ['serviceconsent', 'consenso servizio', 'service'],
  marketingConsent: ['marketingconsent', 'consenso marketing', 'marketing'],
  profilingConsent: ['profilingconsent', 'consenso profilazione', 'profilazione', 'profiling'],
  noticeVersion: ['noticeversion', 'informativa', 'versione informativa'],
  cardNumber: ['cardnumber', 'card number', 'numero tessera', 'tessera', 'carta'],
  programId: ['programid', 'program', 'programma'],
  points: ['points', 'punti', 'saldo'],
  amountEuro: ['amount', 'importo', 'speso'],
  reason: ['reason', 'motivo', 'causale'],
};

export const importMappingSchema = z.record(z.string().min(1).max(60), z.string().max(200));

/** The multipart fields besides `file`. `mapping` is JSON: target field → column name of the file. */
export const createImportFieldsSchema = z.strictObject({
  kind: importKindSchema,
  dryRun: z.enum(['true', 'false']).default('true').transform((value) => value === 'true'),
  mapping: z
    .string()
    .max(10_000)
    .optional()
    .transform((value, context) => {
      if (value === undefined || value === '') return undefined;
      try {
        return importMappingSchema.parse(JSON.parse(value));
      } catch {
        context.addIssue({ code: 'custom', message: 'invalid' });
        return z.NEVER;
      }
    }),
  /** balances: the program every row credits when the file has no program column. */
  programId: z.uuid().optional(),
  /** customers: "invia il benvenuto" — each imported customer with an address gets the welcome e-mail of the programs that have it on. */
  sendWelcome: z.enum(['true', 'false']).default('false').transform((value) => value === 'true'),
});

export const importRowErrorSchema = z.object({
  row: z.number().int(),
  column: z.string(),
  code: z.string(),
  message: z.string(),
});
export type ImportRowError = z.infer<typeof importRowErrorSchema>;

export const importReportSchema = z.object({
  imported: z.number().int(),
  skipped: z.number().int(),
  errors: z.number().int(),
  durationMs: z.number().int().optional(),
});
export type ImportReport = z.infer<typeof importReportSchema>;

export const importSchema = z.object({
  id: z.uuid(),
  kind: importKindSchema,
  status: importStatusSchema,
  fileName: z.string(),
  sizeBytes: z.number().int(),
  dialect: csvDialectSchema,
  mapping: z.record(z.string(), z.string()),
  totalRows: z.number().int(),
  validRows: z.number().int(),
  errorRows: z.number().int(),
  processedRows: z.number().int(),
  importedRows: z.number().int(),
  skippedRows: z.number().int(),
  /** 0–100: rows processed over the total. */
  progress: z.number().int(),
  report: importReportSchema.nullable(),
  /** Who uploaded it: the staff member's e-mail. */
  createdBy: z.string().nullable(),
  /** Who uploaded it as people read it: the staff member's name, or their e-mail when they have none. */
  createdByName: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  startedAt: z.iso.datetime({ offset: true }).nullable(),
  finishedAt: z.iso.datetime({ offset: true }).nullable(),
});
export type Import = z.infer<typeof importSchema>;

/** `GET /api/admin/imports/:id`: the import and its first row errors (all of them in errors.csv). */
export const importDetailSchema = importSchema.extend({
  errors: z.array(importRowErrorSchema),
});
export type ImportDetail = z.infer<typeof importDetailSchema>;

export const IMPORT_SORT_FIELDS = ['createdAt', 'status', 'kind', 'fileName'] as const;
export const listImportsQuerySchema = listQuerySchema({
  sort: IMPORT_SORT_FIELDS,
  defaultSort: 'createdAt',
  defaultOrder: 'desc',
  filters: { kind: importKindSchema.optional(), status: importStatusSchema.optional() },
});
export type ListImportsQuery = z.infer<typeof listImportsQuerySchema>;
export const importPageSchema = listPageSchema(importSchema);

/** Error codes of a row, translated when read (API and the errors CSV). */
export const IMPORT_ERROR_CODES = [
  'required',
  'invalid',
  'notFound',
  'duplicateInFile',
  'alreadyExists',
  'consentValue',
  'insufficientBalance',
] as const;
export type ImportErrorCode = (typeof IMPORT_ERROR_CODES)[number];

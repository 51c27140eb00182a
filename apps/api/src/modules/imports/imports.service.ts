import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Language } from '@sf/contract/app-info';
import type { MessageKey } from '@sf/contract/messages';
import { importRowErrorText } from '@sf/contract/error-texts';
import { IMPORT_ERROR_CODES, type Import, type ImportDetail, type ImportKind, type ListImportsQuery } from '@sf/contract/imports';
import type { Executor } from '../../db/client.ts';
import { recordAudit } from '../../lib/audit.ts';
import { depsOf, type Caller, type ServiceDeps } from '../../lib/caller.ts';
import { AppError, fieldError, notFound } from '../../lib/errors.ts';
import { enqueueJob } from '../../lib/job-runner.ts';
import { detectDialect, mappingProblems, proposeMapping, UnreadableCsvError } from './imports.csv.ts';
import * as repo from './imports.repository.ts';
import { checkFile, readHead, readHeader } from './imports.check.ts';
import { checkEnrollingProgram } from '../ledger/ledger.service.ts';
import { staffNames } from '../staff/staff-admin.service.ts';

export const IMPORT_ENTITY = 'import';
export const IMPORT_JOB = 'imports.run';
/** Rows per committed batch: the unit of progress, of resumption and of the audit record. */
export const IMPORT_BATCH_ROWS = 5000;
/** Rows per committed batch of a staged import (one set-based statement each). */
export const IMPORT_STAGED_BATCH_ROWS = 10_000;
/** Rows checked between two turns of the event loop (see prepareBatch). */
export const CHECK_SLICE_ROWS = 250;
/** One job run stops after this long and queues its continuation (well inside the runner's lease). */
export const CHUNK_MILLISECONDS = 60_000;
/** Row errors shown in the answer of GET /imports/:id (all of them in errors.csv). */
export const ERRORS_SHOWN = 200;

export type ImportDeps = ServiceDeps & { dataDir: string; quotaBytes: number; log?: FastifyBaseLogger };

export function importDeps(app: FastifyInstance): ImportDeps {
  return { ...depsOf(app), dataDir: app.env.dataDir, quotaBytes: app.env.UPLOAD_QUOTA_BYTES, log: app.log };
}

const importsDir = (dataDir: string) => path.join(dataDir, 'imports');
export const filePathOf = (dataDir: string, storedName: string) => path.join(importsDir(dataDir), storedName);

const importNotFound = () => notFound('importJob');
const fieldProblem = (field: string, key: MessageKey = 'invalid') => fieldError(field, key);
const invalidState = () => new AppError(409, 'invalid_state');

/** `names`: staff names by id (staffNames), for `createdByName`. */
export function toImport(row: repo.ImportListRow, names: ReadonlyMap<string, string>): Import {
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
    createdByName: (value.createdBy ? names.get(value.createdBy) : undefined) ?? row.createdByEmail,
    createdAt: value.createdAt.toISOString(),
    startedAt: value.startedAt?.toISOString() ?? null,
    finishedAt: value.finishedAt?.toISOString() ?? null,
  };
}

export async function listImports(deps: ServiceDeps, query: ListImportsQuery) {
  const { rows, total } = await repo.findImports(deps.db, query);
  const names = await staffNames(deps.db, rows.map((row) => row.import.createdBy));
  return { items: rows.map((row) => toImport(row, names)), total, page: query.page, pageSize: query.pageSize };
}

export async function getImport(deps: ServiceDeps, id: string, language: Language): Promise<ImportDetail> {
  const row = await repo.findImportWithCreator(deps.db, id);
  if (!row) throw importNotFound();
  const errors = await repo.findRowErrors(deps.db, id, ERRORS_SHOWN);
  const fieldOf = fieldByColumn(row.import.mapping);
  return {
    ...toImport(row, await staffNames(deps.db, [row.import.createdBy])),
    errors: errors.map((error) => ({
      row: error.rowNumber,
      column: error.columnName,
      code: error.code,
      message: importRowErrorText(error.code, fieldOf(error.columnName), language),
    })),
  };
}

/** Every row error of an import as CSV for Italian Excel (the read is audited in the export's transaction). */
export async function importErrorsExport(deps: ImportDeps, caller: Caller, id: string) {
  const detail = await getImport(deps, id, caller.language);
  const fieldOf = new Map(Object.entries(detail.mapping).map(([field, column]) => [column, field]));
  const columns = [...new Set([...Object.values(detail.mapping), ...Object.keys(detail.mapping)])];
  const texts = columns.flatMap((column) => IMPORT_ERROR_CODES.map((code) => ({ t_column: column, t_code: code, t_text: importRowErrorText(code, fieldOf.get(column) ?? column, caller.language) })));
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

/** The field a column was mapped to (errors name the file's column; the message names the field). */
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

export type CreateImportInput = {
  kind: ImportKind;
  dryRun: boolean;
  mapping?: Record<string, string> | undefined;
  programId?: string | undefined;
  sendWelcome?: boolean | undefined;
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
    // The imported customers join the chosen program, the one that welcomes them (decision 035):
    // "invia il benvenuto" without it is refused, the dry run too, before anything is stored.
    if (input.kind === 'customers' && input.sendWelcome && !input.programId) {
      throw new AppError(400, 'validation', { fields: [{ field: 'programId', text: 'welcome_needs_program' }] });
    }
    if (input.kind === 'customers' && input.programId) await checkEnrollingProgram(deps.db, input.programId);
    const now = deps.clock.now();
    const created = await deps.db.transaction(async (tx) => {
      const row = await repo.insertImport(tx, {
        kind: input.kind,
        fileName: path.basename(input.fileName).slice(0, 255) || 'import.csv',
        storedName: input.storedName,
        sizeBytes: input.size,
        dialect,
        mapping: Object.fromEntries(Object.entries(mapping).filter(([, column]) => column !== '')),
        options: { ...(input.programId ? { programId: input.programId } : {}), ...(input.sendWelcome ? { sendWelcome: true } : {}) },
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
 * error: the import the person asked for is under way or finished); a cancelled one cannot start, nor
 * one whose customers would join a program that is no longer active.
 */
export async function startImport(deps: ImportDeps, caller: Caller, id: string) {
  const started = await deps.db.transaction(async (tx) => {
    const value = await repo.findImport(tx, id, { forUpdate: true });
    if (!value) throw importNotFound();
    if (value.status === 'queued' || value.status === 'running' || value.status === 'done') return null;
    // A failed import starts again after its last committed batch.
    if (value.status !== 'validated' && value.status !== 'failed') throw invalidState();
    // The program its customers join was active at the upload; closed since, it takes nobody (checked
    // under the import's lock, before anything is queued).
    if (value.kind === 'customers' && typeof value.options['programId'] === 'string') await checkEnrollingProgram(tx, value.options['programId']);
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


/** For the audit list: these imports' file name and kind, in one query. */
export function importFiles(executor: Executor, ids: string[]) {
  return repo.findImportFiles(executor, ids);
}

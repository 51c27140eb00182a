import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { Database, Executor } from '../../db/client.ts';
import { recordAudit, type AuditActor } from '../../lib/audit.ts';
import { enqueueJob } from '../../lib/job-runner.ts';
import { createEntry, enrolManyInTransaction } from '../ledger/ledger.service.ts';
import { drawCardNumber } from '../customers/customer-cards.service.ts';
import { queueWelcomes } from '../service-emails/service-emails.service.ts';
import * as repo from './imports.repository.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { CHUNK_MILLISECONDS, IMPORT_BATCH_ROWS, IMPORT_ENTITY, IMPORT_JOB, IMPORT_STAGED_BATCH_ROWS, filePathOf, type ImportDeps } from './imports.service.ts';
import { batchesOf, personColumns, prepareBatch, referralCodes, toStoredErrors, type BatchRecord, type CheckState, type PreparedRow } from './imports.check.ts';

/**
 * The `imports.run` background job (split out of imports.service.ts, issue 26): committed batches of
 * staged customers or balances, resumable and cancellable, each row imported once (ADR 022, 024).
 */
export type ImportActor = { actor: AuditActor; userId: string | null; label: string };


/**
 * Claimed rows a unique index left out: a referral code (25^8 codes) or card number (10^9) drawn twice,
 * or an e-mail taken since the check. Retried with fresh codes and numbers; what still fails (an e-mail taken since the check) is
 * unclaimed and reported. Answers the ids inserted.
 */
export async function retryLeftOut(tx: Executor, value: repo.ImportRow, leftOut: repo.CustomerBatchRow[], now: Date): Promise<string[]> {
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
    // Reported by the file's line, as the dry run reports (a row staged before migration 0030 has none).
    await repo.insertRowErrors(
      tx,
      value.id,
      pending.map((row) => ({ rowNumber: row.line_number ?? row.row_number, columnName: value.mapping['email'] || 'email', code: 'alreadyExists' })),
    );
  }
  return inserted;
}

/** The program an import of customers enrols them in (chosen with the upload), or none. */
function programOf(value: repo.ImportRow): string | null {
  return value.kind === 'customers' && typeof value.options['programId'] === 'string' ? value.options['programId'] : null;
}

/**
 * The batch's new customers join the import's program, and with "invia il benvenuto" that program
 * welcomes them (decision 035): in the batch's transaction, so a batch committed once enrols and
 * welcomes once, and a batch redone after a crash inserted nobody the first time.
 */
async function joinProgram(tx: Executor, value: repo.ImportRow, customerIds: string[], now: Date): Promise<void> {
  const programId = programOf(value);
  if (programId === null || customerIds.length === 0) return;
  await enrolManyInTransaction(tx, customerIds, programId, now);
  if (value.options['sendWelcome'] === true) await queueWelcomes(tx, customerIds, programId, now);
}

/**
 * One committed batch of STAGED customers — the rows `from`..`to` of the file — in one transaction
 * with the progress and one audit record. The dry run checked and staged the rows, so no row passes
 * through here: one set-based statement (repo.importStagedCustomers) deletes them from the staging
 * table, claims, inserts and records their consents; only the rare row a unique index left out comes
 * back (the batch's statement then runs again leaving them out), to be retried with a fresh referral
 * code or reported.
 */
export async function importStagedBatch(deps: ImportDeps, value: repo.ImportRow, from: number, to: number, actor: ImportActor): Promise<boolean> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const current = await repo.findImport(tx, value.id, { forUpdate: true });
    if (!current || current.status !== 'running') return false;
    const programId = programOf(current);
    let result: { inserted: number; ids: string[]; leftOut: (repo.StagedCustomer & { id: string })[] };
    try {
      result = { ...(await tx.transaction((savepoint) => repo.importStagedCustomers(savepoint, value.id, { from, to }, now, { withIds: programId !== null }))), leftOut: [] };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      result = await repo.importStagedCustomersLeavingOut(tx, value.id, { from, to }, now);
    }
    let inserted = result.inserted;
    const insertedIds = [...result.ids];
    if (result.leftOut.length > 0) {
      const leftOut = result.leftOut.map((row): repo.CustomerBatchRow => ({
        ...row,
        service_consent: row.service === true,
        marketing_consent: row.marketing === true,
        profiling_consent: row.profiling === true,
      }));
      const retried = await retryLeftOut(tx, value, leftOut, now);
      inserted += retried.length;
      insertedIds.push(...retried);
    }
    await joinProgram(tx, current, insertedIds, now);
    await repo.updateImport(tx, value.id, { ...progressOf(current, to, { bytes: 0, line: 0 }), importedRows: current.importedRows + inserted });
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
export async function importCustomerBatch(deps: ImportDeps, value: repo.ImportRow, prepared: PreparedRow[], end: FileMark, actor: ImportActor): Promise<boolean> {
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
        line_number: row.line,
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
    await joinProgram(tx, current, [...inserted], now);
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
export async function importBalanceBatch(deps: ImportDeps, value: repo.ImportRow, prepared: PreparedRow[], end: FileMark, actor: ImportActor): Promise<boolean> {
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
      failed.push({ rowNumber: row.line, columnName: value.mapping['points'] || 'points', code: 'invalid' });
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

/** Where a batch ends in its file: the byte after its last row, and that row's line (none for a staged batch). */
export type FileMark = { bytes: number; line: number };

/** The progress after a batch ending at row `last` and at `end` in the file (a batch behind the progress keeps it). */
export function progressOf(current: repo.ImportRow, last: number, end: FileMark) {
  return last - 1 >= current.processedRows ? { processedRows: last - 1, processedBytes: end.bytes, processedLines: end.line } : {};
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
  const check = (next: IteratorResult<{ header: string[]; batch: BatchRecord[]; end: number; endLine: number }>) => {
    if (next.done) return null;
    const checking = prepareBatch(deps.db, value, next.value.header, next.value.batch, state);
    checking.catch(() => undefined); // awaited below; a run that stops first must not leave it unhandled
    return { batch: next.value.batch, end: { bytes: next.value.end, line: next.value.endLine }, checking };
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

export async function finishImport(deps: ImportDeps, id: string, startedAt: number) {
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

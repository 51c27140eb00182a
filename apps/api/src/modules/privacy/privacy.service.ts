import {
  PRIVACY_DUE_MONTHS,
  PRIVACY_EXTENSION_MONTHS,
  type CreatePrivacyRequest,
  type ListPrivacyRequestsQuery,
  type PrivacyActionInput,
  type PrivacyRequest,
  type UpdatePrivacyRequest,
} from '@sf/contract/privacy';
import type { Executor, Transaction } from '../../db/client.ts';
import { recordAudit } from '../../lib/audit.ts';
import type { Caller, ServiceDeps } from '../../lib/caller.ts';
import { removeStoredImages } from '../../lib/uploads.ts';
import { AppError, fieldError, notFound } from '../../lib/errors.ts';
import { appendConsent, customerInTransaction, isReferralCodeTaken } from '../customers/customers.service.ts';
import { uniqueCardNumber } from '../customers/customer-cards.service.ts';
import { newReferralCode } from '../customers/customers.service.ts';
import { dropPersonFromPendingImports } from '../imports/imports.service.ts';
import { eraseEntryTexts } from '../ledger/ledger.service.ts';
import { voidCustomerWallet } from '../wallet/wallet.service.ts';
import { closePendingProofsOfErasedCustomer } from '../social-proofs/social-proofs.service.ts';
import { voidVouchersOfErasedCustomer } from '../rewards/vouchers.service.ts';
import { eraseMessages } from '../messages/message-log.service.ts';
import { staffNames } from '../staff/staff-admin.service.ts';
import { businessDaysUntil } from '../../lib/business-days.ts';
import * as repo from './privacy.repository.ts';

export const PRIVACY_ENTITY = 'privacy_request';
const CUSTOMER_ENTITY = 'customer';

const requestNotFound = () => notFound('privacyRequest');
const customerNotFound = () => new AppError(404, 'not_found', { fields: [{ field: 'customerId', message: 'notFound' }] });
/** 409 `invalid_state`, saying why ("la richiesta è già chiusa"). */
const invalidState = (text: 'request_closed' | 'already_extended' | 'erasure_only' | 'block_kinds_only' | 'block_in_force' | 'no_block') =>
  new AppError(409, 'invalid_state', { text });
const customerErased = () => new AppError(409, 'customer_erased');
const reasonRequired = () => fieldError('reason', 'required');
/** How far ahead of the server's clock a "received at" may be: a till's or a browser's clock runs a little ahead. */
const RECEIVED_CLOCK_DRIFT_MS = 5 * 60_000;

/** The same day of the month `months` later; the month's last day when it has fewer (31 Jan + 1 → 28/29 Feb). */
export function addMonths(date: Date, months: number): Date {
  const result = new Date(date.getTime());
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

/** `names`: staff names by id (the staff module's staffNames), for `handledByName`. */
function toPrivacyRequest(row: repo.PrivacyRequestListRow, names: ReadonlyMap<string, string>, now: Date, timeZone: string): PrivacyRequest {
  const request = row.request;
  const isPending = request.status === 'open' || request.status === 'in_progress';
  const name = request && row.customerStatus === 'erased' ? '' : `${row.customerFirstName} ${row.customerLastName}`.trim();
  return {
    id: request.id,
    kind: request.kind,
    customerId: request.customerId,
    customerName: name,
    customerCardNumber: row.customerCardNumber,
    customerStatus: row.customerStatus,
    receivedAt: request.receivedAt.toISOString(),
    dueAt: request.dueAt.toISOString(),
    daysLeft: isPending ? businessDaysUntil(request.dueAt, now, timeZone) : null,
    extensionReason: request.extensionReason,
    extendedAt: request.extendedAt?.toISOString() ?? null,
    status: request.status,
    notes: request.notes,
    handledBy: request.handledBy,
    handledByEmail: row.handledByEmail,
    handledByName: (request.handledBy ? names.get(request.handledBy) : undefined) ?? row.handledByEmail,
    handledAt: request.handledAt?.toISOString() ?? null,
    isProcessingBlocked: Boolean(row.isBlocked),
    outcome: request.outcome,
    version: request.version,
    createdAt: request.createdAt.toISOString(),
    updatedAt: request.updatedAt.toISOString(),
  };
}

async function load(executor: Executor, id: string, now: Date, timeZone: string, options: { forUpdate?: boolean } = {}) {
  const row = await repo.findPrivacyRequest(executor, id, options);
  if (!row) throw requestNotFound();
  return { row, request: toPrivacyRequest(row, await staffNames(executor, [row.request.handledBy]), now, timeZone) };
}

export async function listPrivacyRequests(deps: ServiceDeps, query: ListPrivacyRequestsQuery) {
  const { rows, total } = await repo.findPrivacyRequests(deps.db, query);
  const now = deps.clock.now();
  const names = await staffNames(deps.db, rows.map((row) => row.request.handledBy));
  return { items: rows.map((row) => toPrivacyRequest(row, names, now, deps.timeZone)), total, page: query.page, pageSize: query.pageSize };
}

export async function getPrivacyRequest(deps: ServiceDeps, id: string): Promise<PrivacyRequest> {
  return (await load(deps.db, id, deps.clock.now(), deps.timeZone)).request;
}

export async function createPrivacyRequest(deps: ServiceDeps, caller: Caller, input: CreatePrivacyRequest): Promise<PrivacyRequest> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    // Locked: a request filed while the customer's erasure runs waits for it, then is refused (an
    // erased person cannot be found again, and a request about them could only stay open).
    const customer = await customerInTransaction(tx, input.customerId, { forUpdate: true });
    if (!customer) throw customerNotFound();
    if (customer.status === 'erased') throw customerErased();
    const receivedAt = input.receivedAt ? new Date(input.receivedAt) : now;
    // A request that has not reached us yet would push its legal deadline out: refused, beyond a clock's drift.
    if (receivedAt.getTime() > now.getTime() + RECEIVED_CLOCK_DRIFT_MS) throw fieldError('receivedAt');
    const row = await repo.insertPrivacyRequest(tx, {
      kind: input.kind,
      customerId: input.customerId,
      receivedAt,
      dueAt: addMonths(receivedAt, PRIVACY_DUE_MONTHS),
      notes: input.notes ?? null,
      createdBy: caller.userId,
      createdAt: now,
      updatedAt: now,
    });
    const { request } = await load(tx, row.id, now, deps.timeZone);
    await recordAudit(tx, caller.actor, { action: 'create', entityType: PRIVACY_ENTITY, entityId: row.id, after: auditView(request) });
    return request;
  });
}

/** What the audit keeps of a request: no names (the customer is referenced by id). */
function auditView(request: PrivacyRequest) {
  return {
    kind: request.kind,
    customerId: request.customerId,
    status: request.status,
    receivedAt: request.receivedAt,
    dueAt: request.dueAt,
    extensionReason: request.extensionReason,
    notes: request.notes,
  };
}

function checkVersion(request: PrivacyRequest, version: number) {
  if (request.version !== version) throw new AppError(409, 'version_conflict');
}

function checkPending(request: PrivacyRequest) {
  if (request.status === 'done' || request.status === 'rejected') {
    throw invalidState('request_closed');
  }
}

export async function updatePrivacyRequest(deps: ServiceDeps, caller: Caller, id: string, input: UpdatePrivacyRequest): Promise<PrivacyRequest> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const { row, request: before } = await load(tx, id, now, deps.timeZone, { forUpdate: true });
    // The erasure closed the person's requests: nothing more is done on them (a screen opened before it).
    if (before.customerStatus === 'erased') throw customerErased();
    checkVersion(before, input.version);
    checkPending(before);
    const changes: Partial<typeof row.request> = { version: before.version + 1, updatedAt: now };
    if (input.notes !== undefined) changes.notes = input.notes;
    if (input.status !== undefined) changes.status = input.status;
    if (input.extensionReason !== undefined) {
      // One extension, by two further months from the original deadline (art. 12(3) GDPR).
      if (row.request.extendedAt) throw invalidState('already_extended');
      changes.extensionReason = input.extensionReason;
      changes.extendedAt = now;
      changes.dueAt = addMonths(row.request.receivedAt, PRIVACY_DUE_MONTHS + PRIVACY_EXTENSION_MONTHS);
    }
    await repo.updatePrivacyRequestRow(tx, id, changes);
    const { request: after } = await load(tx, id, now, deps.timeZone);
    const action = input.extensionReason !== undefined ? 'extend' : 'update';
    await recordAudit(tx, caller.actor, { action, entityType: PRIVACY_ENTITY, entityId: id, before: auditView(before), after: auditView(after) });
    return after;
  });
}

/** Everything we hold on the person (art. 15 and 20 GDPR), as one JSON document. */
export async function buildPersonalDataExport(tx: Executor, customerId: string, now: Date) {
  const references = await repo.tablesReferencingCustomers(tx);
  const tables: Record<string, Record<string, unknown>[]> = {};
  for (const reference of references) {
    const rows = await repo.rowsReferencing(tx, reference, customerId);
    const key = reference.table.replace(/^"|"$/g, '');
    tables[key] = [...(tables[key] ?? []), ...rows];
  }
  const customer = await repo.customerRowAsStored(tx, customerId);
  const audit = await repo.auditAbout(tx, customerId);
  return {
    generatedAt: now.toISOString(),
    format: 'social-fidelity/personal-data-export@1',
    customer: customer ?? null,
    ...tables,
    // Their screenshots: the stored rows (name, type, size) with the address of each file.
    uploads: await repo.personalUploads(tx, customerId),
    audit: audit.map((entry) => ({
      at: entry.at.toISOString(),
      entityType: entry.entityType,
      entityId: entry.entityId,
      action: entry.action,
      actorEmail: entry.actorEmail,
      before: entry.before,
      after: entry.after,
    })),
  };
}

async function appendOutcome(tx: Transaction, row: repo.PrivacyRequestListRow, caller: Caller, now: Date, outcome: Record<string, unknown>, extra: Parameters<typeof repo.updatePrivacyRequestRow>[2] = {}) {
  await repo.updatePrivacyRequestRow(tx, row.request.id, {
    outcome: [...row.request.outcome, { ...outcome, at: now.toISOString(), by: caller.actor.email }],
    status: row.request.status === 'open' ? 'in_progress' : row.request.status,
    version: row.request.version + 1,
    updatedAt: now,
    ...extra,
  });
}

/**
 * The erased person's other open requests (an access or a rectification received before) are done:
 * the erasure answers them, and nothing can be exported or corrected any more. Each gets a
 * `superseded` outcome naming the erasure request, is handled by whoever ran it, and is audited as a
 * close. Answers how many were closed.
 */
async function closeOtherRequests(tx: Transaction, caller: Caller, customerId: string, erasureId: string, now: Date): Promise<number> {
  const open = await repo.openRequestsOf(tx, customerId, erasureId);
  for (const other of open) {
    await repo.updatePrivacyRequestRow(tx, other.id, {
      outcome: [...other.outcome, { action: 'superseded', erasureRequestId: erasureId, at: now.toISOString(), by: caller.actor.email }],
      status: 'done',
      handledBy: caller.userId,
      handledAt: now,
      version: other.version + 1,
      updatedAt: now,
    });
    await recordAudit(tx, caller.actor, {
      action: 'close',
      entityType: PRIVACY_ENTITY,
      entityId: other.id,
      before: { status: other.status },
      after: { status: 'done', supersededBy: erasureId },
    });
  }
  return open.length;
}

async function uniqueReferralCode(executor: Executor): Promise<string> {
  for (;;) {
    const code = newReferralCode();
    if (!(await isReferralCodeTaken(executor, code))) return code;
  }
}

/**
 * `POST /api/admin/privacy-requests/:id/actions`. Each action and its audit record commit together.
 */
export async function runPrivacyAction(
  deps: ServiceDeps & { dataDir?: string },
  caller: Caller,
  id: string,
  input: PrivacyActionInput,
) {
  const now = deps.clock.now();
  // An erasure's screenshots: their rows go with the transaction, their files once it has committed.
  let erasedImages: { id: string; contentType: string }[] = [];
  const answer = await deps.db.transaction(async (tx) => {
    // The customer first, then the request: the erasure closes the person's other requests while it
    // holds the customer, so an action on one of them waits for it (never a deadlock), then is refused.
    const found = await repo.findPrivacyRequest(tx, id);
    if (!found) throw requestNotFound();
    const customerId = found.request.customerId;
    const customer = await customerInTransaction(tx, customerId, { forUpdate: true });
    if (!customer) throw customerNotFound();
    const { row, request } = await load(tx, id, now, deps.timeZone, { forUpdate: true });
    if (customer.status === 'erased') throw customerErased();
    checkVersion(request, input.version);
    checkPending(request);
    let document: Record<string, unknown> | undefined;

    switch (input.action) {
      case 'export': {
        document = await buildPersonalDataExport(tx, customerId, now);
        const counts = Object.fromEntries(
          Object.entries(document).filter(([, value]) => Array.isArray(value)).map(([key, value]) => [key, (value as unknown[]).length]),
        );
        await appendOutcome(tx, row, caller, now, { action: 'export', counts });
        await recordAudit(tx, caller.actor, { action: 'privacy_export', entityType: CUSTOMER_ENTITY, entityId: customerId, after: { requestId: id, counts } });
        break;
      }
      case 'erase': {
        if (request.kind !== 'erasure') throw invalidState('erasure_only');
        // Everywhere we keep the person (issue 30, M2): their row, consents, the audit snapshots of
        // them and of their proofs, screenshots and requests, their proofs, the free texts of their
        // ledger entries and privacy requests, and their rows in imports not yet run.
        const person = { email: customer.email, phone: customer.phone, firstName: customer.firstName, lastName: customer.lastName, birthDate: customer.birthDate };
        await repo.anonymiseCustomer(tx, customerId, {
          cardNumber: await uniqueCardNumber(tx),
          referralCode: await uniqueReferralCode(tx),
          now,
        });
        const consents = await repo.scrubConsents(tx, customerId, now);
        const auditRecords = await repo.scrubAuditSnapshots(tx, customerId, await repo.personalRecordIds(tx, customerId));
        const proofs = await repo.scrubSocialProofs(tx, customerId, now);
        erasedImages = proofs.images;
        const ledgerReasons = await eraseEntryTexts(tx, customerId);
        const wallet = await voidCustomerWallet(tx, customerId, now);
        const importRows = await dropPersonFromPendingImports(tx, person);
        const messages = await eraseMessages(tx, customerId);
        // Nothing left open on the person: a queue must not offer to pay, or answer, someone erased.
        const proofsClosed = await closePendingProofsOfErasedCustomer(tx, caller, customerId, now);
        const vouchersVoided = await voidVouchersOfErasedCustomer(tx, caller, customerId, now);
        const requestsClosed = await closeOtherRequests(tx, caller, customerId, id, now);
        const ledgerEntries = await repo.countLedgerEntries(tx, customerId);
        const counts = {
          consents,
          auditRecords,
          socialProofs: proofs.proofs,
          images: proofs.images.length,
          ledgerReasons,
          importRows,
          messages,
          cardLinks: wallet.links,
          walletPasses: wallet.passes,
          socialProofsClosed: proofsClosed,
          vouchersVoided,
          privacyRequestsClosed: requestsClosed,
          ledgerEntriesKept: ledgerEntries,
        };
        await appendOutcome(tx, row, caller, now, { action: 'erase', counts }, { status: 'done', handledBy: caller.userId, handledAt: now });
        const privacyRequests = await repo.scrubPrivacyRequests(tx, customerId);
        await recordAudit(tx, caller.actor, { action: 'privacy_erase', entityType: CUSTOMER_ENTITY, entityId: customerId, after: { requestId: id, ...counts, privacyRequests } });
        break;
      }
      case 'restrict': {
        if (request.kind !== 'restriction' && request.kind !== 'objection') {
          throw invalidState('block_kinds_only');
        }
        if (await repo.hasActiveBlock(tx, customerId)) throw invalidState('block_in_force');
        await repo.insertBlock(tx, { customerId, kind: request.kind, requestId: id, createdAt: now, createdBy: caller.userId });
        const withdrawn: string[] = [];
        for (const purpose of ['marketing', 'profiling'] as const) {
          const isGranted = purpose === 'marketing' ? customer.marketingConsent : customer.profilingConsent;
          if (!isGranted) continue;
          await appendConsent(tx, { customerId, purpose, granted: false, channel: 'back-office', noticeVersion: request.kind, at: now, recordedBy: caller.userId });
          withdrawn.push(purpose);
        }
        await appendOutcome(tx, row, caller, now, { action: 'restrict', withdrawn });
        await recordAudit(tx, caller.actor, { action: 'privacy_restrict', entityType: CUSTOMER_ENTITY, entityId: customerId, after: { requestId: id, kind: request.kind, withdrawn } });
        break;
      }
      case 'lift': {
        if (!input.reason) throw reasonRequired();
        const lifted = await repo.liftBlocks(tx, customerId, { liftedAt: now, liftedBy: caller.userId, liftReason: input.reason });
        if (lifted === 0) throw invalidState('no_block');
        await appendOutcome(tx, row, caller, now, { action: 'lift', reason: input.reason });
        await recordAudit(tx, caller.actor, { action: 'privacy_lift', entityType: CUSTOMER_ENTITY, entityId: customerId, after: { requestId: id, reason: input.reason } });
        break;
      }
      case 'close': {
        if (input.isRejected && !input.reason) throw reasonRequired();
        const status = input.isRejected ? 'rejected' : 'done';
        await appendOutcome(tx, row, caller, now, { action: 'close', status, ...(input.reason ? { reason: input.reason } : {}) }, {
          status,
          handledBy: caller.userId,
          handledAt: now,
        });
        await recordAudit(tx, caller.actor, { action: 'close', entityType: PRIVACY_ENTITY, entityId: id, before: auditView(request), after: { status, reason: input.reason ?? null } });
        break;
      }
    }
    const { request: after } = await load(tx, id, now, deps.timeZone);
    return { request: after, ...(document ? { export: document } : {}) };
  });
  if (deps.dataDir && erasedImages.length > 0) await removeStoredImages(deps.dataDir, erasedImages);
  return answer;
}

/**
 * Whether a restriction or objection is in force for the customer (decision record 021): the
 * customers module refuses new marketing and profiling grants meanwhile. In the caller's transaction.
 */
export async function hasProcessingBlock(tx: Executor, customerId: string): Promise<boolean> {
  return repo.hasActiveBlock(tx, customerId);
}

/** For the audit list: these requests' customer and kind, in one query (the customer's name is the customers' own). */
export function requestOwners(executor: Executor, ids: string[]) {
  return repo.findRequestOwners(executor, ids);
}

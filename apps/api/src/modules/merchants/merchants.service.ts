import type { CreateMerchant, ListMerchantsQuery, Merchant, UpdateMerchant } from '@sf/contract/merchants';
import { SDI_CODE_USE_PEC } from '@sf/contract/italian';
import type { Executor } from '../../db/client.ts';
import type { Caller, ServiceDeps } from '../../lib/caller.ts';
import { recordAudit } from '../../lib/audit.ts';
import { AppError, alreadyUsed, fieldError, notFound, versionConflict } from '../../lib/errors.ts';
import {
  deleteMerchantRow,
  existingMerchantIds,
  findMerchant,
  findMerchantIdByVat,
  findMerchants,
  hasLedgerEntries,
  insertMerchant,
  merchantNamesByIds,
  toMerchant,
  updateMerchantRow,
  type MerchantRow,
  type MerchantValues,
} from './merchants.repository.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';

export const MERCHANT_ENTITY = 'merchant';

const merchantNotFound = () => notFound('merchant');


function valuesOf(input: Partial<CreateMerchant>): Partial<MerchantValues> {
  const values: Partial<MerchantValues> = {};
  if (input.legalName !== undefined) values.legalName = input.legalName;
  if (input.signName !== undefined) values.signName = input.signName;
  if (input.vatNumber !== undefined) values.vatNumber = input.vatNumber;
  if (input.taxCode !== undefined) values.taxCode = input.taxCode;
  if (input.sdiCode !== undefined) values.sdiCode = input.sdiCode;
  if (input.pec !== undefined) values.pec = input.pec?.toLowerCase() ?? null;
  if (input.category !== undefined) values.category = input.category;
  if (input.address !== undefined) {
    values.street = input.address.street;
    values.city = input.address.city;
    values.province = input.address.province;
    values.postalCode = input.address.postalCode;
  }
  if (input.phone !== undefined) values.phone = input.phone;
  if (input.email !== undefined) values.email = input.email?.toLowerCase() ?? null;
  if (input.website !== undefined) values.website = input.website;
  if (input.social !== undefined) values.social = input.social;
  return values;
}

/** `0000000` (deliver to the PEC) needs a PEC: checked on the merchant as it will be. */
function checkSdiPec(row: { sdiCode: string | null; pec: string | null }) {
  if (row.sdiCode === SDI_CODE_USE_PEC && !row.pec) {
    throw fieldError('pec', 'required');
  }
}

/** A Partita IVA belongs to one merchant that is not archived: 409 `already_used` on vatNumber. */
async function checkVatFree(executor: Executor, row: { vatNumber: string; status: MerchantRow['status'] }, id?: string) {
  if (row.status === 'archived') return;
  const owner = await findMerchantIdByVat(executor, row.vatNumber);
  if (owner !== undefined && owner !== id) throw alreadyUsed('vatNumber');
}

async function orVatTaken<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isUniqueViolation(error, 'merchants_vat_number_key')) throw alreadyUsed('vatNumber');
    throw error;
  }
}

export async function listMerchants(deps: ServiceDeps, query: ListMerchantsQuery) {
  const { rows, total, totalIsCapped } = await findMerchants(deps.db, query);
  return {
    items: rows.map((row) => toMerchant(row.merchant)),
    total,
    page: query.page,
    pageSize: query.pageSize,
    ...(totalIsCapped === undefined ? {} : { totalIsCapped }),
  };
}

export async function getMerchant(deps: ServiceDeps, caller: Caller, id: string): Promise<Merchant> {
  const row = await findMerchant(deps.db, id);
  if (!row) throw merchantNotFound();
  return toMerchant(row);
}

export async function createMerchant(deps: ServiceDeps, caller: Caller, input: CreateMerchant): Promise<Merchant> {
  const now = deps.clock.now();
  const values = valuesOf(input) as MerchantValues;
  return orVatTaken(deps.db.transaction(async (tx) => {
    await checkVatFree(tx, { vatNumber: values.vatNumber, status: 'active' });
    const row = await insertMerchant(tx, { ...values, status: 'active', createdAt: now, updatedAt: now });
    const merchant = toMerchant(row);
    await recordAudit(tx, caller.actor, { action: 'create', entityType: MERCHANT_ENTITY, entityId: row.id, after: merchant });
    return merchant;
  }));
}

export async function updateMerchant(deps: ServiceDeps, caller: Caller, id: string, input: UpdateMerchant): Promise<Merchant> {
  const { version, status, ...fields } = input;
  return orVatTaken(deps.db.transaction(async (tx) => {
    const current = await findMerchant(tx, id, { forUpdate: true });
    if (!current) throw merchantNotFound();
    if (current.version !== version) throw versionConflict();
    const changes: Partial<MerchantValues> = { ...valuesOf(fields), ...(status !== undefined ? { status } : {}) };
    const merged: MerchantRow = { ...current, ...changes } as MerchantRow;
    checkSdiPec(merged);
    await checkVatFree(tx, merged, id);
    const row = await updateMerchantRow(tx, id, { ...changes, version: current.version + 1, updatedAt: deps.clock.now() });
    const before = toMerchant(current);
    const after = toMerchant(row);
    const action = status !== undefined && status !== current.status ? statusAction(status) : 'update';
    await recordAudit(tx, caller.actor, { action, entityType: MERCHANT_ENTITY, entityId: id, before, after });
    return after;
  }));
}

function statusAction(status: MerchantRow['status']): string {
  return status === 'active' ? 'reactivate' : status === 'suspended' ? 'suspend' : 'archive';
}

/**
 * Deletes a merchant that never took part in the ledger. One with entries keeps its history
 * readable: 409 `has_ledger_entries`, and the client archives it instead.
 */
export async function deleteMerchant(deps: ServiceDeps, caller: Caller, id: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const current = await findMerchant(tx, id, { forUpdate: true });
    if (!current) throw merchantNotFound();
    if (await hasLedgerEntries(tx, id)) throw new AppError(409, 'has_ledger_entries');
    await deleteMerchantRow(tx, id);
    await recordAudit(tx, caller.actor, { action: 'delete', entityType: MERCHANT_ENTITY, entityId: id, before: toMerchant(current) });
  });
}

/** For other modules (programs): which of these merchants exist, with their status, read in the caller's transaction. */
export function merchantsThatExist(executor: Executor, ids: string[]): Promise<Map<string, MerchantRow['status']>> {
  return existingMerchantIds(executor, ids);
}

/** For the audit list: these merchants' names in one query (a deleted one is missing). */
export function merchantNames(executor: Executor, ids: string[]): Promise<Map<string, string>> {
  return merchantNamesByIds(executor, ids);
}

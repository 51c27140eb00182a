import { randomInt } from 'node:crypto';
import {
  CONSENT_PURPOSES,
  REFERRAL_ALPHABET,
  type CreateCustomer,
  type Customer,
  type ListCustomersQuery,
  type RecordConsent,
  type UpdateCustomer,
} from '@sf/contract/customers';
import type { Membership } from '@sf/contract/ledger';
import type { Executor, Transaction } from '../../db/client.ts';
import type { Caller, ServiceDeps } from '../../lib/caller.ts';
import { recordAudit, type AuditActor } from '../../lib/audit.ts';
import { AppError, alreadyUsed, fieldError, notFound } from '../../lib/errors.ts';
import {
  consentHistory,
  currentConsents,
  customerNamesByIds,
  findCustomer,
  findCustomerIdBy,
  findCustomers,
  insertConsent,
  insertCustomer,
  toCustomer,
  updateCustomerRow,
  type CustomerRow,
  type CustomerValues,
} from './customers.repository.ts';
import { hasProcessingBlock } from '../privacy/privacy.service.ts';
import { uniqueCardNumber } from './customer-cards.service.ts';
import { customersTotal } from '../dashboard/dashboard.service.ts';
import { voidCustomerWallet } from '../wallet/wallet.service.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { nudgeBackgroundJobs } from '../../lib/job-runner.ts';
import { queueWelcome } from '../service-emails/service-emails.service.ts';
import { enrolInTransaction } from '../ledger/ledger.service.ts';

export const CUSTOMER_ENTITY = 'customer';

const customerNotFound = () => notFound('customer');

/** 409 `already_used` on the e-mail field (not a version conflict): the form keeps what was typed. */
const emailTaken = () => alreadyUsed('email');

/** A short code in an alphabet without look-alike characters (0/O, 1/I/L, 2/Z, 5/S, 8/B). */
export function newReferralCode(): string {
  let code = '';
  for (let index = 0; index < 8; index += 1) code += REFERRAL_ALPHABET[randomInt(REFERRAL_ALPHABET.length)];
  return code;
}

async function uniqueReferralCode(executor: Executor): Promise<string> {
  for (;;) {
    const code = newReferralCode();
    if ((await findCustomerIdBy(executor, { referralCode: code })) === undefined) return code;
  }
}

async function withConsents(executor: Executor, row: CustomerRow): Promise<Customer> {
  const states = await currentConsents(executor, [row.id]);
  return toCustomer(row, states.get(row.id));
}

export async function listCustomers(deps: ServiceDeps, query: ListCustomersQuery) {
  const found = await findCustomers(deps.db, query);
  const { rows } = found;
  // Beyond the count cap, a list a dashboard figure opened still shows that figure (decision 032).
  const exact = found.totalIsCapped ? await customersTotal(deps, query) : null;
  const total = exact ?? found.total;
  const totalIsCapped = exact === null ? found.totalIsCapped : false;
  const states = await currentConsents(
    deps.db,
    rows.map((row) => row.customer.id),
  );
  return {
    items: rows.map((row) => toCustomer(row.customer, states.get(row.customer.id))),
    total,
    page: query.page,
    pageSize: query.pageSize,
    ...(totalIsCapped === undefined ? {} : { totalIsCapped }),
  };
}

/** A customer's personal data: the read itself is audited (B5), in the same transaction. */
export async function getCustomer(deps: ServiceDeps, caller: Caller, id: string): Promise<Customer> {
  return deps.db.transaction(async (tx) => {
    const row = await findCustomer(tx, id);
    if (!row) throw customerNotFound();
    await recordAudit(tx, caller.actor, { action: 'read', entityType: CUSTOMER_ENTITY, entityId: id });
    return withConsents(tx, row);
  });
}

/** Who creates a customer: a staff member (their id goes on the consents), or the customers' app's API key (none). */
export type CreatingCaller = { actor: AuditActor; userId: string | null };

/**
 * A new customer, in the caller's transaction (the back-office's request, or the integration API's
 * idempotent one: one code path). With a `programId` they join that program and only it welcomes
 * them (decision 035). Answers the customer, their membership and whether a welcome was queued.
 */
export async function createCustomerInTransaction(
  tx: Transaction,
  deps: ServiceDeps,
  caller: CreatingCaller,
  input: CreateCustomer,
): Promise<{ customer: Customer; membership: Membership | null; isWelcomed: boolean }> {
  const now = deps.clock.now();
  if (input.email && (await findCustomerIdBy(tx, { email: input.email }))) throw emailTaken();
  let referredBy: string | null = null;
  if (input.referrerCode !== undefined) {
    referredBy = (await findCustomerIdBy(tx, { referralCode: input.referrerCode })) ?? null;
    if (referredBy === null) {
      throw fieldError('referrerCode', 'notFound');
    }
  }
  const row = await insertCustomer(tx, {
    firstName: input.firstName,
    lastName: input.lastName,
    email: input.email?.toLowerCase() ?? null,
    phone: input.phone ?? null,
    birthDate: input.birthDate ?? null,
    city: input.city ?? null,
    province: input.province ?? null,
    language: input.language ?? 'it',
    cardNumber: await uniqueCardNumber(tx),
    referralCode: await uniqueReferralCode(tx),
    referredBy,
    status: 'active',
    createdAt: now,
    updatedAt: now,
  });
  for (const purpose of CONSENT_PURPOSES) {
    const consent = input.consents?.[purpose];
    if (!consent) continue;
    await insertConsent(tx, { customerId: row.id, purpose, ...consent, at: now, recordedBy: caller.userId });
  }
  const customer = await withConsents(tx, (await findCustomer(tx, row.id)) ?? row);
  await recordAudit(tx, caller.actor, { action: 'create', entityType: CUSTOMER_ENTITY, entityId: row.id, after: { ...customer, programId: input.programId ?? null } });
  // The customer joins the program chosen now, and only that program welcomes them: the e-mail is
  // queued with the customer (never sent inside the request). No program: no membership, no welcome.
  if (input.programId === undefined) return { customer, membership: null, isWelcomed: false };
  const membership = await enrolInTransaction(tx, deps, row.id, input.programId);
  const isWelcomed = await queueWelcome(tx, { id: row.id, email: row.email }, input.programId, now);
  return { customer, membership, isWelcomed };
}

/** A unique index's refusal of the e-mail (a twin created the same address meanwhile) says so on the field. */
export function emailTakenOf(error: unknown): unknown {
  return isUniqueViolation(error, 'customers_email_key') ? emailTaken() : error;
}

export async function createCustomer(deps: ServiceDeps, caller: Caller, input: CreateCustomer): Promise<Customer> {
  try {
    const created = await deps.db.transaction((tx) => createCustomerInTransaction(tx, deps, caller, input));
    if (created.isWelcomed) nudgeBackgroundJobs();
    return created.customer;
  } catch (error) {
    throw emailTakenOf(error);
  }
}

export async function updateCustomer(deps: ServiceDeps, caller: Caller, id: string, input: UpdateCustomer): Promise<Customer> {
  const { version, ...fields } = input;
  try {
    return await deps.db.transaction(async (tx) => {
      const current = await findCustomer(tx, id, { forUpdate: true });
      if (!current) throw customerNotFound();
      if (current.version !== version) throw new AppError(409, 'version_conflict');
      if (current.status === 'erased') throw erased();
      const changes: Partial<CustomerValues> = {};
      for (const [key, value] of Object.entries(fields)) {
        if (value !== undefined) (changes as Record<string, unknown>)[key] = value;
      }
      if (typeof changes.email === 'string') {
        changes.email = changes.email.toLowerCase();
        const owner = await findCustomerIdBy(tx, { email: changes.email });
        if (owner !== undefined && owner !== id) throw emailTaken();
      }
      const row = await updateCustomerRow(tx, id, { ...changes, version: current.version + 1, updatedAt: deps.clock.now() });
      const states = await currentConsents(tx, [id]);
      const before = toCustomer(current, states.get(id));
      const after = toCustomer(row, states.get(id));
      const action = fields.status !== undefined && fields.status !== current.status ? (fields.status === 'blocked' ? 'block' : 'unblock') : 'update';
      await recordAudit(tx, caller.actor, { action, entityType: CUSTOMER_ENTITY, entityId: id, before, after });
      if (action === 'block') await voidCustomerWallet(tx, id, deps.clock.now());
      return after;
    });
  } catch (error) {
    if (isUniqueViolation(error, 'customers_email_key')) throw emailTaken();
    throw error;
  }
}

const erased = () => new AppError(409, 'conflict', { text: 'customer_erased_unchangeable' });

/** A grant or a withdrawal: a new record (the history is never edited), audited with the change. */
export async function recordConsent(deps: ServiceDeps, caller: Caller, id: string, input: RecordConsent): Promise<Customer> {
  return deps.db.transaction(async (tx: Transaction) => {
    const current = await findCustomer(tx, id, { forUpdate: true });
    if (!current) throw customerNotFound();
    if (current.status === 'erased') throw erased();
    // A restriction or objection in force (privacy requests, decision record 021) refuses new
    // marketing and profiling grants until it is lifted; withdrawals are always accepted.
    if (input.granted && input.purpose !== 'service' && (await hasProcessingBlock(tx, id))) {
      throw new AppError(409, 'processing_blocked');
    }
    const record = await insertConsent(tx, { customerId: id, ...input, at: deps.clock.now(), recordedBy: caller.userId });
    await recordAudit(tx, caller.actor, {
      action: input.granted ? 'consent_grant' : 'consent_withdraw',
      entityType: CUSTOMER_ENTITY,
      entityId: id,
      after: record,
    });
    return withConsents(tx, (await findCustomer(tx, id)) ?? current);
  });
}

export async function listConsentHistory(deps: ServiceDeps, caller: Caller, id: string) {
  const row = await findCustomer(deps.db, id);
  if (!row) throw customerNotFound();
  return { items: await consentHistory(deps.db, id) };
}

// ---- For other modules, inside their own transaction (the privacy requests) -----------------------

/** The customer's row, locked for update when asked (a privacy action serialises on it). */
export async function customerInTransaction(tx: Executor, id: string, options: { forUpdate?: boolean } = {}) {
  return findCustomer(tx, id, options);
}

/** Whether a referral code is someone's already (an erasure draws a fresh one). */
export async function isReferralCodeTaken(tx: Executor, code: string): Promise<boolean> {
  return (await findCustomerIdBy(tx, { referralCode: code })) !== undefined;
}

/** Appends a consent record in the caller's transaction (an erasure withdraws every grant). */
export async function appendConsent(tx: Executor, record: Parameters<typeof insertConsent>[1]) {
  return insertConsent(tx, record);
}

/** For the audit list: these customers' names in one query, null for an erased one (their name is gone by design). */
export function customerNames(executor: Executor, ids: string[]): Promise<Map<string, string | null>> {
  return customerNamesByIds(executor, ids);
}

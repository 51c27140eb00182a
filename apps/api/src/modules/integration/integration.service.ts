import {
  integrationErrorMessage,
  type IntegrationCard,
  type IntegrationPurchase,
  type IntegrationPurchaseResult,
} from '@sf/contract/integration';
import type { LedgerWriteResult } from '@sf/contract/ledger';
import { message } from '@sf/contract/messages';
import type { AuditActor } from '../../lib/audit.ts';
import { CodedError } from '../../lib/errors.ts';
import { createEntry, type LedgerCaller, type LedgerDeps } from '../ledger/ledger.service.ts';
import * as ledgerRepo from '../ledger/ledger.repository.ts';
import { localDate } from '../ledger/ledger.rules.ts';
import type { IntegrationKey } from './api-keys.service.ts';
import * as repo from './integration.repository.ts';

/** How far ahead a card shows its expiring points. */
export const EXPIRING_WINDOW_DAYS = 30;

export const otherMerchant = () =>
  new CodedError(403, 'forbidden', (language) => ({ message: integrationErrorMessage('other_merchant', language) }));

export const cardNotFound = () =>
  new CodedError(404, 'not_found', (language) => ({ message: integrationErrorMessage('card_not_found', language) }));

const programRequired = () =>
  new CodedError(400, 'validation', (language) => {
    const text = integrationErrorMessage('program_required', language);
    return { message: text, fields: [{ field: 'programId', message: message('required', language, { field: 'programId' }) }] };
  });

const noProgram = () =>
  new CodedError(409, 'conflict', (language) => ({
    message: language === 'it' ? "L'esercente non partecipa a nessun programma attivo" : 'The merchant takes part in no active program',
  }));

/** The ledger's "made by" for a key: no staff id, the key's name and prefix as the label. */
export function keyCaller(key: IntegrationKey, request: { id: string; ip: string }): LedgerCaller {
  const label = `API: ${key.name} (${key.prefix}…)`;
  const audit: AuditActor = { id: null, email: label, requestId: request.id, ip: request.ip };
  return { id: null, label, audit };
}

/** The merchant a key acts for: its own; a merchant named in the request must be the same (else 403). */
export function merchantOf(key: IntegrationKey, requested: string | undefined): string {
  if (key.merchantId === null) throw otherMerchant();
  if (requested !== undefined && requested !== key.merchantId) throw otherMerchant();
  return key.merchantId;
}

/**
 * `POST /purchases`: through the one ledger (createEntry), idempotent per key: the key's id prefixes
 * the till's Idempotency-Key, so two tills choosing the same key never meet.
 */
export async function recordPurchase(
  deps: LedgerDeps,
  key: IntegrationKey,
  request: { id: string; ip: string },
  input: IntegrationPurchase,
  idempotencyKey: string,
) {
  const merchantId = merchantOf(key, input.merchantId);
  const holder = await repo.findCardHolder(deps.db, input.cardNumber);
  if (!holder) throw cardNotFound();
  let programId = input.programId;
  if (programId === undefined) {
    const active = await repo.activeProgramsOfMerchant(deps.db, merchantId);
    if (active.length === 0) throw noProgram();
    if (active.length > 1) throw programRequired();
    programId = active[0]!;
  } else if (!(await repo.isMerchantOfProgram(deps.db, merchantId, programId))) {
    throw otherMerchant();
  }
  const answer = await createEntry(
    deps,
    keyCaller(key, request),
    {
      customerId: holder.id,
      programId,
      merchantId,
      kind: 'purchase',
      amountCents: input.amountCents,
      ...(input.stamps !== undefined ? { stamps: input.stamps } : {}),
      ...(input.receipt !== undefined ? { reason: `Scontrino ${input.receipt}` } : {}),
    },
    `int:${key.id}:${idempotencyKey}`,
  );
  const { entry, membership } = answer.body as LedgerWriteResult;
  const result: IntegrationPurchaseResult = {
    entryId: entry.id,
    cardNumber: input.cardNumber,
    programId: entry.programId,
    merchantId,
    points: entry.points,
    stamps: entry.stamps,
    amountCents: entry.amountCents,
    balance: membership.balance,
    stampsBalance: membership.stamps,
    tier: membership.tier,
    createdAt: entry.createdAt,
  };
  return { status: answer.status, isReplay: answer.isReplay, body: result };
}

export function initialsOf(firstName: string, lastName: string): string {
  const initial = (name: string) => {
    const first = [...name.trim()][0];
    return first ? `${first.toLocaleUpperCase('it-IT')}.` : '';
  };
  return [initial(firstName), initial(lastName)].filter(Boolean).join(' ');
}

/** `GET /cards/:cardNumber`: a merchant's key sees only its programs; the app's key sees them all. */
export async function readCard(deps: LedgerDeps, key: IntegrationKey, cardNumber: string): Promise<IntegrationCard> {
  const holder = await repo.findCardHolder(deps.db, cardNumber);
  if (!holder) throw cardNotFound();
  const visible = key.merchantId === null ? null : await repo.programIdsOfMerchant(deps.db, key.merchantId);
  const memberships = (await ledgerRepo.membershipsOfCustomer(deps.db, holder.id)).filter(
    (membership) => visible === null || visible.has(membership.programId),
  );
  const today = localDate(deps.clock.now(), deps.timeZone);
  const horizon = localDate(new Date(deps.clock.now().getTime() + EXPIRING_WINDOW_DAYS * 86_400_000), deps.timeZone);
  const expiring = await ledgerRepo.expiringPoints(deps.db, memberships.map((membership) => membership.id));
  return {
    cardNumber,
    initials: initialsOf(holder.firstName, holder.lastName),
    status: holder.status,
    memberships: memberships.map((membership) => ({
      programId: membership.programId,
      programName: membership.programName,
      programType: membership.programType,
      balance: membership.balance,
      stamps: membership.stamps,
      stampsRequired: membership.stampsRequired,
      tier: membership.tier,
      expiring: expiring
        .filter((lot) => lot.membershipId === membership.id && lot.expiresOn >= today && lot.expiresOn <= horizon)
        .map(({ points, expiresOn }) => ({ points, expiresOn })),
    })),
  };
}

import type { VoucherCheck } from '@sf/contract/rewards';
import { checkVoucher, redeemReward, useVoucher } from '../rewards/rewards.service.ts';
import { submitProof } from '../social-proofs/social-proofs.service.ts';
import {
  integrationErrorMessage,
  type IntegrationProof,
  type IntegrationRedemption,
  type IntegrationRedemptionResult,
  type IntegrationVoucher,
  type IntegrationCard,
  type IntegrationPurchase,
  type IntegrationPurchaseResult,
} from '@sf/contract/integration';
import type { LedgerWriteResult } from '@sf/contract/ledger';
import { message } from '@sf/contract/messages';
import type { AuditActor } from '../../lib/audit.ts';
import { CodedError } from '../../lib/errors.ts';
import { createEntry, customerMemberships, type LedgerCaller, type LedgerDeps } from '../ledger/ledger.service.ts';
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
  const memberships = (await customerMemberships(deps, holder.id)).items.filter((membership) => visible === null || visible.has(membership.programId));
  const today = localDate(deps.clock.now(), deps.timeZone);
  const horizon = localDate(new Date(deps.clock.now().getTime() + EXPIRING_WINDOW_DAYS * 86_400_000), deps.timeZone);
  const rewards = await repo.openRewardsOf(deps.db, memberships.map((membership) => membership.programId), today);
  const rewardsWithinReach = rewards
    .map((reward) => {
      const membership = memberships.find((m) => m.programId === reward.programId)!;
      const isStamps = membership.programType === 'stamps';
      const have = isStamps ? membership.stamps : membership.balance;
      return {
        id: reward.id,
        programId: reward.programId,
        name: reward.name,
        costPoints: isStamps ? null : reward.cost,
        costStamps: isStamps ? reward.cost : null,
        isAffordable: have >= reward.cost,
        missing: Math.max(0, reward.cost - have),
      };
    })
    .sort((a, b) => a.missing - b.missing)
    .slice(0, 10);
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
      expiring: membership.expiring.filter((lot) => lot.expiresOn >= today && lot.expiresOn <= horizon),
    })),
    rewardsWithinReach,
  };
}

const withoutCustomer = ({ customerId: _customerId, ...rest }: VoucherCheck): IntegrationVoucher => rest;

/** A voucher is checked and used at the key's merchant (the app's key has none: 403). */
export async function checkVoucherAtTill(deps: LedgerDeps, key: IntegrationKey, code: string): Promise<IntegrationVoucher> {
  return withoutCustomer(await checkVoucher(deps, { code, merchantId: merchantOf(key, undefined) }));
}

export async function useVoucherAtTill(deps: LedgerDeps, key: IntegrationKey, request: { id: string; ip: string }, code: string) {
  return withoutCustomer(await useVoucher(deps, keyCaller(key, request), { code, merchantId: merchantOf(key, undefined) }));
}

/**
 * A redemption for a card, through the rewards service (one transaction: redeem entry, stock,
 * voucher), idempotent per key. A merchant's key redeems only rewards of its programs (else 403).
 */
export async function redeemForCard(
  deps: LedgerDeps,
  key: IntegrationKey,
  request: { id: string; ip: string },
  input: IntegrationRedemption,
  idempotencyKey: string,
) {
  const holder = await repo.findCardHolder(deps.db, input.cardNumber);
  if (!holder) throw cardNotFound();
  const programId = await repo.programOfReward(deps.db, input.rewardId);
  if (programId && key.merchantId !== null && !(await repo.isMerchantOfProgram(deps.db, key.merchantId, programId))) throw otherMerchant();
  const answer = await redeemReward(deps, keyCaller(key, request), { customerId: holder.id, rewardId: input.rewardId }, idempotencyKey, {
    scope: `int:${key.id}`,
  });
  const { entry, voucher } = answer.body;
  const result: IntegrationRedemptionResult = {
    entryId: entry.id,
    programId: entry.programId,
    points: entry.points,
    stamps: entry.stamps,
    balance: entry.balanceAfter,
    stampsBalance: entry.stampsAfter,
    voucher: { code: voucher.code, validUntil: voucher.validUntil },
  };
  return { status: answer.status, isReplay: answer.isReplay, body: result };
}

/** A social-action proof for a card, into the Approvazioni queue; a merchant's key files it at its merchant. */
export async function submitProofForCard(
  deps: LedgerDeps,
  key: IntegrationKey,
  request: { id: string; ip: string },
  input: IntegrationProof,
  idempotencyKey: string | undefined,
) {
  const holder = await repo.findCardHolder(deps.db, input.cardNumber);
  if (!holder) throw cardNotFound();
  if (key.merchantId !== null && !(await repo.isMerchantOfProgram(deps.db, key.merchantId, input.programId))) throw otherMerchant();
  const caller = keyCaller(key, request);
  const { proof, isReplay } = await submitProof(
    deps,
    { label: caller.label, audit: caller.audit, channel: key.kind === 'app' ? 'app' : 'integration' },
    {
      customerId: holder.id,
      programId: input.programId,
      merchantId: key.merchantId ?? undefined,
      kind: input.kind,
      url: input.url,
      imageId: input.imageId,
      note: input.note,
    },
    idempotencyKey ? { scope: `int:${key.id}`, key: idempotencyKey } : undefined,
  );
  return { isReplay, body: { id: proof.id, kind: proof.kind, status: proof.status, createdAt: proof.createdAt } };
}

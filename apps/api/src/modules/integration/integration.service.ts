import type { VoucherCheck } from '@sf/contract/rewards';
import { splitCardReference } from '@sf/contract/customer-cards';
import { redeemReward } from '../rewards/rewards.service.ts';
import { checkVoucher, useVoucher } from '../rewards/voucher-use.service.ts';
import { submitProof } from '../social-proofs/social-proofs.service.ts';
import {
  type IntegrationProof,
  type IntegrationRedemption,
  type IntegrationRedemptionResult,
  type IntegrationVoucher,
  type IntegrationCard,
  type IntegrationPurchase,
  type IntegrationPurchaseResult,
  type IntegrationCustomer,
  type IntegrationCustomerResult,
} from '@sf/contract/integration';
import { createCustomerInTransaction, emailTakenOf } from '../customers/customers.service.ts';
import { requestHash, runIdempotent } from '../../lib/idempotency.ts';
import { nudgeBackgroundJobs } from '../../lib/job-runner.ts';
import type { LedgerWriteResult } from '@sf/contract/ledger';
import type { AuditActor } from '../../lib/audit.ts';
import { AppError, fieldError, forbidden, notFound } from '../../lib/errors.ts';
import { createEntry, customerMemberships, type LedgerCaller, type LedgerDeps } from '../ledger/ledger.service.ts';
import { findCardHolder, verifyCardCode, type CardHolder } from '../customers/customer-cards.service.ts';
import { localDate } from '../../lib/business-days.ts';
import type { IntegrationKey } from './api-keys.service.ts';
import * as repo from './integration.repository.ts';

/** How far ahead a card shows its expiring points. */
export const EXPIRING_WINDOW_DAYS = 30;

export const otherMerchant = () => forbidden('other_merchant');

export const cardNotFound = () => new AppError(404, 'not_found', { text: 'card_not_found' });

/** Refused before the card is looked up, so it says nothing about the card (decision record 030). */
const cardCodeRequired = () => new AppError(403, 'card_code_required');

const cardCodeMismatch = () => fieldError('cardCode');

/** What the integration services need: the ledger's deps and the secret card codes derive from. */
export type IntegrationDeps = LedgerDeps & { cardCodeSecret: string };

/** What a request does with a card: reading it, earning on it, spending from it, filing a proof for it. */
export type CardUse = 'read' | 'purchase' | 'redeem' | 'proof';

/**
 * The holder of the card a request names, under the rules of decision record 030:
 * - spending (a redemption) needs the card's code, whatever the key; an `app` key needs it for
 *   everything it does with a card. Without it: 403 `card_code_required`, before any look-up;
 * - a wrong code answers exactly as an unknown card (404), so a key cannot test codes one by one
 *   against a known card and learn anything but "not found";
 * - a merchant's key without a code reads (or files a proof for) only members of one of its
 *   programs; any other card is "not found" too. A purchase needs no code: it enrols the customer in
 *   the merchant's program, as it always has.
 */
export async function cardHolderFor(
  deps: IntegrationDeps,
  key: IntegrationKey,
  card: { cardNumber: string; cardCode?: string | undefined },
  use: CardUse,
): Promise<{ holder: CardHolder; cardNumber: string; hasCode: boolean }> {
  const scanned = splitCardReference(card.cardNumber);
  const given = card.cardCode?.trim().toUpperCase();
  if (scanned.cardCode !== undefined && given !== undefined && scanned.cardCode !== given) throw cardCodeMismatch();
  const cardCode = scanned.cardCode ?? given;
  if (cardCode === undefined && (use === 'redeem' || key.kind === 'app')) throw cardCodeRequired();
  const holder = cardCode === undefined ? await findCardHolder(deps, scanned.cardNumber) : await verifyCardCode(deps, scanned.cardNumber, cardCode);
  if (!holder) throw cardNotFound();
  if (cardCode === undefined && key.merchantId !== null && use !== 'purchase' && !(await repo.isMemberAtMerchant(deps.db, holder.id, key.merchantId))) {
    throw cardNotFound();
  }
  return { holder, cardNumber: scanned.cardNumber, hasCode: cardCode !== undefined };
}

const programRequired = () =>
  new AppError(400, 'validation', { text: 'program_required', fields: [{ field: 'programId', message: 'required' }] });

const noProgram = () => new AppError(409, 'conflict', { text: 'no_active_program' });

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
  deps: IntegrationDeps,
  key: IntegrationKey,
  request: { id: string; ip: string },
  input: IntegrationPurchase,
  idempotencyKey: string,
) {
  const merchantId = merchantOf(key, input.merchantId);
  const { holder, cardNumber } = await cardHolderFor(deps, key, input, 'purchase');
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
    cardNumber,
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

/**
 * `GET /cards/:cardNumber`: a merchant's key sees only its programs (and, without the card's code,
 * only its programs' members: cardHolderFor); the app's key, with the code, sees them all.
 */
export async function readCard(deps: IntegrationDeps, key: IntegrationKey, card: { cardNumber: string; cardCode?: string | undefined }): Promise<IntegrationCard> {
  const { holder, cardNumber } = await cardHolderFor(deps, key, card, 'read');
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

/** Exactly the rewards service's answer to an unknown code. */
const voucherNotFound = () => notFound('voucher');

/**
 * A voucher of a program the key's merchant is not part of is answered as an unknown code: a till
 * must not learn that another merchant's code exists (nor whether it was used), which would make
 * short imported codes guessable one by one.
 */
async function voucherAtMerchant(deps: LedgerDeps, merchantId: string, code: string): Promise<VoucherCheck> {
  let checked: VoucherCheck;
  try {
    checked = await checkVoucher(deps, { code, merchantId });
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') throw voucherNotFound();
    throw error;
  }
  if (!(await repo.isMerchantOfProgram(deps.db, merchantId, checked.reward.programId))) throw voucherNotFound();
  return checked;
}

/** A voucher is checked and used at the key's merchant (the app's key has none: 403). */
export async function checkVoucherAtTill(deps: LedgerDeps, key: IntegrationKey, code: string): Promise<IntegrationVoucher> {
  return withoutCustomer(await voucherAtMerchant(deps, merchantOf(key, undefined), code));
}

/** A use is idempotent per key, like a purchase: a till retrying after a timeout gets its own use back. */
export async function useVoucherAtTill(
  deps: LedgerDeps,
  key: IntegrationKey,
  request: { id: string; ip: string },
  code: string,
  idempotencyKey: string | undefined,
) {
  const merchantId = merchantOf(key, undefined);
  await voucherAtMerchant(deps, merchantId, code);
  const answer = await useVoucher(
    deps,
    keyCaller(key, request),
    { code, merchantId },
    idempotencyKey === undefined ? undefined : { scope: `int:${key.id}:voucher-use`, key: idempotencyKey },
  );
  return { isReplay: answer.isReplay, body: withoutCustomer(answer.body) };
}

/**
 * A redemption for a card, through the rewards service (one transaction: redeem entry, stock,
 * voucher), idempotent per key. A merchant's key redeems only rewards of its programs (else 403), and
 * its redemptions are entries at its merchant.
 */
export async function redeemForCard(
  deps: IntegrationDeps,
  key: IntegrationKey,
  request: { id: string; ip: string },
  input: IntegrationRedemption,
  idempotencyKey: string,
) {
  const { holder } = await cardHolderFor(deps, key, input, 'redeem');
  const programId = await repo.programOfReward(deps.db, input.rewardId);
  if (programId && key.merchantId !== null && !(await repo.isMerchantOfProgram(deps.db, key.merchantId, programId))) throw otherMerchant();
  // At a merchant's till the redemption happens at that merchant; the app's key has none.
  const answer = await redeemReward(
    deps,
    keyCaller(key, request),
    { customerId: holder.id, rewardId: input.rewardId, merchantId: key.merchantId },
    idempotencyKey,
    { scope: `int:${key.id}` },
  );
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
  deps: IntegrationDeps,
  key: IntegrationKey,
  request: { id: string; ip: string },
  input: IntegrationProof,
  idempotencyKey: string | undefined,
) {
  const { holder } = await cardHolderFor(deps, key, input, 'proof');
  if (key.merchantId !== null && !(await repo.isMerchantOfProgram(deps.db, key.merchantId, input.programId))) throw otherMerchant();
  const caller = keyCaller(key, request);
  const { proof, isReplay } = await submitProof(
    deps,
    { label: caller.label, audit: caller.audit, channel: key.kind === 'app' ? 'app' : 'integration', uploader: { apiKeyId: key.id } },
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

const CUSTOMER_SIGN_UP_SCOPE = 'integration-customers';

/**
 * `POST /customers`: the customers' app signs a person up in one program, through the customers
 * service's own creation (the back-office's code path: the membership, the welcome of that program
 * only) inside one idempotent transaction: the key's id prefixes the app's `Idempotency-Key`, and a
 * retry answers the customer made first, never a second one. Only an app key: a till signs nobody up.
 */
export async function signUpCustomer(
  deps: IntegrationDeps,
  key: IntegrationKey,
  request: { id: string; ip: string },
  input: IntegrationCustomer,
  idempotencyKey: string,
) {
  if (key.kind !== 'app') throw forbidden('scope_missing');
  const consents = Object.fromEntries(Object.entries(input.consents ?? {}).map(([purpose, consent]) => [purpose, { ...consent, channel: 'app' as const }]));
  try {
    const answer = await runIdempotent(
      deps.db,
      { scope: CUSTOMER_SIGN_UP_SCOPE, key: `${key.id}:${idempotencyKey}`, hash: requestHash({ op: 'sign-up', ...input }) },
      async (tx) => {
        const created = await createCustomerInTransaction(tx, deps, { actor: keyCaller(key, request).audit, userId: null }, { ...input, consents });
        const { customer } = created;
        // The sign-up always names its program (the contract requires it): the customer is a member.
        const membership = created.membership!;
        const body: IntegrationCustomerResult = {
          customerId: customer.id,
          cardNumber: customer.cardNumber,
          referralCode: customer.referralCode,
          membership: {
            id: membership.id,
            programId: membership.programId,
            balance: membership.balance,
            stamps: membership.stamps,
            tier: membership.tier,
            joinedAt: membership.joinedAt,
          },
        };
        return { status: 201, body };
      },
    );
    if (!answer.isReplay) nudgeBackgroundJobs();
    return { ...answer, body: answer.body as IntegrationCustomerResult };
  } catch (error) {
    throw emailTakenOf(error);
  }
}

import { LEDGER_BOUNDS, type CreateLedgerEntry, type LedgerEntry, type LedgerWriteResult } from '@sf/contract/ledger';
import type { Executor } from '../../db/client.ts';
import { AppError, fieldError, notFound } from '../../lib/errors.ts';
import * as repo from './ledger.repository.ts';
// A cycle (rewards uses the ledger's lockMember/applyToLockedMember): only functions cross it, at call time.
import { type IdempotentRequest } from '../../lib/idempotency.ts';
import { type BatchedTransaction } from '../../db/batch.ts';
import { consumeFifo, expiryDate, pointsForPurchase, stampsForPurchase, tierFor, tierWindowStart } from './ledger.rules.ts';
import { localDate, startOfLocalDay } from '../../lib/business-days.ts';
import { type LedgerCaller, type LedgerDeps } from './ledger.service.ts';

/**
 * How a ledger write becomes a movement (split out of ledger.service.ts, issue 26; moved unchanged):
 * the write's context read and locked (`loadWriteContext`, `lockMember`, `lockedMemberOf`), the
 * movement decided from the rules (`movementFor`, `planMovement`) and applied to the member
 * (`applyMovement`), with the refusals they throw. ledger.service.ts keeps the entry points, the
 * idempotency and the shared transactions (`createEntry`, `createEntriesTogether`, `reverseEntry`…).
 */
export const insufficient = (balance: number, requested: number, unit: 'points' | 'stamps') =>
  new AppError(409, 'insufficient_balance', { params: { balance, requested, unit } });

export const alreadyReversed = () => new AppError(409, 'already_reversed');

export const notFoundEntry = () => notFound('entry');

/** 409 `conflict` with the reason (a program or customer not active, an entry that is final). */
export const conflictText = (text: 'program_not_active' | 'customer_not_active' | 'entry_final') => new AppError(409, 'conflict', { text });

/** A movement already decided: what the membership gains or loses, and where it comes from. */
export type Movement = {
  kind: LedgerEntry['kind'];
  source: LedgerEntry['source'];
  points: number;
  stamps: number;
  amountCents: number | null;
  reason: string | null;
  merchantId: string | null;
  reversesId: number | null;
  /** Consumption: take from this entry's own lots first (the reversal of an earning). */
  preferLotsOf?: number;
  /** Consumption: take exactly this lot (expiry writes off one lot). */
  onlyLot?: number;
  /** Gains: the lots to create (points and expiry day); default one lot per the program's policy. */
  lots?: { points: number; expiresOn: string | null }[];
};

/** What a batched write already knows, and how it ends (createEntry). */
export type WriteOptions = {
  /** Read under the member's lock in the batch that took it (memberHistoryStatement). */
  history?: repo.MemberHistory | undefined;
  /** Send the write with the commit, and store the idempotent answer in the same statement. */
  batch?: { transaction: BatchedTransaction; idempotency: IdempotentRequest };
};

/**
 * Applies one movement to a LOCKED membership: checks the balance, writes the entry, moves the FIFO
 * lots, updates the stored balance, stamps and tier. All in the caller's transaction.
 */
export async function applyMovement(
  tx: Executor,
  deps: LedgerDeps,
  caller: LedgerCaller,
  membership: repo.MembershipRow,
  program: repo.ProgramRules,
  movement: Movement,
  idempotencyKey: string | null,
  options: WriteOptions = {},
): Promise<LedgerWriteResult> {
  const { history, batch } = options;
  const write = await planMovement(tx, deps, caller, membership, program, movement, idempotencyKey, history, batch?.idempotency);
  // The batched write sends its last statement with the commit: the answer is stored by it.
  const { entry, membership: updated } = batch
    ? repo.toWriteResult((await batch.transaction.send([repo.writeMovementStatement(write)], { commit: true }))[0]![0]!)
    : await repo.writeMovement(tx, write);
  return { entry, membership: repo.toMembership(updated) };
}

/**
 * Decides what one movement writes on a LOCKED membership (the rows of `writeMovementStatement`):
 * refuses a balance below zero, takes FIFO lots, recomputes the tier. Reads only what `history` does
 * not already hold; writes nothing.
 */
export async function planMovement(
  tx: Executor,
  deps: LedgerDeps,
  caller: LedgerCaller,
  membership: repo.MembershipRow,
  program: repo.ProgramRules,
  movement: Movement,
  idempotencyKey: string | null,
  history: repo.MemberHistory | undefined,
  idempotency: IdempotentRequest | undefined,
): Promise<repo.MovementWrite> {
  const now = deps.clock.now();
  const balance = membership.balance + movement.points;
  const stamps = membership.stamps + movement.stamps;
  if (balance < 0) throw insufficient(membership.balance, -movement.points, 'points');
  if (stamps < 0) throw insufficient(membership.stamps, -movement.stamps, 'stamps');
  // The stored figures are 32-bit integers: a write that would pass them is the request's fault.
  if (balance > LEDGER_BOUNDS.storedMax || stamps > LEDGER_BOUNDS.storedMax) {
    throw fieldError(movement.source === 'purchase' && movement.amountCents !== null ? 'amountCents' : movement.stamps > 0 ? 'stamps' : 'points');
  }

  const defaultExpiry =
    movement.points > 0
      ? expiryDate({ policy: program.expiryPolicy, days: program.expiryDays }, now, deps.timeZone)
      : null;
  const lots = movement.points > 0 ? (movement.lots ?? [{ points: movement.points, expiresOn: defaultExpiry }]) : [];
  const entryExpiry = lots.length === 1 ? lots[0]!.expiresOn : null;

  const takes =
    movement.points >= 0
      ? []
      : movement.onlyLot !== undefined
        ? [{ lotId: movement.onlyLot, take: -movement.points }]
        : consumeFifo(
            history?.openLots && movement.preferLotsOf === undefined
              ? history.openLots
              : await repo.openLots(tx, membership.id, movement.preferLotsOf),
            -movement.points,
          ).takes;

  let tier = membership.tier;
  if (program.tiers.length > 0) {
    // Read before this entry is written: add its own share of "points earned" (earnings and the
    // reversals of earnings count; see pointsEarnedSince).
    const earnedBefore =
      history?.earnedInWindow ?? (await repo.pointsEarnedSince(tx, membership.id, tierWindowStart(program.tierWindow, now, deps.timeZone)));
    const countsAsEarned =
      movement.kind === 'earn' || (movement.kind === 'reversal' && movement.source !== 'manual' && movement.source !== 'system');
    tier = tierFor(program.tiers, earnedBefore + (countsAsEarned ? movement.points : 0), membership.tierFloor)?.name ?? null;
  }

  return {
    entry: {
      membershipId: membership.id,
      customerId: membership.customerId,
      programId: membership.programId,
      merchantId: movement.merchantId,
      kind: movement.kind,
      source: movement.source,
      points: movement.points,
      stamps: movement.stamps,
      amountCents: movement.amountCents,
      reason: movement.reason,
      reversesId: movement.reversesId,
      balanceAfter: balance,
      stampsAfter: stamps,
      expiresOn: entryExpiry,
      idempotencyKey,
      createdBy: caller.id,
      createdByLabel: caller.label,
      createdAt: now,
    },
    lots,
    takes,
    membership: { id: membership.id, balance, stamps, tier, lastActivityAt: now },
    audit: {
      actorId: caller.audit.id,
      actorEmail: caller.audit.email,
      requestId: caller.audit.requestId ?? null,
      ip: caller.audit.ip ?? null,
      action: `ledger.${movement.kind}`,
      after: { points: movement.points, stamps: movement.stamps, membershipId: membership.id, reversesId: movement.reversesId },
    },
    // A tier change is history the customer page shows (membership "tierChanges").
    ...(tier !== membership.tier ? { tierChange: { from: membership.tier, to: tier } } : {}),
    ...(idempotency ? { idempotency } : {}),
  };
}

export async function loadWriteContext(tx: Executor, input: { customerId: string; programId: string; merchantId?: string | undefined }) {
  const program = await repo.findProgramRules(tx, input.programId);
  if (!program) throw fieldError('programId');
  if (program.status !== 'active') throw conflictText('program_not_active');
  const customerStatus = await repo.findCustomerStatus(tx, input.customerId);
  if (customerStatus === null) throw fieldError('customerId');
  if (customerStatus !== 'active') throw conflictText('customer_not_active');
  if (input.merchantId && !(await repo.isMerchantOfProgram(tx, input.merchantId, input.programId))) {
    throw fieldError('merchantId');
  }
  return program;
}

/**
 * Locks the membership and checks the request's program, customer and merchant. The usual case (the
 * member exists) takes one round trip; a first earning, or an unknown id, takes the long way, which
 * says exactly which field is wrong.
 *
 * Also for other modules that pay or take points inside their OWN transaction (rewards: a redemption
 * and its voucher; social proofs: an approval and its bonus): the caller may then count what it must
 * under that lock (per-customer limits, monthly caps) and call `applyToLockedMember` once. Lock order,
 * as everywhere: membership first, then the caller's rows.
 */
export async function lockMember(
  tx: Executor,
  deps: LedgerDeps,
  input: { customerId: string; programId: string; merchantId?: string | undefined },
): Promise<{ program: repo.ProgramRules; membership: repo.MembershipRow }> {
  return lockedMemberOf(tx, deps, input, await repo.lockMembershipWithContext(tx, input));
}

/** An existing member of an active program, an active customer, a merchant of the program (or none). */
export function isUsualCase(known: repo.MemberContext): boolean {
  return known.program.status === 'active' && known.customerStatus === 'active' && known.isMerchantOfProgram;
}

/** The usual case as it is (`known` says all is well), else the long way, which says what is wrong. */
export async function lockedMemberOf(
  tx: Executor,
  deps: LedgerDeps,
  input: { customerId: string; programId: string; merchantId?: string | undefined },
  known: repo.MemberContext | null,
): Promise<{ program: repo.ProgramRules; membership: repo.MembershipRow; isUsualCase: boolean }> {
  if (known && isUsualCase(known)) {
    return { program: known.program, membership: known.membership, isUsualCase: true };
  }
  const program = await loadWriteContext(tx, input);
  const membership = known?.membership ?? (await repo.lockMembership(tx, input.customerId, input.programId, deps.clock.now()));
  return { program, membership, isUsualCase: false };
}

export function multiplierOf(program: repo.ProgramRules, tier: string | null): number {
  return program.tiers.find((t) => t.name === tier)?.multiplier ?? 1;
}

/** Decides a staff request's movement from the program's rules (the membership is locked). */
export async function movementFor(
  tx: Executor,
  deps: LedgerDeps,
  program: repo.ProgramRules,
  membership: repo.MembershipRow,
  input: CreateLedgerEntry,
  history?: repo.MemberHistory,
): Promise<Movement> {
  const base = { amountCents: null, reason: input.reason ?? null, merchantId: input.merchantId ?? null, reversesId: null };
  const isStamps = program.type === 'stamps';
  switch (input.kind) {
    case 'purchase': {
      if (isStamps) {
        if (input.points !== undefined) throw fieldError('points');
        const earnedToday =
          history?.stampsToday ??
          (await repo.stampsEarnedSince(tx, membership.id, startOfLocalDay(localDate(deps.clock.now(), deps.timeZone), deps.timeZone)));
        const stamps = stampsForPurchase({
          requested: input.stamps ?? 1,
          maxPerTransaction: program.maxStampsPerTransaction,
          maxPerDay: program.maxStampsPerDay,
          earnedToday,
        });
        return { ...base, kind: 'earn', source: 'purchase', points: 0, stamps, amountCents: input.amountCents ?? null };
      }
      if (input.stamps !== undefined) throw fieldError('stamps');
      const points = pointsForPurchase({
        amountCents: input.amountCents!,
        pointsPerEuro: program.pointsPerEuro ?? '0',
        minSpendCents: program.minSpendCents,
        multiplier: multiplierOf(program, membership.tier),
      });
      // A purchase earns no more than a request may move (issue 30: 1,000 points per euro × a tier's
      // 10 × a large amount would otherwise pass the 32-bit columns and answer 500).
      if (points > LEDGER_BOUNDS.pointsMax) throw fieldError('amountCents');
      return { ...base, kind: 'earn', source: 'purchase', points, stamps: 0, amountCents: input.amountCents! };
    }
    case 'redeem':
    case 'bonus': {
      const sign = input.kind === 'redeem' ? -1 : 1;
      if (isStamps) {
        if (input.points !== undefined) throw fieldError('points');
        if (input.stamps === undefined) throw fieldError('stamps', 'required');
        return { ...base, kind: input.kind === 'redeem' ? 'redeem' : 'earn', source: input.kind === 'redeem' ? 'manual' : 'bonus', points: 0, stamps: sign * input.stamps };
      }
      if (input.stamps !== undefined) throw fieldError('stamps');
      if (input.points === undefined) throw fieldError('points', 'required');
      return { ...base, kind: input.kind === 'redeem' ? 'redeem' : 'earn', source: input.kind === 'redeem' ? 'manual' : 'bonus', points: sign * input.points, stamps: 0 };
    }
    case 'adjust': {
      if (isStamps && input.points) throw fieldError('points');
      if (!isStamps && input.stamps) throw fieldError('stamps');
      return { ...base, kind: 'adjust', source: 'manual', points: input.points ?? 0, stamps: input.stamps ?? 0 };
    }
  }
}


import { type CreateLedgerEntry, type CustomerMemberships, type LedgerEntry, type Membership, type LedgerPage, type LedgerWriteResult, type ListLedgerQuery } from '@sf/contract/ledger';
import type { Database, Executor, Transaction } from '../../db/client.ts';
import { SYSTEM_ACTOR, type AuditActor } from '../../lib/audit.ts';
import type { ActingCaller, ServiceDeps } from '../../lib/caller.ts';
import { AppError, fieldError, notFound, validationFailed } from '../../lib/errors.ts';
import * as repo from './ledger.repository.ts';
import * as upkeepRepo from './ledger-upkeep.repository.ts';
import * as listsRepo from './ledger-lists.repository.ts';
import * as namesRepo from './ledger-names.repository.ts';
// A cycle (rewards uses the ledger's lockMember/applyToLockedMember): only functions cross it, at call time.
import { releaseRedemption } from '../rewards/rewards.service.ts';
import { ledgerTotals } from '../dashboard/dashboard.service.ts';
import { staffNames } from '../staff/staff-admin.service.ts';
import { SYSTEM_ACTOR_EMAIL } from '@sf/contract/audit';
import { claimKeyStatement, lockIdOf, requestHash, retryingTwinCommits, runIdempotent, storedAnswerOf, type IdempotentRequest, type StoredAnswer } from '../../lib/idempotency.ts';
import { batchedTransaction, supportsBatches } from '../../db/batch.ts';
import type { BoundStatement } from '../../db/statement-shape.ts';
import { settle, RequestGroups, type Settled } from '../../db/request-groups.ts';
import { expiryDate, tierWindowStart } from './ledger.rules.ts';
import { addDays, localDate, startOfLocalDay } from '../../lib/business-days.ts';
import { alreadyReversed, applyMovement, conflictText, isUsualCase, lockMember, lockedMemberOf, movementFor, notFoundEntry, planMovement, type Movement } from './ledger.movements.ts';

// The front door for other modules (rewards, social proofs) that lock a member before their own write.
export { lockMember };

/** The ledger's services take the common ServiceDeps (lib/caller.ts). */
export type LedgerDeps = ServiceDeps;

/** Who writes: a staff member (id + e-mail for the entry's "created by"), or the system. */
export type LedgerCaller = ActingCaller;

const IDEMPOTENCY_SCOPE = 'admin-ledger';

/**
 * A caller whose account the guard has not read yet (decision 028): `check` leads the request's first
 * batch, in the write's own transaction, and `settle` decides from its rows (the guard's 401 or 403,
 * or who writes) before anything else of the request is looked at.
 */
export type DeferredCaller = { check: BoundStatement; settle(rows: Record<string, unknown>[]): LedgerCaller };
export type EntryCaller = LedgerCaller | DeferredCaller;
const isDeferred = (caller: EntryCaller): caller is DeferredCaller => 'check' in caller;

/** A request to `createEntry`, as a write group holds it. */
type EntryRequest = { caller: EntryCaller; input: CreateLedgerEntry; idempotencyKey: string; request: IdempotentRequest };
export type EntryAnswer = { status: number; body: unknown; isReplay: boolean };

/**
 * The first batch's statements for one request: the caller's account check when it is still to run,
 * then claim, lock and history (see `createEntryAlone`).
 */
function firstBatchOf(entry: EntryRequest, since: repo.HistorySince) {
  const { caller, input, request } = entry;
  const consumesLots = input.kind === 'redeem' || (input.kind === 'adjust' && (input.points ?? 0) < 0);
  // A twin in flight or a stored answer: neither the member nor its lots get locked.
  const claimed = { lockId: lockIdOf(request.scope, request.key), scope: request.scope, key: request.key };
  return [
    ...(isDeferred(caller) ? [caller.check] : []),
    claimKeyStatement(request, claimed.lockId),
    repo.lockMembershipWithContextStatement(input, claimed),
    repo.memberHistoryStatement(input, since, consumesLots, claimed),
  ];
}

/**
 * One request's rows of its first batch (as many as `firstBatchOf` sent, from `at`): who writes, the
 * account check settled first (its 401 or 403 throws), then the claim, lock and history rows.
 */
function readFirstBatch(entry: EntryRequest, rows: Record<string, unknown>[][], at = 0) {
  const { caller } = entry;
  const deferred = isDeferred(caller);
  const from = at + (deferred ? 1 : 0);
  const [claim, member, history] = rows.slice(from, from + 3);
  return { caller: deferred ? caller.settle(rows[at]!) : caller, claim: claim!, member: member!, history: history! };
}

function historySince(deps: LedgerDeps): repo.HistorySince {
  const now = deps.clock.now();
  return {
    rolling12: tierWindowStart('rolling12', now, deps.timeZone),
    calendarYear: tierWindowStart('calendarYear', now, deps.timeZone),
    today: startOfLocalDay(localDate(now, deps.timeZone), deps.timeZone),
  };
}

/** A stored answer as the first one was sent (`ledgerWrite` rows mapped again), flagged as a replay. */
function replayOf(stored: StoredAnswer): EntryAnswer {
  const written = repo.storedWriteResult(stored.body);
  const body = written ? { entry: written.entry, membership: repo.toMembership(written.membership) } : stored.body;
  return { status: stored.status, body, isReplay: true };
}

/**
 * `POST /api/admin/ledger`: 201 with `{ entry, membership }`, or the stored answer of its first send.
 *
 * On PostgreSQL, concurrent requests share transactions (`db/request-groups.ts`, decision 027): a
 * request that finds a slot free runs at once, alone (`createEntryAlone`); requests that arrive while
 * every slot is busy are written together by the next free one (`createEntriesTogether`). On PGlite
 * (one connection, in process) each runs alone.
 */
export async function createEntry(deps: LedgerDeps, caller: EntryCaller, input: CreateLedgerEntry, idempotencyKey: string): Promise<EntryAnswer> {
  const entry: EntryRequest = {
    caller,
    input,
    idempotencyKey,
    request: { scope: IDEMPOTENCY_SCOPE, key: idempotencyKey, hash: requestHash({ op: 'create', input }) },
  };
  const groups = writeGroupsOf(deps);
  if (!groups) return createEntryAlone(deps, entry);
  return groups.submit(entry, [`member:${input.customerId}:${input.programId}`, `key:${entry.request.scope}:${entry.request.key}`]);
}

/** Slots for groups of ledger writes: few, so that waiting requests gather (each holds a connection). */
const LEDGER_WRITE_SLOTS = 4;
const LEDGER_WRITE_GROUP_MAX = 32;
const ledgerRequestGroups = new WeakMap<Database, RequestGroups<EntryRequest, EntryAnswer>>();

/** The database's ledger write groups (one set per database handle), or null where writes run alone. */
export function writeGroupsOf(deps: LedgerDeps): RequestGroups<EntryRequest, EntryAnswer> | null {
  if (!supportsBatches(deps.db)) return null;
  let groups = ledgerRequestGroups.get(deps.db);
  if (!groups) {
    groups = new RequestGroups<EntryRequest, EntryAnswer>(
      (entries) => (entries.length === 1 ? settleEach([createEntryAlone(deps, entries[0]!)]) : createEntriesTogether(deps, entries)),
      { slots: LEDGER_WRITE_SLOTS, maxGroupSize: LEDGER_WRITE_GROUP_MAX },
    );
    ledgerRequestGroups.set(deps.db, groups);
  }
  return groups;
}

const settleEach = <T>(promises: Promise<T>[]) => Promise.all(promises.map((promise) => settle(promise)));

/**
 * A new entry names only an active merchant: a suspended or archived one keeps its history but takes no
 * new activity (as its API keys stop acting). `known` is the usual case's read, else it is looked up;
 * replays never get here (their stored answer stands).
 */
async function checkMerchantActive(tx: Executor, input: CreateLedgerEntry, known: repo.MemberContext | null): Promise<void> {
  if (!input.merchantId) return;
  const isActive = known ? known.isMerchantActive : (await repo.findMerchantStatus(tx, input.merchantId)) === 'active';
  if (!isActive) throw validationFailed([{ field: 'merchantId', text: 'merchant_not_active' }]);
}

/**
 * One request in its own transaction: three round trips on PostgreSQL with the request's sign-in check
 * (decision 026). One batch claims the idempotency key, locks the member with its program's rules,
 * then (a statement of its own, so it sees every write committed before the lock) reads what the
 * rules need from the member's past; the rules decide in TypeScript; one statement writes the entry,
 * lots, membership, audit records and the stored answer, sent with the commit. Replays, 409/422 and
 * the first earning (no membership yet) take the same guarantees.
 */
async function createEntryAlone(deps: LedgerDeps, entry: EntryRequest): Promise<EntryAnswer> {
  const { input, idempotencyKey, request } = entry;
  return retryingTwinCommits(() =>
    batchedTransaction(deps.db, async (transaction) => {
      const rows = await transaction.send(firstBatchOf(entry, historySince(deps)));
      const { caller, claim, member, history } = readFirstBatch(entry, rows);
      const stored = storedAnswerOf(claim[0], request);
      if (stored) return replayOf(stored);
      const tx = transaction.executor();
      const context = repo.toMemberContext(member[0]);
      const locked = await lockedMemberOf(tx, deps, input, context);
      await checkMerchantActive(tx, input, locked.isUsualCase ? context : null);
      // The history was read for an existing member, after its lock; the long way reads its own.
      const known = locked.isUsualCase ? (repo.toMemberHistory(history[0]) ?? undefined) : undefined;
      const movement = await movementFor(tx, deps, locked.program, locked.membership, input, known);
      const result = await applyMovement(tx, deps, caller, locked.membership, locked.program, movement, idempotencyKey, {
        history: known,
        batch: { transaction, idempotency: request },
      });
      return { status: 201, body: result as unknown, isReplay: false };
    }),
  );
}

/**
 * Several requests (distinct members, distinct keys) in ONE transaction, two round trips for all:
 * the claims, locks and history reads of every request, in the members' order (two groups lock the
 * members they share in the same order, so they cannot deadlock); then, the rules having decided each
 * request on its own, every write with the commit. A request's refusal (409, 422, 400) is its own.
 * A request that needs the long way (a first earning, an unknown or inactive id) runs alone once the
 * group has committed. If the group's transaction fails, nothing of it was written, and every request
 * runs again alone — the same key then replays what a commit may have stored before a lost answer.
 */
export async function createEntriesTogether(deps: LedgerDeps, entries: EntryRequest[]): Promise<Settled<EntryAnswer>[]> {
  const memberOrder = (entry: EntryRequest) => `${entry.input.customerId}\u0000${entry.input.programId}`;
  const order = entries.map((_, index) => index).sort((a, b) => (memberOrder(entries[a]!) < memberOrder(entries[b]!) ? -1 : 1));
  const outcomes: Settled<EntryAnswer>[] = new Array<Settled<EntryAnswer>>(entries.length);
  const alone: number[] = [];
  try {
    await batchedTransaction(deps.db, async (transaction) => {
      const since = historySince(deps);
      const batches = order.map((index) => firstBatchOf(entries[index]!, since));
      const read = await transaction.send(batches.flat());
      const tx = transaction.executor();
      const writes: { index: number; write: repo.MovementWrite }[] = [];
      let at = 0;
      for (const [position, index] of order.entries()) {
        const { input, idempotencyKey, request } = entries[index]!;
        const from = at;
        at += batches[position]!.length;
        try {
          const { caller, claim, member, history } = readFirstBatch(entries[index]!, read, from);
          const stored = storedAnswerOf(claim[0], request);
          if (stored) {
            outcomes[index] = { ok: true, value: replayOf(stored) };
            continue;
          }
          const known = repo.toMemberContext(member[0]);
          if (!known || !isUsualCase(known)) {
            alone.push(index);
            continue;
          }
          await checkMerchantActive(tx, input, known);
          const past = repo.toMemberHistory(history[0]) ?? undefined;
          const movement = await movementFor(tx, deps, known.program, known.membership, input, past);
          const write = await planMovement(tx, deps, caller, known.membership, known.program, movement, idempotencyKey, past, request);
          writes.push({ index, write });
        } catch (error) {
          // A refusal decided from what was read (the balance, a field, the guard's check): this
          // request's answer only.
          if (!(error instanceof AppError)) throw error;
          outcomes[index] = { ok: false, error };
        }
      }
      if (writes.length === 0) return;
      const written = await transaction.send(
        writes.map(({ write }) => repo.writeMovementStatement(write)),
        { commit: true },
      );
      writes.forEach(({ index }, position) => {
        const { entry, membership } = repo.toWriteResult(written[position]![0]!);
        const body: LedgerWriteResult = { entry, membership: repo.toMembership(membership) };
        outcomes[index] = { ok: true, value: { status: 201, body, isReplay: false } };
      });
    });
  } catch {
    // Nothing of the group stays (or, had the commit gone through before the connection failed, its
    // answers are stored): each request runs on its own, with its own retries and errors.
    return settleEach(entries.map((entry) => createEntryAlone(deps, entry)));
  }
  const later = await settleEach(alone.map((index) => createEntryAlone(deps, entries[index]!)));
  alone.forEach((index, position) => (outcomes[index] = later[position]!));
  return outcomes;
}

/**
 * Step 2: one `earn` or `redeem` entry on the membership locked by `lockMember`, through the same
 * checks as every ledger write (balance never below zero: 409 insufficient_balance; FIFO lots; tier;
 * audit). `idempotencyKey` is stored on the entry and is unique per `source`: a second write with the
 * same (source, key) fails with a unique violation, so derive it from what must happen once
 * (e.g. `proof:<id>`).
 */
export async function applyToLockedMember(
  tx: Executor,
  deps: LedgerDeps,
  caller: LedgerCaller,
  locked: { program: repo.ProgramRules; membership: repo.MembershipRow },
  movement: {
    kind: 'earn' | 'redeem';
    source: LedgerEntry['source'];
    points: number;
    stamps: number;
    reason: string | null;
    merchantId: string | null;
    idempotencyKey: string;
  },
): Promise<LedgerWriteResult> {
  const { idempotencyKey, ...rest } = movement;
  return applyMovement(tx, deps, caller, locked.membership, locked.program, { ...rest, amountCents: null, reversesId: null }, idempotencyKey);
}

/**
 * `POST /api/admin/ledger/:id/reversal`: a new entry with the opposite sign; one per entry. Reversing a
 * reward's redemption also voids its voucher and returns the stock (rewards' releaseRedemption).
 */
export async function reverseEntry(deps: LedgerDeps, caller: LedgerCaller, entryId: number, reason: string, idempotencyKey: string) {
  return runIdempotent(
    deps.db,
    { scope: IDEMPOTENCY_SCOPE, key: idempotencyKey, hash: requestHash({ op: 'reverse', entryId, reason }) },
    async (tx: Transaction) => {
      const target = await repo.findEntry(tx, entryId);
      if (!target) throw notFoundEntry();
      if (target.kind === 'reversal' || target.kind === 'expire') {
        throw conflictText('entry_final');
      }
      const membership = await repo.lockMembershipById(tx, target.membershipId);
      const program = await repo.findProgramRules(tx, target.programId);
      if (!membership || !program) throw notFoundEntry();
      // Checked after the lock: two reversals of one entry queue on the membership row.
      if (await repo.hasReversal(tx, entryId)) throw alreadyReversed();
      // A redemption's voucher is voided and its stock given back in this transaction (issue 30, M1);
      // a voucher already used refuses the reversal (409 redemption_voucher_used).
      if (target.kind === 'redeem' && target.source === 'reward') await releaseRedemption(tx, deps, caller, target);
      const movement: Movement = {
        kind: 'reversal',
        source: target.source,
        points: -target.points,
        stamps: -target.stamps,
        amountCents: null,
        reason,
        merchantId: target.merchantId,
        reversesId: target.id,
      };
      if (movement.points < 0) movement.preferLotsOf = target.id;
      if (movement.points > 0) {
        // Points given back keep the expiry day of the lots they were taken from.
        const takes = await repo.takesOf(tx, target.id);
        const covered = takes.reduce((sum, take) => sum + take.points, 0);
        const rest = movement.points - covered;
        movement.lots = [
          ...takes,
          ...(rest > 0
            ? [{ points: rest, expiresOn: expiryDate({ policy: program.expiryPolicy, days: program.expiryDays }, deps.clock.now(), deps.timeZone) }]
            : []),
        ];
      }
      const result = await applyMovement(tx, deps, caller, membership, program, movement, idempotencyKey);
      return { status: 201, body: result };
    },
  );
}

/**
 * A program's tiers or their window changed: its members take the tier the new rules give, now
 * (otherwise each would keep the old rules' tier until its next movement, and ledger:verify, which
 * holds every tier to its program's rules, would report them). In the caller's transaction, after
 * the program's row was locked; members' rows are locked by the update, in no particular order, as
 * a write locks one: no write holds a member and waits for a program.
 */
export async function retierMembers(tx: Executor, deps: LedgerDeps, programId: string, audit: AuditActor): Promise<number> {
  return upkeepRepo.retierProgram(tx, deps.timeZone, programId, {
    actorId: audit.id,
    actorEmail: audit.email,
    requestId: audit.requestId ?? null,
    ip: audit.ip ?? null,
  });
}

/**
 * A page of Movimenti with its total and the sums of its points and stamps. Where the dashboard's
 * rollups answer the filter (whole business days, no customer: the lists a dashboard figure links
 * to, and the whole ledger) they give the exact total and sums at once, however many entries match
 * (decision 032); otherwise one pass counts up to the cap, and beyond it the total says "at least".
 */
export async function listEntries(deps: LedgerDeps, query: ListLedgerQuery): Promise<LedgerPage> {
  const filters = filtersOf(query);
  const [entries, fromRollups] = await Promise.all([
    listsRepo.listEntries(deps.db, filters, { page: query.page, pageSize: query.pageSize, order: query.order }),
    ledgerTotals(deps, filters),
  ]);
  // The operator by name (staffNames, one query for the page); the system and API keys have no account.
  const names = await staffNames(deps.db, entries.map((entry) => entry.createdBy));
  const items = entries.map((entry) => ({ ...entry, createdByName: (entry.createdBy ? names.get(entry.createdBy) : undefined) ?? null }));
  const base = { items, page: query.page, pageSize: query.pageSize };
  if (fromRollups) return { ...base, total: fromRollups.total, totalIsCapped: false, sums: { points: fromRollups.points, stamps: fromRollups.stamps } };
  const counted = await listsRepo.countEntries(deps.db, filters);
  return { ...base, total: counted.total, totalIsCapped: counted.isCapped, sums: counted.isCapped ? null : counted.sums };
}

export function filtersOf(query: Omit<ListLedgerQuery, 'page' | 'pageSize'>): listsRepo.LedgerFilters {
  return {
    customerId: query.customerId,
    programId: query.programId,
    merchantId: query.merchantId,
    kind: query.kind,
    source: query.source,
    from: query.from ? new Date(query.from) : undefined,
    to: query.to ? new Date(query.to) : undefined,
  };
}

/** "Points expiring in the next 30 days" on the customer page. */
export const EXPIRING_SOON_DAYS = 30;

export async function customerMemberships(deps: LedgerDeps, customerId: string): Promise<CustomerMemberships> {
  if ((await repo.findCustomerStatus(deps.db, customerId)) === null) {
    throw notFound('customer');
  }
  const memberships = await listsRepo.membershipsOfCustomer(deps.db, customerId);
  const expiring = await listsRepo.expiringPoints(deps.db, memberships.map((m) => m.id));
  const tierChanges = await upkeepRepo.tierChanges(deps.db, memberships.map((m) => m.id));
  const now = deps.clock.now();
  const today = localDate(now, deps.timeZone);
  const horizon = addDays(today, EXPIRING_SOON_DAYS);
  const items = await Promise.all(
    memberships.map(async (m) => ({
      ...repo.toMembership(m),
      programName: m.programName,
      programType: m.programType,
      stampsRequired: m.stampsRequired,
      pointsInTierWindow: await repo.pointsEarnedSince(deps.db, m.id, tierWindowStart(m.tierWindow, now, deps.timeZone)),
      expiring: expiring.filter((e) => e.membershipId === m.id).map(({ points, expiresOn }) => ({ points, expiresOn })),
      expiringSoon: expiring
        .filter((e) => e.membershipId === m.id && e.expiresOn >= today && e.expiresOn <= horizon)
        .reduce((sum, e) => sum + e.points, 0),
      tierChanges: tierChanges.filter((c) => c.membershipId === m.id).map(({ from, to, at }) => ({ from, to, at })),
    })),
  );
  return { items };
}

/**
 * An erasure's part in the ledger (privacy requests, issue 30 M2), in the caller's transaction: the
 * free-text reasons of the customer's entries and of their stored answers become NULL. The figures
 * never change. Answers how many entries lost their reason.
 */
export async function eraseEntryTexts(tx: Transaction, customerId: string): Promise<number> {
  const entries = await upkeepRepo.blankFreeTextReasons(tx, customerId);
  await upkeepRepo.blankStoredReasons(tx, customerId, entries);
  return entries.length;
}

/**
 * Writes off the unspent rest of every lot whose last day is before today: one `expire` entry per
 * lot, once, even with several processes (the lot row is locked and re-read; the entry's
 * (source, idempotency key) is unique per lot).
 */
export async function expireDueLots(deps: LedgerDeps, options: { batch?: number } = {}): Promise<number> {
  const today = localDate(deps.clock.now(), deps.timeZone);
  const caller: LedgerCaller = { id: null, label: SYSTEM_ACTOR_EMAIL, audit: SYSTEM_ACTOR };
  let written = 0;
  for (;;) {
    const due = await upkeepRepo.dueLots(deps.db, today, options.batch ?? 200);
    if (due.length === 0) return written;
    let progressed = false;
    for (const lot of due) {
      const didWrite = await deps.db.transaction(async (tx) => {
        // Lock order as everywhere: membership, then lots.
        const membership = await repo.lockMembershipById(tx, lot.membershipId);
        const locked = await upkeepRepo.lockLot(tx, lot.id);
        if (!membership || !locked || locked.remaining <= 0) return false;
        const program = await repo.findProgramRules(tx, membership.programId);
        if (!program) return false;
        const movement: Movement = {
          kind: 'expire',
          source: 'system',
          points: -locked.remaining,
          stamps: 0,
          amountCents: null,
          reason: null,
          merchantId: null,
          reversesId: null,
          onlyLot: lot.id,
        };
        await applyMovement(tx, deps, caller, membership, program, movement, `expire:lot:${lot.id}`);
        return true;
      });
      if (didWrite) {
        written += 1;
        progressed = true;
      }
    }
    if (!progressed) return written;
  }
}

/**
 * An automatic bonus (referral, birthday) inside the caller's transaction: an `earn` entry of the
 * given source, idempotent by (source, idempotency key) like every other write. Only the background
 * jobs call it; they decide who gets what from the program's rules (modules/bonuses).
 */
export async function awardBonusInTransaction(
  tx: Transaction,
  deps: LedgerDeps,
  input: { customerId: string; programId: string; points: number; source: 'referral' | 'birthday'; reason: string; idempotencyKey: string },
): Promise<LedgerWriteResult | null> {
  if (input.points <= 0) return null;
  const program = await repo.findProgramRules(tx, input.programId);
  if (!program || program.status !== 'active' || program.type !== 'points') return null;
  if ((await repo.findCustomerStatus(tx, input.customerId)) !== 'active') return null;
  const membership = await repo.lockMembership(tx, input.customerId, input.programId, deps.clock.now());
  const caller: LedgerCaller = { id: null, label: SYSTEM_ACTOR_EMAIL, audit: SYSTEM_ACTOR };
  return applyMovement(
    tx,
    deps,
    caller,
    membership,
    program,
    { kind: 'earn', source: input.source, points: input.points, stamps: 0, amountCents: null, reason: input.reason, merchantId: null, reversesId: null },
    input.idempotencyKey,
  );
}

/**
 * A new customer joins the program chosen at their creation (decision 035), in the creation's own
 * transaction: the membership their first earning would otherwise make. 400 on `programId` when the
 * program is unknown or not active. Answers the membership.
 */
export async function enrolInTransaction(tx: Transaction, deps: LedgerDeps, customerId: string, programId: string): Promise<Membership> {
  await checkEnrollingProgram(tx, programId);
  return repo.toMembership(await repo.lockMembership(tx, customerId, programId, deps.clock.now()));
}

/** 400 on `programId` unless the program exists and is active: only an active program takes new members. */
export async function checkEnrollingProgram(executor: Executor, programId: string): Promise<void> {
  const program = await repo.findProgramRules(executor, programId);
  if (!program) throw fieldError('programId', 'notFound');
  if (program.status !== 'active') throw validationFailed([{ field: 'programId', text: 'enrolling_program_not_active' }]);
}

/** An import's batch of new customers joins its program, in the batch's transaction (once: a member is one row). */
export async function enrolManyInTransaction(tx: Executor, customerIds: string[], programId: string, now: Date): Promise<void> {
  if (customerIds.length > 0) await repo.insertMemberships(tx, customerIds, programId, now);
}

/** Whether the customer is a member of the program (a queued welcome whose membership is gone is not sent). */
export async function isMemberOf(executor: Executor, customerId: string, programId: string): Promise<boolean> {
  return repo.isMember(executor, customerId, programId);
}

/** Members of these programs with points expiring in the next `days` business days (from today), for the reminder e-mail. */
export async function membersWithPointsExpiring(deps: LedgerDeps, programIds: string[], days: number = EXPIRING_SOON_DAYS) {
  const today = localDate(deps.clock.now(), deps.timeZone);
  return listsRepo.membersWithPointsExpiring(deps.db, programIds, today, addDays(today, days));
}

/** For the audit list: these memberships' customer and program, in one query. */
export function membershipOwners(executor: Executor, ids: string[]) {
  return namesRepo.findMembershipOwners(executor, ids);
}

/** For the audit list: these entries' customer, program, points and stamps, in one query. */
export function entryOwners(executor: Executor, ids: number[]) {
  return namesRepo.findEntryOwners(executor, ids);
}

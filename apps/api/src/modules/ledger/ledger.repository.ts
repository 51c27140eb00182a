/**
 * The ledger's write path in SQL: program rules, the member's lock and context, the history a write
 * reads and the statement that writes a movement (about 570 lines: the batched statement shapes of
 * decisions 026-028 belong together; lists are ledger-lists.repository.ts, upkeep ledger-upkeep.repository.ts).
 */
import { sql, type Placeholder, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { StatementShape, shapesBy, type BoundStatement } from '../../db/statement-shape.ts';
import type { LedgerEntry, LedgerKind, LedgerSource, Membership } from '@sf/contract/ledger';

/**
 * The ledger's SQL. Raw SQL rather than the query builder where row locks, ON CONFLICT and
 * aggregates make the intent clearer. Every write function expects to run inside the caller's
 * transaction, after the membership row was locked (lockMembership).
 */

export type Row = Record<string, unknown>;

export async function rows<T = Row>(executor: Executor, query: SQLWrapper): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const toIso = (value: unknown): string => (value instanceof Date ? value : new Date(String(value))).toISOString();
export const toDateOrNull = (value: unknown): string | null => {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value).slice(0, 10);
};

export type ProgramRules = {
  id: string;
  name: string;
  type: 'points' | 'stamps';
  status: string;
  pointsPerEuro: string | null;
  minSpendCents: number | null;
  stampsRequired: number | null;
  maxStampsPerDay: number | null;
  maxStampsPerTransaction: number | null;
  tiers: { name: string; minPoints: number; multiplier: number }[];
  tierWindow: 'rolling12' | 'calendarYear';
  expiryPolicy: 'never' | 'afterDays' | 'endOfYear';
  expiryDays: number | null;
};

const PROGRAM_RULE_COLUMNS = sql`p.id, p.name, p.type, p.status, p.points_per_euro::text as points_per_euro, p.min_spend_cents,
  p.stamps_required, p.max_stamps_per_day, p.max_stamps_per_transaction, p.tiers, p.tier_window, p.expiry_policy, p.expiry_days`;

function toProgramRules(row: Row, prefix = ''): ProgramRules {
  const tiers = row[`${prefix}tiers`];
  return {
    id: String(row[`${prefix}id`]),
    name: String(row[`${prefix}name`]),
    type: row[`${prefix}type`] as ProgramRules['type'],
    status: String(row[`${prefix}status`]),
    pointsPerEuro: (row[`${prefix}points_per_euro`] as string | null) ?? null,
    minSpendCents: (row[`${prefix}min_spend_cents`] as number | null) ?? null,
    stampsRequired: (row[`${prefix}stamps_required`] as number | null) ?? null,
    maxStampsPerDay: (row[`${prefix}max_stamps_per_day`] as number | null) ?? null,
    maxStampsPerTransaction: (row[`${prefix}max_stamps_per_transaction`] as number | null) ?? null,
    tiers: (typeof tiers === 'string' ? JSON.parse(tiers) : tiers) as ProgramRules['tiers'],
    tierWindow: row[`${prefix}tier_window`] as ProgramRules['tierWindow'],
    expiryPolicy: row[`${prefix}expiry_policy`] as ProgramRules['expiryPolicy'],
    expiryDays: (row[`${prefix}expiry_days`] as number | null) ?? null,
  };
}

export async function findProgramRules(executor: Executor, programId: string): Promise<ProgramRules | null> {
  const [row] = await rows(executor, sql`select ${PROGRAM_RULE_COLUMNS} from programs p where p.id = ${programId}`);
  return row ? toProgramRules(row) : null;
}

export async function findCustomerStatus(executor: Executor, customerId: string): Promise<string | null> {
  const [row] = await rows(executor, sql`select status from customers where id = ${customerId}`);
  return row ? String(row['status']) : null;
}

/** The merchant's status, or null when there is no such merchant. */
export async function findMerchantStatus(executor: Executor, merchantId: string): Promise<string | null> {
  const [row] = await rows(executor, sql`select status from merchants where id = ${merchantId}`);
  return row ? String(row['status']) : null;
}

export async function isMerchantOfProgram(executor: Executor, merchantId: string, programId: string): Promise<boolean> {
  const [row] = await rows(
    executor,
    sql`select 1 as ok from program_merchants where program_id = ${programId} and merchant_id = ${merchantId}`,
  );
  return row !== undefined;
}

export type MembershipRow = {
  id: string;
  customerId: string;
  programId: string;
  balance: number;
  stamps: number;
  tier: string | null;
  tierFloor: string | null;
  joinedAt: Date;
  lastActivityAt: Date | null;
  version: number;
};

export function toMembershipRow(row: Row): MembershipRow {
  return {
    id: String(row['id']),
    customerId: String(row['customer_id']),
    programId: String(row['program_id']),
    balance: Number(row['balance']),
    stamps: Number(row['stamps']),
    tier: (row['tier'] as string | null) ?? null,
    tierFloor: (row['tier_floor'] as string | null) ?? null,
    joinedAt: new Date(String(row['joined_at'] instanceof Date ? (row['joined_at'] as Date).toISOString() : row['joined_at'])),
    lastActivityAt: row['last_activity_at'] ? new Date(toIso(row['last_activity_at'])) : null,
    version: Number(row['version']),
  };
}

export function toMembership(row: MembershipRow): Membership {
  return {
    id: row.id,
    customerId: row.customerId,
    programId: row.programId,
    balance: row.balance,
    stamps: row.stamps,
    tier: row.tier,
    tierFloor: row.tierFloor,
    joinedAt: row.joinedAt.toISOString(),
    lastActivityAt: row.lastActivityAt ? row.lastActivityAt.toISOString() : null,
    version: row.version,
  };
}

/**
 * Locks the member's row for the rest of the transaction (creating it on the first earning), so
 * that concurrent writes to one membership queue up and a balance can never be spent twice.
 */
export async function lockMembership(
  executor: Executor,
  customerId: string,
  programId: string,
  now: Date,
): Promise<MembershipRow> {
  const existing = await rows(
    executor,
    sql`select * from memberships where customer_id = ${customerId} and program_id = ${programId} for update`,
  );
  if (existing[0]) return toMembershipRow(existing[0]);
  await executor.execute(
    sql`insert into memberships (customer_id, program_id, joined_at) values (${customerId}, ${programId}, ${now})
        on conflict (customer_id, program_id) do nothing`,
  );
  const [row] = await rows(
    executor,
    sql`select * from memberships where customer_id = ${customerId} and program_id = ${programId} for update`,
  );
  return toMembershipRow(row!);
}

/** Memberships for many customers of one program at once (an import's batch); an existing one stays as it is. */
export async function insertMemberships(executor: Executor, customerIds: string[], programId: string, now: Date): Promise<void> {
  await executor.execute(
    sql`insert into memberships (customer_id, program_id, joined_at)
        select c.id, ${programId}, ${now} from unnest(array[${sql.join(
          customerIds.map((id) => sql`${id}`),
          sql`, `,
        )}]::uuid[]) as c(id)
        on conflict (customer_id, program_id) do nothing`,
  );
}

export async function isMember(executor: Executor, customerId: string, programId: string): Promise<boolean> {
  const [row] = await rows(executor, sql`select 1 as ok from memberships where customer_id = ${customerId} and program_id = ${programId}`);
  return row !== undefined;
}

/**
 * The common write's first step in one round trip: locks an EXISTING membership and reads, with it,
 * its program's rules, the customer's status and whether the merchant belongs to the program.
 * Null when there is no membership yet (or the ids are unknown): the caller then takes the long way
 * (findProgramRules, findCustomerStatus, isMerchantOfProgram, lockMembership), which also says which
 * field is wrong. Same locks, in the same order, as the long way.
 */
export type KeyClaim = { lockId: string; scope: string; key: string };

/** "This transaction holds the key's lock (granted again at once) and no answer is stored under it." */
function keyClaimedCondition(isClaimed: boolean, p: (name: 'lockId' | 'claimScope' | 'claimKey') => Placeholder): SQL {
  return isClaimed
    ? sql`and pg_try_advisory_xact_lock(${p('lockId')}::bigint)
          and not exists (select 1 from idempotency_records where scope = ${p('claimScope')} and key = ${p('claimKey')})`
    : sql``;
}

/** The claim's values for a shape's `keyClaimedCondition` (none when the shape has no claim). */
const claimValues = (claim: KeyClaim | undefined) =>
  claim ? { lockId: claim.lockId, claimScope: claim.scope, claimKey: claim.key } : { lockId: null, claimScope: null, claimKey: null };

type ClaimNames = 'lockId' | 'claimScope' | 'claimKey';

/** `isMerchantActive`: the merchant named (true when none), active — a new entry names only an active one. */
export type MemberContext = { membership: MembershipRow; program: ProgramRules; customerStatus: string; isMerchantOfProgram: boolean; isMerchantActive: boolean };

/**
 * The statement of `lockMembershipWithContext`. With `onlyIfKeyClaimed`, the row is locked only when
 * this transaction holds the idempotency key's lock and no answer is stored under it yet (a batched
 * write asks both in one round trip, and a twin in flight or a replay must not queue on the member).
 */
export function lockMembershipWithContextStatement(
  input: { customerId: string; programId: string; merchantId?: string | undefined },
  onlyIfKeyClaimed?: KeyClaim,
): BoundStatement {
  const merchantId = input.merchantId ?? null;
  return lockShapes(merchantId !== null, onlyIfKeyClaimed !== undefined).with({
    customerId: input.customerId,
    programId: input.programId,
    merchantId,
    ...claimValues(onlyIfKeyClaimed),
  });
}

const lockShapes = shapesBy((hasMerchant: boolean, isClaimed: boolean) => {
  return new StatementShape<'customerId' | 'programId' | 'merchantId' | ClaimNames>(
    (p) => sql`select m.*, c.status as customer_status,
          ${hasMerchant ? sql`exists (select 1 from program_merchants pm where pm.program_id = m.program_id and pm.merchant_id = ${p('merchantId')})` : sql`true`} as is_merchant_of_program,
          ${hasMerchant ? sql`exists (select 1 from merchants mm where mm.id = ${p('merchantId')} and mm.status = 'active')` : sql`true`} as is_merchant_active,
          p.id as p_id, p.name as p_name, p.type as p_type, p.status as p_status, p.points_per_euro::text as p_points_per_euro,
          p.min_spend_cents as p_min_spend_cents, p.stamps_required as p_stamps_required, p.max_stamps_per_day as p_max_stamps_per_day,
          p.max_stamps_per_transaction as p_max_stamps_per_transaction, p.tiers as p_tiers, p.tier_window as p_tier_window,
          p.expiry_policy as p_expiry_policy, p.expiry_days as p_expiry_days
        from memberships m
        join programs p on p.id = m.program_id
        join customers c on c.id = m.customer_id
        where m.customer_id = ${p('customerId')} and m.program_id = ${p('programId')} ${keyClaimedCondition(isClaimed, p)}
        for update of m`,
  );
});

export function toMemberContext(row: Row | undefined): MemberContext | null {
  if (!row) return null;
  return {
    membership: toMembershipRow(row),
    program: toProgramRules(row, 'p_'),
    customerStatus: String(row['customer_status']),
    isMerchantOfProgram: row['is_merchant_of_program'] === true,
    isMerchantActive: row['is_merchant_active'] === true,
  };
}

/**
 * The common write's first step in one round trip: locks an EXISTING membership and reads, with it,
 * its program's rules, the customer's status and whether the merchant belongs to the program.
 * Null when there is no membership yet (or the ids are unknown): the caller then takes the long way
 * (findProgramRules, findCustomerStatus, isMerchantOfProgram, lockMembership), which also says which
 * field is wrong. Same locks, in the same order, as the long way.
 */
export async function lockMembershipWithContext(
  executor: Executor,
  input: { customerId: string; programId: string; merchantId?: string | undefined },
): Promise<MemberContext | null> {
  const [row] = await rows(executor, lockMembershipWithContextStatement(input));
  return toMemberContext(row);
}

/**
 * What the rules need to know about a member's past, for a write that has just locked the member (it
 * must run AFTER the lock, as its own statement, to see every write committed before the lock): the
 * points earned in the tier window (both windows' starts are given; the program's own is used) and the
 * stamps earned by purchases today; with `withOpenLots`, the open lots, oldest first, locked.
 */
export type HistorySince = { rolling12: Date; calendarYear: Date; today: Date };

export function memberHistoryStatement(
  input: { customerId: string; programId: string },
  since: HistorySince,
  withOpenLots: boolean,
  onlyIfKeyClaimed?: KeyClaim,
): BoundStatement {
  return historyShapes(withOpenLots, onlyIfKeyClaimed !== undefined).with({
    customerId: input.customerId,
    programId: input.programId,
    today: since.today,
    calendarYear: since.calendarYear,
    rolling12: since.rolling12,
    ...claimValues(onlyIfKeyClaimed),
  });
}

const historyShapes = shapesBy((withOpenLots: boolean, isClaimed: boolean) => {
  // Each sum only where the program's rules use it; both are paid under the member's lock.
  return new StatementShape<'customerId' | 'programId' | 'today' | 'calendarYear' | 'rolling12' | ClaimNames>(
    (p) => sql`select
      case when jsonb_array_length(p.tiers) > 0 then ${pointsEarnedSinceSql(sql`m.id`, sql`w.tier_start`)} else 0 end as earned_in_window,
      case when p.type = 'stamps' and p.max_stamps_per_day is not null
        then ${purchaseStampsSinceSql(sql`m.id`, sql`${p('today')}::timestamptz`)} else 0 end as stamps_today,
      ${withOpenLots
        ? sql`(select coalesce(json_agg(json_build_object('id', l.id, 'remaining', l.remaining) order by l.id), '[]'::json)
              from (select id, remaining from ledger_lots where membership_id = m.id and remaining > 0 order by id for update) l)`
        : sql`null`} as open_lots
    from memberships m join programs p on p.id = m.program_id
    cross join lateral (select case when p.tier_window = 'calendarYear' then ${p('calendarYear')}::timestamptz
      else ${p('rolling12')}::timestamptz end as tier_start) w
    where m.customer_id = ${p('customerId')} and m.program_id = ${p('programId')} ${keyClaimedCondition(isClaimed, p)}`,
  );
});

export type MemberHistory = { earnedInWindow: number; stampsToday: number; openLots: LotRow[] | null };

export function toMemberHistory(row: Row | undefined): MemberHistory | null {
  if (!row) return null;
  const lots = row['open_lots'];
  const parsed = (typeof lots === 'string' ? JSON.parse(lots) : lots) as { id: number; remaining: number }[] | null;
  return {
    earnedInWindow: Number(row['earned_in_window']),
    stampsToday: Number(row['stamps_today']),
    openLots: parsed ? parsed.map((lot) => ({ id: Number(lot.id), remaining: Number(lot.remaining), expiresOn: null })) : null,
  };
}

export async function lockMembershipById(executor: Executor, membershipId: string): Promise<MembershipRow | null> {
  const [row] = await rows(executor, sql`select * from memberships where id = ${membershipId} for update`);
  return row ? toMembershipRow(row) : null;
}

export type NewEntry = {
  membershipId: string;
  customerId: string;
  programId: string;
  merchantId: string | null;
  kind: LedgerKind;
  source: LedgerSource;
  points: number;
  stamps: number;
  amountCents: number | null;
  reason: string | null;
  reversesId: number | null;
  balanceAfter: number;
  stampsAfter: number;
  expiresOn: string | null;
  idempotencyKey: string | null;
  createdBy: string | null;
  createdByLabel: string;
  createdAt: Date;
};

export const ENTRY_COLUMNS = sql`e.id, e.membership_id, e.customer_id, e.program_id, e.merchant_id, e.kind, e.source, e.points,
  e.stamps, e.amount_cents, e.reason, e.reverses_id, e.balance_after, e.stamps_after, e.expires_on::text as expires_on,
  e.created_by, e.created_by_label, e.created_at,
  (select r.id from ledger_entries r where r.reverses_id = e.id) as reversed_by_id`;

export function toLedgerEntry(row: Row): LedgerEntry {
  const nullableNumber = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return {
    id: Number(row['id']),
    membershipId: String(row['membership_id']),
    customerId: String(row['customer_id']),
    programId: String(row['program_id']),
    merchantId: (row['merchant_id'] as string | null) ?? null,
    kind: row['kind'] as LedgerKind,
    source: row['source'] as LedgerSource,
    points: Number(row['points']),
    stamps: Number(row['stamps']),
    amountCents: nullableNumber(row['amount_cents']),
    reason: (row['reason'] as string | null) ?? null,
    reversesId: nullableNumber(row['reverses_id']),
    reversedById: nullableNumber(row['reversed_by_id']),
    balanceAfter: Number(row['balance_after']),
    stampsAfter: Number(row['stamps_after']),
    expiresOn: toDateOrNull(row['expires_on']),
    createdBy: (row['created_by'] as string | null) ?? null,
    createdByLabel: String(row['created_by_label']),
    createdAt: toIso(row['created_at']),
  };
}

/**
 * Writes one movement in ONE statement (data-modifying CTEs, each run exactly once): the entry, its
 * new FIFO lots or its takes from open lots, the membership's new figures and the audit record (B5).
 * One round trip instead of five or more: the membership row stays locked for less time, which is
 * what bounds the writes to one hot member. Runs inside the caller's transaction, after the lock.
 */
export type MovementWrite = {
  entry: NewEntry;
  /** Lots the entry creates (gains). */
  lots: { points: number; expiresOn: string | null }[];
  /** Points the entry takes from open lots (consumption), already decided (FIFO). */
  takes: { lotId: number; take: number }[];
  membership: { id: string; balance: number; stamps: number; tier: string | null; lastActivityAt: Date };
  audit: { actorId: string | null; actorEmail: string | null; requestId: string | null; ip: string | null; action: string; after: unknown };
  /** The member's tier changes with this entry: also the `membership.tier` audit record. */
  tierChange?: { from: string | null; to: string | null };
  /**
   * Store the answer under this idempotency key in the same statement (the batched write); the
   * stored body holds the written rows (`ledgerWrite`), which `toWriteResult` maps like the first answer.
   */
  idempotency?: { scope: string; key: string; hash: string };
};

/**
 * Writes one movement in ONE statement (data-modifying CTEs, each run exactly once): the entry, its
 * new FIFO lots or its takes from open lots, the membership's new figures and the audit record (B5),
 * the tier change's audit record and the idempotency answer when asked. One round trip instead of
 * five or more: the membership row stays locked for less time, which is what bounds the writes to one
 * hot member. Runs inside the caller's transaction, after the lock.
 */
export function writeMovementStatement(movement: MovementWrite): BoundStatement {
  const { entry, membership, audit, tierChange, idempotency } = movement;
  return writeShapes(tierChange !== undefined, idempotency !== undefined).with({
    membershipId: entry.membershipId,
    customerId: entry.customerId,
    programId: entry.programId,
    merchantId: entry.merchantId,
    kind: entry.kind,
    source: entry.source,
    points: entry.points,
    stamps: entry.stamps,
    amountCents: entry.amountCents,
    reason: entry.reason,
    reversesId: entry.reversesId,
    balanceAfter: entry.balanceAfter,
    stampsAfter: entry.stampsAfter,
    expiresOn: entry.expiresOn,
    idempotencyKey: entry.idempotencyKey,
    createdBy: entry.createdBy,
    createdByLabel: entry.createdByLabel,
    createdAt: entry.createdAt,
    lots: JSON.stringify(movement.lots),
    takes: JSON.stringify(movement.takes),
    balance: membership.balance,
    memberStamps: membership.stamps,
    tier: membership.tier,
    lastActivityAt: membership.lastActivityAt,
    actorId: audit.actorId,
    actorEmail: audit.actorEmail,
    action: audit.action,
    auditAfter: JSON.stringify(audit.after),
    requestId: audit.requestId,
    ip: audit.ip,
    tierFrom: tierChange?.from ?? null,
    tierTo: tierChange?.to ?? null,
    answerScope: idempotency?.scope ?? null,
    answerKey: idempotency?.key ?? null,
    answerHash: idempotency?.hash ?? null,
  });
}

type WriteNames =
  | 'membershipId' | 'customerId' | 'programId' | 'merchantId' | 'kind' | 'source' | 'points' | 'stamps' | 'amountCents'
  | 'reason' | 'reversesId' | 'balanceAfter' | 'stampsAfter' | 'expiresOn' | 'idempotencyKey' | 'createdBy'
  | 'createdByLabel' | 'createdAt' | 'lots' | 'takes' | 'balance' | 'memberStamps' | 'tier' | 'lastActivityAt'
  | 'actorId' | 'actorEmail' | 'action' | 'auditAfter' | 'requestId' | 'ip' | 'tierFrom' | 'tierTo'
  | 'answerScope' | 'answerKey' | 'answerHash';

const writeShapes = shapesBy((hasTierChange: boolean, storesAnswer: boolean) => {
  return new StatementShape<WriteNames>(
    (p) => sql`with entry as (
          insert into ledger_entries (membership_id, customer_id, program_id, merchant_id, kind, source, points, stamps,
            amount_cents, reason, reverses_id, balance_after, stamps_after, expires_on, idempotency_key, created_by,
            created_by_label, created_at)
          values (${p('membershipId')}, ${p('customerId')}, ${p('programId')}, ${p('merchantId')}, ${p('kind')},
            ${p('source')}, ${p('points')}, ${p('stamps')}, ${p('amountCents')}, ${p('reason')}, ${p('reversesId')},
            ${p('balanceAfter')}, ${p('stampsAfter')}, ${p('expiresOn')}, ${p('idempotencyKey')}, ${p('createdBy')},
            ${p('createdByLabel')}, ${p('createdAt')})
          returning id, membership_id, customer_id, program_id, merchant_id, kind, source, points, stamps, amount_cents,
            reason, reverses_id, balance_after, stamps_after, expires_on::text as expires_on, created_by, created_by_label,
            created_at),
        new_lots as (
          insert into ledger_lots (entry_id, membership_id, points, remaining, expires_on)
          select entry.id, entry.membership_id, lot.points, lot.points, lot."expiresOn"
          from entry, json_to_recordset(${p('lots')}::json) as lot(points int, "expiresOn" date)
          where lot.points > 0),
        taken as (
          update ledger_lots l set remaining = l.remaining - t.take
          from json_to_recordset(${p('takes')}::json) as t("lotId" bigint, take int)
          where l.id = t."lotId"),
        takes as (
          insert into ledger_lot_takes (entry_id, lot_id, points)
          select entry.id, t."lotId", t.take from entry, json_to_recordset(${p('takes')}::json) as t("lotId" bigint, take int)),
        updated as (
          update memberships set balance = ${p('balance')}, stamps = ${p('memberStamps')}, tier = ${p('tier')},
            last_activity_at = ${p('lastActivityAt')}, version = version + 1
          where id = ${p('membershipId')}
          returning *),
        audited as (
          insert into audit_log (actor_id, actor_email, action, entity_type, entity_id, after, request_id, ip)
          select ${p('actorId')}, ${p('actorEmail')}, ${p('action')}, 'ledger_entry', entry.id::text,
            ${p('auditAfter')}::jsonb, ${p('requestId')}, ${p('ip')}
          from entry)${hasTierChange
            ? sql`,
        tier_audited as (
          insert into audit_log (actor_id, actor_email, action, entity_type, entity_id, before, after, request_id, ip)
          select ${p('actorId')}, ${p('actorEmail')}, 'membership.tier', 'membership', ${p('membershipId')},
            jsonb_build_object('tier', ${p('tierFrom')}::text), jsonb_build_object('tier', ${p('tierTo')}::text, 'entryId', entry.id),
            ${p('requestId')}, ${p('ip')}
          from entry)`
            : sql``}${storesAnswer
            ? sql`,
        answered as (
          insert into idempotency_records (scope, key, request_hash, response_status, response_body)
          select ${p('answerScope')}, ${p('answerKey')}, ${p('answerHash')}, 201,
            jsonb_build_object('ledgerWrite', jsonb_build_object('entry', to_jsonb(entry.*), 'membership', to_jsonb(updated.*)))
          from entry, updated)`
            : sql``}
        select entry.*, null as reversed_by_id, row_to_json(updated.*) as membership from entry, updated`,
  );
});

/** The written rows (the statement's answer, or an answer stored by it) as the API's result. */
export function toWriteResult(row: Row): { entry: LedgerEntry; membership: MembershipRow } {
  const stored = row['membership'];
  return {
    // A new entry has no reversal yet.
    entry: toLedgerEntry({ ...row, reversed_by_id: null }),
    membership: toMembershipRow((typeof stored === 'string' ? JSON.parse(stored) : stored) as Row),
  };
}

/** An answer stored by `writeMovementStatement` (`ledgerWrite`), as the API's result; else null. */
export function storedWriteResult(body: unknown): { entry: LedgerEntry; membership: MembershipRow } | null {
  const written = (body as { ledgerWrite?: { entry: Row; membership: Row } } | null)?.ledgerWrite;
  return written ? toWriteResult({ ...written.entry, membership: written.membership }) : null;
}

export async function writeMovement(executor: Executor, movement: MovementWrite): Promise<{ entry: LedgerEntry; membership: MembershipRow }> {
  const [row] = await rows(executor, writeMovementStatement(movement));
  return toWriteResult(row!);
}

export async function findEntry(executor: Executor, id: number): Promise<LedgerEntry | null> {
  const [row] = await rows(executor, sql`select ${ENTRY_COLUMNS} from ledger_entries e where e.id = ${id}`);
  return row ? toLedgerEntry(row) : null;
}

export async function hasReversal(executor: Executor, id: number): Promise<boolean> {
  const [row] = await rows(executor, sql`select 1 as ok from ledger_entries where reverses_id = ${id}`);
  return row !== undefined;
}

/**
 * A sum of the member's entries since an instant, read from its day sums (migration 0015): whole UTC
 * days after the instant's own day from `ledger_member_days`, that first, partial day from the entries.
 * The cost does not grow with the member's history.
 */
function sinceFromDaySums(membershipId: SQL, since: SQL, daySum: SQL, entrySum: SQL, entryFilter: SQL): SQL {
  return sql`(coalesce((select sum(d.${daySum}) from ledger_member_days d
      where d.membership_id = ${membershipId} and d.day > (${since} at time zone 'UTC')::date), 0)::int
    + (select coalesce(sum(e.${entrySum}), 0)::int from ledger_entries e
      where e.membership_id = ${membershipId} and e.created_at >= ${since}
        and e.created_at < (((${since} at time zone 'UTC')::date + 1)::timestamp at time zone 'UTC')
        and ${entryFilter}))`;
}

/** Points earned since an instant, net of the reversals of earnings: what tiers are computed from. */
const pointsEarnedSinceSql = (membershipId: SQL, since: SQL) =>
  sinceFromDaySums(membershipId, since, sql.raw('earned_points'), sql.raw('points'),
    sql`(e.kind = 'earn' or (e.kind = 'reversal' and e.source not in ('manual', 'system')))`);

/** Stamps earned by purchases since an instant (the stamps card's daily cap). */
const purchaseStampsSinceSql = (membershipId: SQL, since: SQL) =>
  sinceFromDaySums(membershipId, since, sql.raw('purchase_stamps'), sql.raw('stamps'), sql`e.kind = 'earn' and e.source = 'purchase'`);

/** Stamps earned by purchases since `since` (the start of today in the business time zone). */
export async function stampsEarnedSince(executor: Executor, membershipId: string, since: Date): Promise<number> {
  const [row] = await rows(executor, sql`select ${purchaseStampsSinceSql(sql`${membershipId}::uuid`, sql`${since}::timestamptz`)} as total`);
  return Number(row?.['total'] ?? 0);
}

/** Points earned since `since`, net of the reversals of earnings: what tiers are computed from. */
export async function pointsEarnedSince(executor: Executor, membershipId: string, since: Date): Promise<number> {
  const [row] = await rows(executor, sql`select ${pointsEarnedSinceSql(sql`${membershipId}::uuid`, sql`${since}::timestamptz`)} as total`);
  return Number(row?.['total'] ?? 0);
}

export type LotRow = { id: number; remaining: number; expiresOn: string | null };

/** Open lots, oldest first (optionally one entry's own lots first, for the reversal of an earning). */
export async function openLots(executor: Executor, membershipId: string, preferEntryId?: number): Promise<LotRow[]> {
  const prefer = preferEntryId ?? 0;
  const result = await rows(
    executor,
    sql`select id, remaining, expires_on::text as expires_on from ledger_lots
        where membership_id = ${membershipId} and remaining > 0
        order by (entry_id = ${prefer}) desc, id
        for update`,
  );
  return result.map((row) => ({ id: Number(row['id']), remaining: Number(row['remaining']), expiresOn: toDateOrNull(row['expires_on']) }));
}

/** What a consuming entry took, with each lot's expiry day: its reversal gives the points back so. */
export async function takesOf(executor: Executor, entryId: number): Promise<{ points: number; expiresOn: string | null }[]> {
  const result = await rows(
    executor,
    sql`select t.points, l.expires_on::text as expires_on from ledger_lot_takes t join ledger_lots l on l.id = t.lot_id
        where t.entry_id = ${entryId} order by l.id`,
  );
  return result.map((row) => ({ points: Number(row['points']), expiresOn: toDateOrNull(row['expires_on']) }));
}


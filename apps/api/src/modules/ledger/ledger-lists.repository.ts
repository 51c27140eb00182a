import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { LedgerKind, LedgerSource, LedgerSystemReason, LedgerSystemReasonKind } from '@sf/contract/ledger';
import type { ProofKind } from '@sf/contract/social-proofs';
import { ENTRY_COLUMNS, rows, toDateOrNull, toLedgerEntry, toMembershipRow, type Row } from './ledger.repository.ts';

/**
 * The ledger's reads for lists and the customer page (split out of ledger.repository.ts, issue 26;
 * moved unchanged): Movimenti's filters, page and capped count, a customer's memberships and their
 * expiring points and tier changes.
 */
export type LedgerFilters = {
  customerId?: string | undefined;
  programId?: string | undefined;
  merchantId?: string | undefined;
  kind?: LedgerKind | undefined;
  source?: LedgerSource | undefined;
  from?: Date | undefined;
  /** Inclusive, to the millisecond (an entry at 23:59:59.9995 belongs to 23:59:59.999). */
  to?: Date | undefined;
};

export function whereOf(filters: LedgerFilters): SQL {
  const conditions: SQL[] = [sql`true`];
  if (filters.customerId) conditions.push(sql`e.customer_id = ${filters.customerId}`);
  if (filters.programId) conditions.push(sql`e.program_id = ${filters.programId}`);
  if (filters.merchantId) conditions.push(sql`e.merchant_id = ${filters.merchantId}`);
  if (filters.kind) conditions.push(sql`e.kind = ${filters.kind}`);
  if (filters.source) conditions.push(sql`e.source = ${filters.source}`);
  if (filters.from) conditions.push(sql`e.created_at >= ${filters.from}`);
  if (filters.to) conditions.push(sql`e.created_at < ${new Date(filters.to.getTime() + 1)}`);
  return sql.join(conditions, sql` and `);
}

/**
 * Counting ten million rows for a total costs seconds; past this many rows the total says "at least"
 * (the list still pages; a filter narrows it) unless the dashboard's rollups can answer it.
 */
export const LEDGER_COUNT_CAP = 100_000;

/** What `Scontrino ${receipt}` (integration.service recordPurchase) starts with; the receipt follows. */
const RECEIPT_OPENING = 'Scontrino ';
/** The reason an import's balance row gets when the file has none (imports.csv). */
const IMPORT_DEFAULT_REASON = 'Saldo iniziale';

/**
 * Which reason the platform wrote itself (ledgerSystemReasonSchema says how each is recognised), and
 * its detail (a birthday's year, a receipt's number): two columns of the entry `e`, null for a reason a
 * person typed. One definition for the list and its export.
 */
export const SYSTEM_REASON_KIND = sql`case
    when e.source = 'referral' and e.idempotency_key like 'referral:referee:%' then 'referralReferee'
    when e.source = 'referral' and e.idempotency_key like 'referral:referrer:%' then 'referralReferrer'
    when e.source = 'birthday' and e.idempotency_key ~ ':[0-9]{4}$' then 'birthday'
    when e.source = 'purchase' and e.idempotency_key like 'int:%' and starts_with(e.reason, ${RECEIPT_OPENING}) then 'receipt'
    when e.kind = 'adjust' and e.idempotency_key like 'import:%' and e.reason = ${IMPORT_DEFAULT_REASON} then 'openingBalance'
  end`;
export const SYSTEM_REASON_DETAIL = sql`case
    when e.source = 'birthday' then right(e.idempotency_key, 4)
    when e.source = 'purchase' then substr(e.reason, ${RECEIPT_OPENING.length + 1})
  end`;

function systemReasonOf(kind: unknown, detail: unknown): LedgerSystemReason | null {
  const known = kind as LedgerSystemReasonKind | null;
  switch (known) {
    case 'birthday':
      return { kind: known, year: Number(detail) };
    case 'receipt':
      return { kind: known, receipt: String(detail) };
    case 'referralReferee':
    case 'referralReferrer':
    case 'openingBalance':
      return { kind: known };
    default:
      return null;
  }
}

/**
 * The page's rows with whose they are: the customer's name and card (none once erased), the proof
 * whose approval wrote a social bonus (found by the proof's unique `entry_id`, so entries written before
 * their reason was worded are named as well), and the reason the platform wrote itself, as data.
 */
export const LIST_COLUMNS = sql`${ENTRY_COLUMNS}, c.status as customer_status, c.first_name as customer_first_name,
  c.last_name as customer_last_name, c.card_number as customer_card_number,
  sp.id as proof_id, sp.kind as proof_kind,
  ${SYSTEM_REASON_KIND} as system_reason_kind, ${SYSTEM_REASON_DETAIL} as system_reason_detail`;

export function toLedgerListEntry(row: Row) {
  return {
    ...toLedgerEntry(row),
    customer:
      row['customer_status'] === 'erased' || row['customer_status'] === null || row['customer_status'] === undefined
        ? null
        : { firstName: String(row['customer_first_name']), lastName: String(row['customer_last_name']), cardNumber: String(row['customer_card_number']) },
    proof: row['proof_id'] === null || row['proof_id'] === undefined ? null : { id: Number(row['proof_id']), kind: row['proof_kind'] as ProofKind },
    systemReason: systemReasonOf(row['system_reason_kind'], row['system_reason_detail']),
  };
}

/** A page of entries with whose they are, newest (or oldest) first. */
export async function listEntries(
  executor: Executor,
  filters: LedgerFilters,
  paging: { page: number; pageSize: number; order: 'asc' | 'desc' },
) {
  const direction = paging.order === 'asc' ? sql`asc` : sql`desc`;
  const items = await rows(
    executor,
    sql`select ${LIST_COLUMNS} from ledger_entries e join customers c on c.id = e.customer_id
        left join social_proofs sp on e.source = 'social' and sp.entry_id = e.id
        where ${whereOf(filters)}
        order by e.created_at ${direction}, e.id ${direction}
        limit ${paging.pageSize} offset ${(paging.page - 1) * paging.pageSize}`,
  );
  return items.map(toLedgerListEntry);
}

/** How many entries match, up to the cap (and whether it was reached), and their sums: one pass. */
export async function countEntries(executor: Executor, filters: LedgerFilters) {
  const [row] = await rows(
    executor,
    sql`select count(*)::int as total, coalesce(sum(points), 0)::bigint as points, coalesce(sum(stamps), 0)::bigint as stamps
        from (select e.points, e.stamps from ledger_entries e where ${whereOf(filters)} limit ${LEDGER_COUNT_CAP + 1}) capped`,
  );
  const total = Number(row?.['total'] ?? 0);
  return {
    total: Math.min(total, LEDGER_COUNT_CAP),
    isCapped: total > LEDGER_COUNT_CAP,
    sums: { points: Number(row?.['points'] ?? 0), stamps: Number(row?.['stamps'] ?? 0) },
  };
}

export async function membershipsOfCustomer(executor: Executor, customerId: string) {
  const result = await rows(
    executor,
    sql`select m.*, p.name as program_name, p.type as program_type, p.stamps_required, p.tier_window
        from memberships m join programs p on p.id = m.program_id
        where m.customer_id = ${customerId} order by p.name, m.id`,
  );
  return result.map((row) => ({
    ...toMembershipRow(row),
    programName: String(row['program_name']),
    programType: row['program_type'] as 'points' | 'stamps',
    stampsRequired: (row['stamps_required'] as number | null) ?? null,
    tierWindow: row['tier_window'] as 'rolling12' | 'calendarYear',
  }));
}

export async function expiringPoints(executor: Executor, membershipIds: string[]) {
  if (membershipIds.length === 0) return [];
  const result = await rows(
    executor,
    sql`select membership_id, expires_on::text as expires_on, sum(remaining)::int as points from ledger_lots
        where membership_id in (${sql.join(membershipIds.map((id) => sql`${id}`), sql`, `)})
          and remaining > 0 and expires_on is not null
        group by membership_id, expires_on order by expires_on`,
  );
  return result.map((row) => ({
    membershipId: String(row['membership_id']),
    expiresOn: toDateOrNull(row['expires_on'])!,
    points: Number(row['points']),
  }));
}

/** Lots whose last day is before `today`, with something left: the expiry job's work. */

/** Members of these programs with points left in lots whose last day is between the two dates (the expiring-points reminder). */
export async function membersWithPointsExpiring(executor: Executor, programIds: string[], from: string, to: string) {
  if (programIds.length === 0) return [];
  const result = await rows(
    executor,
    sql`select m.id as membership_id, m.customer_id, m.program_id, sum(l.remaining)::int as points, min(l.expires_on)::text as first_expires_on
        from ledger_lots l join memberships m on m.id = l.membership_id
        where m.program_id in (${sql.join(programIds.map((id) => sql`${id}`), sql`, `)})
          and l.remaining > 0 and l.expires_on between ${from}::date and ${to}::date
        group by m.id, m.customer_id, m.program_id
        order by m.id`,
  );
  return result.map((row) => ({
    membershipId: String(row['membership_id']),
    customerId: String(row['customer_id']),
    programId: String(row['program_id']),
    points: Number(row['points']),
    firstExpiresOn: toDateOrNull(row['first_expires_on'])!,
  }));
}

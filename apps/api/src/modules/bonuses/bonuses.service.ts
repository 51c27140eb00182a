import { sql } from 'drizzle-orm';
import type { Bonuses } from '@sf/contract/programs';
import type { Executor, Transaction } from '../../db/client.ts';
import { awardBonusInTransaction, type LedgerDeps } from '../ledger/ledger.service.ts';
import { queueServiceEmail } from '../service-emails/service-emails.service.ts';
import { localDate, startOfLocalDay } from '../../lib/business-days.ts';

/**
 * Automatic bonuses (docs/product.md D "Loyalty program": referral, birthday), paid by background jobs,
 * once each (decision record 018):
 * - the decision is marked in `bonus_awards` (primary key: referral per referee; birthday per
 *   customer, program and year) in the same transaction as its ledger entries; a second runner, or
 *   the same job after a restart, meets the mark (its insert waits for the first and then finds it);
 * - the entries carry idempotency keys derived from the same identities, unique per source in the
 *   ledger, as a second guard.
 */
type Row = Record<string, unknown>;
const rowsOf = async (executor: Executor, query: ReturnType<typeof sql>) =>
  ((await executor.execute(query)) as unknown as { rows: Row[] }).rows;

/** Marks the award; false when another runner (or an earlier run) already decided it. */
async function mark(tx: Transaction, award: { key: string; kind: 'referral' | 'birthday'; customerId: string; programId: string; points: number; note: string }) {
  const inserted = await rowsOf(
    tx,
    sql`insert into bonus_awards (award_key, kind, customer_id, program_id, points, note)
        values (${award.key}, ${award.kind}, ${award.customerId}, ${award.programId}, ${award.points}, ${award.note})
        on conflict (award_key) do nothing returning award_key`,
  );
  return inserted.length > 0;
}

function bonusesOf(value: unknown): Bonuses | null {
  const parsed = typeof value === 'string' ? JSON.parse(value) : value;
  return parsed && typeof parsed === 'object' ? (parsed as Bonuses) : null;
}

/** Start of the business month of `now`. */
function startOfLocalMonth(now: Date, timeZone: string): Date {
  return startOfLocalDay(`${localDate(now, timeZone).slice(0, 7)}-01`, timeZone);
}

/**
 * Referral: a referred customer's first purchase (in any program) pays, in that program, the
 * referee's bonus and the referrer's (within the referrer's monthly cap), once per referee.
 */
export async function payReferralBonuses(deps: LedgerDeps, options: { batch?: number } = {}): Promise<{ referees: number; entries: number }> {
  let referees = 0;
  let entries = 0;
  for (;;) {
    const due = await rowsOf(
      deps.db,
      sql`select c.id as referee_id, c.referred_by as referrer_id, first.program_id, p.bonuses
          from customers c
          join lateral (
            select e.program_id from ledger_entries e
            where e.customer_id = c.id and e.kind = 'earn' and e.source = 'purchase'
            order by e.created_at, e.id limit 1
          ) first on true
          join programs p on p.id = first.program_id
          where c.referred_by is not null
            and not exists (select 1 from bonus_awards a where a.award_key = 'referral:' || c.id::text)
          order by c.id
          limit ${options.batch ?? 200}`,
    );
    if (due.length === 0) return { referees, entries };
    for (const row of due) {
      const refereeId = String(row['referee_id']);
      const referrerId = String(row['referrer_id']);
      const programId = String(row['program_id']);
      const bonuses = bonusesOf(row['bonuses']);
      const refereePoints = bonuses?.referee?.points ?? 0;
      const referrerBonus = bonuses?.referrer ?? { points: 0, capPerMonth: 0 };
      entries += await deps.db.transaction(async (tx) => {
        const isNew = await mark(tx, {
          key: `referral:${refereeId}`,
          kind: 'referral',
          customerId: refereeId,
          programId,
          points: refereePoints,
          note: `referrer ${referrerId}`,
        });
        if (!isNew) return 0;
        let written = 0;
        const referee = await awardBonusInTransaction(tx, deps, {
          customerId: refereeId,
          programId,
          points: refereePoints,
          source: 'referral',
          reason: 'Bonus presentazione (invitato)',
          idempotencyKey: `referral:referee:${refereeId}`,
        });
        if (referee) written += 1;
        if (referrerBonus.points > 0 && (await referrerUnderCap(tx, deps, referrerId, programId, referrerBonus.capPerMonth))) {
          const referrer = await awardBonusInTransaction(tx, deps, {
            customerId: referrerId,
            programId,
            points: referrerBonus.points,
            source: 'referral',
            reason: 'Bonus presentazione (presentatore)',
            idempotencyKey: `referral:referrer:${refereeId}`,
          });
          if (referrer) written += 1;
        }
        return written;
      });
      referees += 1;
    }
  }
}

/** capPerMonth 0 means no limit; else the referrer's referral bonuses this business month stay below it. */
async function referrerUnderCap(tx: Transaction, deps: LedgerDeps, referrerId: string, programId: string, cap: number): Promise<boolean> {
  if (cap <= 0) return true;
  const since = startOfLocalMonth(deps.clock.now(), deps.timeZone);
  const [row] = await rowsOf(
    tx,
    sql`select count(*)::int as n from ledger_entries
        where customer_id = ${referrerId} and program_id = ${programId} and source = 'referral'
          and kind = 'earn' and idempotency_key like 'referral:referrer:%' and created_at >= ${since}`,
  );
  return Number(row?.['n'] ?? 0) < cap;
}

/**
 * Birthday: in the business month of a member's birthday, the program's birthday bonus, once per
 * customer, program and year; only members of active points programs, active customers.
 */
export async function payBirthdayBonuses(deps: LedgerDeps, options: { batch?: number } = {}): Promise<{ entries: number }> {
  const today = localDate(deps.clock.now(), deps.timeZone);
  const year = today.slice(0, 4);
  const month = today.slice(5, 7);
  let entries = 0;
  for (;;) {
    const due = await rowsOf(
      deps.db,
      sql`select c.id as customer_id, p.id as program_id, (p.bonuses -> 'birthday' ->> 'points')::int as points
          from customers c
          join memberships m on m.customer_id = c.id
          join programs p on p.id = m.program_id
          where c.status = 'active' and c.birth_date is not null and to_char(c.birth_date, 'MM') = ${month}
            and p.status = 'active' and p.type = 'points'
            and coalesce((p.bonuses -> 'birthday' ->> 'points')::int, 0) > 0
            and not exists (
              select 1 from bonus_awards a
              where a.award_key = 'birthday:' || c.id::text || ':' || p.id::text || ':' || ${year})
          order by c.id, p.id
          limit ${options.batch ?? 200}`,
    );
    if (due.length === 0) return { entries };
    for (const row of due) {
      const customerId = String(row['customer_id']);
      const programId = String(row['program_id']);
      const points = Number(row['points']);
      const key = `birthday:${customerId}:${programId}:${year}`;
      entries += await deps.db.transaction(async (tx) => {
        if (!(await mark(tx, { key, kind: 'birthday', customerId, programId, points, note: today }))) return 0;
        const written = await awardBonusInTransaction(tx, deps, {
          customerId,
          programId,
          points,
          source: 'birthday',
          reason: `Bonus compleanno ${year}`,
          idempotencyKey: key,
        });
        // The birthday e-mail (when the program has it on), with the bonus, in the same transaction.
        if (written) await queueServiceEmail(tx, { customerId, programId, kind: 'birthday', dedupeKey: key, facts: { punti_bonus: points }, now: deps.clock.now() });
        return written ? 1 : 0;
      });
    }
  }
}

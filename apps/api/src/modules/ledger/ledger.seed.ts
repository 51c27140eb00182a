import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Bonuses } from '@sf/contract/programs';
import type { Database, Executor } from '../../db/client.ts';
import * as repo from './ledger.repository.ts';
import { consumeFifo, expiryDate, pointsForPurchase, tierFor, tierWindowStart } from './ledger.rules.ts';
import { addDays, DEFAULT_BUSINESS_TIME_ZONE, localDate, startOfLocalDay } from '../../lib/business-days.ts';

/**
 * Demo ledger for `npm start`: about 60,000 entries over the last 18 months on the demo customers'
 * memberships (purchases, redemptions, adjustments, reversals, expiries, and the automatic referral
 * and birthday bonuses on the days the jobs would have paid them, with their bonus_awards marks), so
 * that every screen and the dashboard has substance and no day of it is a spike of bonuses. The history is played in memory by the same rules as the service
 * (FIFO lots, expiry days, tiers), then written in a few set-based statements (json_to_recordset)
 * with the triggers off, so it loads in seconds even on PGlite; the figures the triggers would have
 * kept (day sums, dashboard rollups) are then rebuilt from the rows, and `npm run ledger:verify`
 * passes on it.
 */
const MONTH = 30 * 86_400_000;

type Lot = { id: number; remaining: number; points: number; expiresOn: string | null; entryId: number };
type Entry = {
  id: number;
  membership_id: string;
  customer_id: string;
  program_id: string;
  merchant_id: string | null;
  kind: string;
  source: string;
  points: number;
  stamps: number;
  amount_cents: number | null;
  reason: string | null;
  reverses_id: number | null;
  balance_after: number;
  stamps_after: number;
  expires_on: string | null;
  idempotency_key: string | null;
  created_by: string | null;
  created_by_label: string;
  created_at: string;
};
/** A bonus_awards row: the jobs' mark that a bonus was decided (decision record 018). */
type Award = { award_key: string; kind: 'referral' | 'birthday'; customer_id: string; program_id: string; points: number; note: string; awarded_at: string };

/** mulberry32: a small deterministic generator, so the demo is the same on every machine. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}

async function insertJson(executor: Executor, table: string, columns: string, rows: object[], batch = 5000) {
  for (let offset = 0; offset < rows.length; offset += batch) {
    const chunk = JSON.stringify(rows.slice(offset, offset + batch));
    const names = columns
      .split(',')
      .map((column) => column.trim().split(' ')[0])
      .join(', ');
    await executor.execute(
      sql`insert into ${sql.raw(table)} (${sql.raw(names)}) select ${sql.raw(names)} from json_to_recordset(${chunk}::json) as r(${sql.raw(columns)})`,
    );
  }
}

/**
 * Who made the demo's entries that a person makes at the back-office (adjustments, redemptions at the
 * counter, reversals): as a real one is, the staff account's id (Movimenti names them by it) and its
 * e-mail as the label. Without an account (the seed's own test), the label alone.
 */
export type DemoOperator = { id: string | null; label: string };
const NO_OPERATOR: DemoOperator = { id: null, label: 'admin@demo.test' };

/**
 * A till's purchase is made through the integration API with the merchant's key, labelled
 * `API: <key name> (<prefix>…)` (integration.service.ts). The demo has no keys: the same shape with
 * the name an admin gives a till's key, without a prefix that no key has.
 */
const tillLabel = (merchantName: string | undefined) => (merchantName ? `API: Cassa ${merchantName}` : 'API');

export async function seedLedgerDemo(
  db: Database,
  options: { now?: Date; timeZone?: string; targetEntries?: number; log?: FastifyBaseLogger; operator?: DemoOperator } = {},
): Promise<number> {
  const operator = options.operator ?? NO_OPERATOR;
  const now = options.now ?? new Date();
  const timeZone = options.timeZone ?? DEFAULT_BUSINESS_TIME_ZONE;
  const target = options.targetEntries ?? 60_000;
  const count = async (query: ReturnType<typeof sql>) =>
    Number(((await db.execute(query)) as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
  if ((await count(sql`select count(*)::int as n from ledger_entries`)) > 0) return 0;

  const programRows = ((await db.execute(
    sql`select p.id, p.bonuses, array_agg(pm.merchant_id::text) filter (where pm.merchant_id is not null) as merchants
        from programs p left join program_merchants pm on pm.program_id = p.id
        where p.status = 'active' group by p.id order by p.id`,
  )) as unknown as { rows: { id: string; bonuses: Bonuses | string | null; merchants: string[] | string | null }[] }).rows;
  const customerRows = ((await db.execute(
    sql`select id, created_at, birth_date::text as birth_date, referred_by::text as referred_by from customers where status = 'active' order by id`,
  )) as unknown as { rows: { id: string; created_at: string | Date; birth_date: string | null; referred_by: string | null }[] }).rows;
  if (programRows.length === 0 || customerRows.length === 0) return 0;
  const merchantNames = new Map(
    ((await db.execute(sql`select id::text as id, coalesce(sign_name, legal_name) as name from merchants`)) as unknown as { rows: { id: string; name: string }[] }).rows.map(
      (row) => [row.id, row.name],
    ),
  );

  const programs = [];
  for (const row of programRows) {
    const rules = await repo.findProgramRules(db, row.id);
    if (!rules) continue;
    // PGlite returns arrays as arrays; node-postgres too. A text fallback for safety.
    const merchants = Array.isArray(row.merchants) ? row.merchants : row.merchants ? String(row.merchants).replace(/[{}]/g, '').split(',') : [];
    const bonuses = typeof row.bonuses === 'string' ? (JSON.parse(row.bonuses) as Bonuses) : row.bonuses;
    programs.push({ rules, merchants, bonuses });
  }
  const pointsPrograms = programs.filter((p) => p.rules.type === 'points');
  const stampsPrograms = programs.filter((p) => p.rules.type === 'stamps');

  const random = generator(20_260_101);
  const start = now.getTime() - 18 * MONTH;
  type Program = (typeof programs)[number];
  type Plan = { customerId: string; program: Program; joinedAt: number };
  const plans: Plan[] = [];
  for (const customer of customerRows) {
    const createdAt = new Date(customer.created_at instanceof Date ? customer.created_at : String(customer.created_at)).getTime();
    // Customers created long ago join after their creation; ones just created (as the demo's are)
    // get a history anyway.
    const earliest = createdAt < now.getTime() - MONTH ? Math.max(start, createdAt) : start;
    for (const program of pointsPrograms) {
      if (random.next() < 0.85) plans.push({ customerId: customer.id, program, joinedAt: random.int(earliest, now.getTime() - 3 * 86_400_000) });
    }
    for (const program of stampsPrograms) {
      if (random.next() < 0.3) plans.push({ customerId: customer.id, program, joinedAt: random.int(earliest, now.getTime() - 3 * 86_400_000) });
    }
  }
  if (plans.length === 0) return 0;
  const eventsPerMembership = Math.max(1, Math.round(target / plans.length / 1.08));

  const entries: Entry[] = [];
  const lots: Lot[] = [];
  const takes: { entry_id: number; lot_id: number; points: number }[] = [];
  const memberships: object[] = [];
  const awards: Award[] = [];
  let entryId = 0;
  let lotId = 0;

  /**
   * One membership played entry by entry: `event` is a customer's visit (a purchase, mostly), `bonus`
   * an automatic bonus the jobs paid, `close` writes the expiries due until today and the membership.
   */
  const open = (plan: Plan) => {
    const { rules, merchants } = plan.program;
    const membershipId = randomUUID();
    // A membership begins at its first entry at the latest: a referral bonus can reach a referrer's
    // planned membership before the visits planned for it (the service would have enrolled them then).
    let joinedAt = plan.joinedAt;
    let balance = 0;
    let stamps = 0;
    const mine: Lot[] = [];
    const history: { entry: Entry; lots: Lot[]; takes: { lot: Lot; points: number }[]; isReversed: boolean }[] = [];
    const stampsByDay = new Map<string, number>();

    const write = (at: number, fields: Partial<Entry> & Pick<Entry, 'kind' | 'source'>) => {
      entryId += 1;
      const entry: Entry = {
        id: entryId,
        membership_id: membershipId,
        customer_id: plan.customerId,
        program_id: rules.id,
        merchant_id: null,
        points: 0,
        stamps: 0,
        amount_cents: null,
        reason: null,
        reverses_id: null,
        balance_after: 0,
        stamps_after: 0,
        expires_on: null,
        idempotency_key: null,
        created_by: operator.id,
        created_by_label: operator.label,
        created_at: new Date(at).toISOString(),
        ...fields,
      };
      joinedAt = Math.min(joinedAt, at);
      balance += entry.points;
      stamps += entry.stamps;
      entry.balance_after = balance;
      entry.stamps_after = stamps;
      entries.push(entry);
      const record = { entry, lots: [] as Lot[], takes: [] as { lot: Lot; points: number }[], isReversed: false };
      history.push(record);
      return record;
    };
    const addLot = (record: (typeof history)[number], points: number, expiresOn: string | null) => {
      lotId += 1;
      const lot: Lot = { id: lotId, remaining: points, points, expiresOn, entryId: record.entry.id };
      lots.push(lot);
      mine.push(lot);
      record.lots.push(lot);
    };
    const consume = (record: (typeof history)[number], points: number, prefer?: Lot[]) => {
      const ordered = prefer ? [...prefer, ...mine.filter((lot) => !prefer.includes(lot))] : mine;
      for (const take of consumeFifo(ordered, points).takes) {
        const lot = mine.find((l) => l.id === take.lotId)!;
        lot.remaining -= take.take;
        record.takes.push({ lot, points: take.take });
        takes.push({ entry_id: record.entry.id, lot_id: lot.id, points: take.take });
      }
    };
    const expireUntil = (day: string) => {
      // The nightly job: lots whose last day is before `day`, written off the morning after.
      const due = mine.filter((lot) => lot.remaining > 0 && lot.expiresOn !== null && lot.expiresOn < day);
      due.sort((a, b) => (a.expiresOn! < b.expiresOn! ? -1 : a.expiresOn! > b.expiresOn! ? 1 : a.id - b.id));
      for (const lot of due) {
        const at = Math.min(startOfLocalDay(addDays(lot.expiresOn!, 1), timeZone).getTime() + 2 * 3_600_000, now.getTime());
        const record = write(at, {
          kind: 'expire',
          source: 'system',
          points: -lot.remaining,
          idempotency_key: `expire:lot:${lot.id}`,
          created_by: null,
          created_by_label: 'system',
        });
        record.takes.push({ lot, points: lot.remaining });
        takes.push({ entry_id: record.entry.id, lot_id: lot.id, points: lot.remaining });
        lot.remaining = 0;
      }
    };

    const till = (merchant: string | null) => ({ created_by: null, created_by_label: tillLabel(merchant === null ? undefined : merchantNames.get(merchant)) });

    /** A visit; answers whether it was a purchase (what makes a referee's referral bonus due). */
    const event = (at: number): boolean => {
      const day = localDate(new Date(at), timeZone);
      expireUntil(day);
      const merchant = merchants.length > 0 ? random.pick(merchants) : null;
      const roll = random.next();
      if (rules.type === 'points') {
        // A till's mistake or a returned item undoes a purchase or a redemption, not a bonus.
        const reversible = history.filter((h) => !h.isReversed && ((h.entry.kind === 'earn' && h.entry.source === 'purchase') || h.entry.kind === 'redeem'));
        if (roll < 0.14 && balance >= 100) {
          const points = Math.min(balance, random.pick([100, 100, 200, 300, 500]));
          const record = write(at, { kind: 'redeem', source: 'manual', points: -points, merchant_id: merchant, reason: 'Premio ritirato' });
          consume(record, points);
        } else if (roll < 0.18) {
          const delta = random.int(-30, 50) || 10;
          if (balance + delta < 0) return false;
          const record = write(at, {
            kind: 'adjust',
            source: 'manual',
            points: delta,
            reason: random.pick(['Correzione saldo', 'Compensazione disservizio', 'Punti di benvenuto']),
          });
          if (delta > 0) addLot(record, delta, expiryDate({ policy: rules.expiryPolicy, days: rules.expiryDays }, new Date(at), timeZone));
          else consume(record, -delta);
        } else if (roll < 0.22 && reversible.length > 0) {
          const target = random.pick(reversible);
          const points = -target.entry.points;
          if (balance + points < 0) return false;
          target.isReversed = true;
          const record = write(at, {
            kind: 'reversal',
            source: target.entry.source,
            points,
            merchant_id: target.entry.merchant_id,
            reverses_id: target.entry.id,
            reason: target.entry.kind === 'earn' ? random.pick(['Reso della merce', 'Errore di cassa']) : 'Premio annullato',
          });
          if (points < 0) consume(record, -points, target.lots);
          else for (const take of target.takes) addLot(record, take.points, take.lot.expiresOn);
          record.entry.expires_on = record.lots.length === 1 ? record.lots[0]!.expiresOn : null;
        } else {
          const amount = random.next() < 0.8 ? random.int(300, 4000) : random.int(4000, 15_000);
          const points = pointsForPurchase({ amountCents: amount, pointsPerEuro: rules.pointsPerEuro ?? '1', minSpendCents: rules.minSpendCents });
          const expiresOn = points > 0 ? expiryDate({ policy: rules.expiryPolicy, days: rules.expiryDays }, new Date(at), timeZone) : null;
          const record = write(at, { kind: 'earn', source: 'purchase', points, amount_cents: amount, merchant_id: merchant, expires_on: expiresOn, ...till(merchant) });
          if (points > 0) addLot(record, points, expiresOn);
          return true;
        }
        return false;
      }
      const required = rules.stampsRequired ?? 10;
      if (stamps >= required && roll < 0.5) {
        write(at, { kind: 'redeem', source: 'manual', stamps: -required, merchant_id: merchant, reason: 'Premio ritirato' });
        return false;
      }
      if (roll < 0.03 && stamps > 0) {
        const target = history.filter((h) => !h.isReversed && h.entry.kind === 'earn' && h.entry.stamps > 0).at(-1);
        if (!target) return false;
        target.isReversed = true;
        write(at, { kind: 'reversal', source: 'purchase', stamps: -target.entry.stamps, merchant_id: target.entry.merchant_id, reverses_id: target.entry.id, reason: 'Errore di cassa' });
        return false;
      }
      const today = stampsByDay.get(day) ?? 0;
      const granted = Math.min(1, Math.max(0, (rules.maxStampsPerDay ?? 99) - today));
      stampsByDay.set(day, today + granted);
      write(at, { kind: 'earn', source: 'purchase', stamps: granted, amount_cents: random.int(120, 2500), merchant_id: merchant, ...till(merchant) });
      return true;
    };

    /** An automatic bonus as awardBonusInTransaction writes it: points that expire like a purchase's. */
    const bonus = (at: number, input: { points: number; source: 'referral' | 'birthday'; reason: string; idempotencyKey: string }) => {
      expireUntil(localDate(new Date(at), timeZone));
      const expiresOn = expiryDate({ policy: rules.expiryPolicy, days: rules.expiryDays }, new Date(at), timeZone);
      const record = write(at, {
        kind: 'earn',
        source: input.source,
        points: input.points,
        reason: input.reason,
        expires_on: expiresOn,
        idempotency_key: input.idempotencyKey,
        created_by: null,
        created_by_label: 'system',
      });
      addLot(record, input.points, expiresOn);
    };

    const close = () => {
      expireUntil(localDate(now, timeZone));
      // The tier as the service leaves it: computed at the member's latest movement, over the window
      // as it stood then (what ledger:verify checks).
      const lastActivity = history.at(-1)?.entry.created_at ?? null;
      const windowStart = tierWindowStart(rules.tierWindow, lastActivity ? new Date(lastActivity) : now, timeZone).toISOString();
      const earned = history
        .filter((h) => h.entry.created_at >= windowStart && (h.entry.kind === 'earn' || (h.entry.kind === 'reversal' && h.entry.source !== 'manual')))
        .reduce((sum, h) => sum + h.entry.points, 0);
      memberships.push({
        id: membershipId,
        customer_id: plan.customerId,
        program_id: rules.id,
        balance,
        stamps,
        tier: rules.tiers.length > 0 ? (tierFor(rules.tiers, earned)?.name ?? null) : null,
        joined_at: new Date(joinedAt).toISOString(),
        last_activity_at: lastActivity,
      });
    };
    return { plan, event, bonus, close };
  };
  type Member = ReturnType<typeof open>;

  // Every membership's visits, then the automatic bonuses, played in one timeline (time, then the
  // order they were scheduled in): a referral bonus is due at a referee's first purchase in any
  // program, and lands in the referrer's membership, which may be another one's history.
  type Step = { at: number; order: number; run: () => void };
  const timeline: Step[] = [];
  let scheduled = 0;
  const schedule = (at: number, run: () => void) => timeline.push({ at, order: (scheduled += 1), run });
  /** A step scheduled while playing goes after every step at or before its time (binary search; few of them). */
  let playing = -1;
  const scheduleLater = (at: number, run: () => void) => {
    let low = playing + 1;
    let high = timeline.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (timeline[middle]!.at <= at) low = middle + 1;
      else high = middle;
    }
    timeline.splice(low, 0, { at, order: (scheduled += 1), run });
  };

  const members = new Map<string, Member>();
  const memberKey = (customerId: string, programId: string) => `${customerId}:${programId}`;
  const bought = new Set<string>();
  const referrerAwards = new Map<string, number>();
  const people = new Map(customerRows.map((row) => [row.id, row]));

  const birthdaysOf = (member: Member) => {
    const { rules, bonuses } = member.plan.program;
    const birthDate = people.get(member.plan.customerId)?.birth_date;
    const points = bonuses?.birthday?.points ?? 0;
    if (!birthDate || points <= 0 || rules.type !== 'points') return;
    const month = String(birthDate).slice(5, 7);
    // The birthday job pays on its first run of the birthday's business month (shortly after midnight),
    // or on its first run after the member joined, once per year.
    for (let year = Number(localDate(new Date(member.plan.joinedAt), timeZone).slice(0, 4)); year <= Number(localDate(now, timeZone).slice(0, 4)); year += 1) {
      const monthStart = startOfLocalDay(`${year}-${month}-01`, timeZone).getTime();
      const nextMonth = startOfLocalDay(addDays(`${year}-${month}-28`, 4).slice(0, 8) + '01', timeZone).getTime();
      const at = Math.max(monthStart, member.plan.joinedAt) + random.int(5, 55) * 60_000;
      if (at >= nextMonth || at > now.getTime()) continue;
      const key = `birthday:${member.plan.customerId}:${rules.id}:${year}`;
      schedule(at, () => {
        awards.push({ award_key: key, kind: 'birthday', customer_id: member.plan.customerId, program_id: rules.id, points, note: localDate(new Date(at), timeZone), awarded_at: new Date(at).toISOString() });
        member.bonus(at, { points, source: 'birthday', reason: `Bonus compleanno ${year}`, idempotencyKey: key });
      });
    }
  };

  /** A referee's first purchase: both bonuses ten minutes later (the referral job's period), once. */
  const referral = (refereeId: string, referrerId: string, program: Program, at: number) => {
    const { rules, bonuses } = program;
    const refereePoints = bonuses?.referee?.points ?? 0;
    awards.push({ award_key: `referral:${refereeId}`, kind: 'referral', customer_id: refereeId, program_id: rules.id, points: refereePoints, note: `referrer ${referrerId}`, awarded_at: new Date(at).toISOString() });
    if (rules.type !== 'points') return;
    if (refereePoints > 0) {
      members.get(memberKey(refereeId, rules.id))!.bonus(at, { points: refereePoints, source: 'referral', reason: 'Bonus presentazione (invitato)', idempotencyKey: `referral:referee:${refereeId}` });
    }
    const referrerBonus = bonuses?.referrer ?? { points: 0, capPerMonth: 0 };
    // Only an active referrer is paid (the service's rule), within the monthly cap.
    if (referrerBonus.points <= 0 || !people.has(referrerId)) return;
    const capKey = `${referrerId}:${rules.id}:${localDate(new Date(at), timeZone).slice(0, 7)}`;
    const paid = referrerAwards.get(capKey) ?? 0;
    if (referrerBonus.capPerMonth > 0 && paid >= referrerBonus.capPerMonth) return;
    referrerAwards.set(capKey, paid + 1);
    let referrer = members.get(memberKey(referrerId, rules.id));
    if (!referrer) {
      // The bonus makes the referrer a member of the program (lockMembership), from then on.
      referrer = open({ customerId: referrerId, program, joinedAt: at });
      members.set(memberKey(referrerId, rules.id), referrer);
      birthdaysOfLater(referrer);
    }
    referrer.bonus(at, { points: referrerBonus.points, source: 'referral', reason: 'Bonus presentazione (presentatore)', idempotencyKey: `referral:referrer:${refereeId}` });
  };
  /** A member who joined while playing: their birthdays from then on, into the timeline. */
  const birthdaysOfLater = (member: Member) => {
    const before = timeline.length;
    birthdaysOf(member);
    const added = timeline.splice(before);
    for (const step of added) scheduleLater(step.at, step.run);
  };

  for (const plan of plans) {
    const member = open(plan);
    members.set(memberKey(plan.customerId, plan.program.rules.id), member);
    const times = Array.from({ length: random.int(1, eventsPerMembership * 2 - 1) }, () => random.int(plan.joinedAt, now.getTime() - 60_000));
    for (const at of times) {
      schedule(at, () => {
        if (!member.event(at)) return;
        const referrerId = people.get(plan.customerId)?.referred_by;
        if (!referrerId || bought.has(plan.customerId)) return;
        bought.add(plan.customerId);
        const due = Math.min(at + 10 * 60_000, now.getTime());
        scheduleLater(due, () => referral(plan.customerId, String(referrerId), plan.program, due));
      });
    }
    birthdaysOf(member);
  }
  timeline.sort((a, b) => a.at - b.at || a.order - b.order);
  for (playing = 0; playing < timeline.length; playing += 1) timeline[playing]!.run();
  for (const member of members.values()) member.close();

  await db.transaction(async (tx) => {
    // Generated rows that reference only rows read above: skip the per-row foreign-key triggers for
    // this transaction (they dominate the load on PGlite). The seed test runs ledger:verify on it.
    await tx.execute(sql`set local session_replication_role = replica`);
    await insertJson(tx, 'memberships', 'id uuid, customer_id uuid, program_id uuid, balance int, stamps int, tier text, joined_at timestamptz, last_activity_at timestamptz', memberships);
    await insertJson(
      tx,
      'ledger_entries',
      'id bigint, membership_id uuid, customer_id uuid, program_id uuid, merchant_id uuid, kind text, source text, points int, stamps int, amount_cents int, reason text, reverses_id bigint, balance_after int, stamps_after int, expires_on date, idempotency_key text, created_by uuid, created_by_label text, created_at timestamptz',
      entries,
    );
    await insertJson(
      tx,
      'ledger_lots',
      'id bigint, entry_id bigint, membership_id uuid, points int, remaining int, expires_on date',
      lots.map((lot) => ({ id: lot.id, entry_id: lot.entryId, membership_id: entries[lot.entryId - 1]!.membership_id, points: lot.points, remaining: lot.remaining, expires_on: lot.expiresOn })),
    );
    await insertJson(tx, 'ledger_lot_takes', 'entry_id bigint, lot_id bigint, points int', takes);
    await insertJson(tx, 'bonus_awards', 'award_key text, kind text, customer_id uuid, program_id uuid, points int, note text, awarded_at timestamptz', awards);
    await tx.execute(sql`select setval(pg_get_serial_sequence('ledger_entries', 'id'), greatest((select max(id) from ledger_entries), 1))`);
    await tx.execute(sql`select setval(pg_get_serial_sequence('ledger_lots', 'id'), greatest((select max(id) from ledger_lots), 1))`);
    // The triggers were off, the dashboard's included: the members' day sums (migration 0015) and the
    // dashboard's rollups (decision 019) are computed from the rows, as ledger:rebuild would.
    await tx.execute(sql`select ledger_member_days_rebuild()`);
    await tx.execute(sql`select dashboard_rollups_rebuild(${timeZone})`);
  });
  options.log?.info({ entries: entries.length, memberships: memberships.length, bonuses: awards.length }, 'demo ledger loaded');
  return entries.length;
}

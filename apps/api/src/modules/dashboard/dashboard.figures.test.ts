import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import type { Dashboard } from '@sf/contract/dashboard';
import type { DashboardPeriod } from '@sf/contract/dashboard-figures';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture, type LedgerFixture } from '../../../test/ledger-fixtures.ts';
import { expectLinksToMatch, expectNoneNegative, expectPointsToReconcile, fromLedger, pick } from '../../../test/dashboard-figures.ts';
import { AppError } from '../../lib/errors.ts';
import { addDays, localDate } from '../../lib/business-days.ts';
import { createEntry, expireDueLots, reverseEntry, type LedgerCaller, type LedgerDeps } from '../ledger/ledger.service.ts';
import { verifyDerivedFigures, verifyLedger } from '../ledger/ledger.verify.ts';

/**
 * The dashboard reads rollups kept by triggers (decision 019); this test holds them to the ledger:
 * after a random mix of purchases, redemptions, adjustments, reversals and expiries written through
 * the ledger service on a moving clock, every figure of the API equals a direct sum over
 * ledger_entries (and customers/memberships), for several periods and filters.
 */
const TZ = 'Europe/Rome';
const n = (value: unknown) => Number(value ?? 0);
type Row = Record<string, unknown>;
const caller: LedgerCaller = { id: null, label: 'dashboard-test', audit: { id: null, email: 'dashboard-test' } };

type Op =
  | { op: 'purchase'; customer: number; set: number; stamps: boolean; cents: number; merchant: boolean }
  | { op: 'redeem'; customer: number; set: number; stamps: boolean; amount: number }
  | { op: 'adjust'; customer: number; set: number; amount: number }
  | { op: 'bonus'; customer: number; set: number; amount: number }
  | { op: 'reverse'; pick: number }
  | { op: 'time'; hours: number }
  | { op: 'expire' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant('purchase' as const), customer: fc.nat(3), set: fc.nat(1), stamps: fc.boolean(), cents: fc.integer({ min: 0, max: 9000 }), merchant: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('redeem' as const), customer: fc.nat(3), set: fc.nat(1), stamps: fc.boolean(), amount: fc.integer({ min: 1, max: 60 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('adjust' as const), customer: fc.nat(3), set: fc.nat(1), amount: fc.integer({ min: -30, max: 30 }).filter((n) => n !== 0) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('bonus' as const), customer: fc.nat(3), set: fc.nat(1), amount: fc.integer({ min: 1, max: 50 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('reverse' as const), pick: fc.nat(1000) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('time' as const), hours: fc.integer({ min: 1, max: 40 }) }) },
  { weight: 1, arbitrary: fc.constant({ op: 'expire' as const }) },
);

describe('dashboard figures equal the ledger', () => {
  let ctx: TestContext;
  const sets: LedgerFixture[] = [];
  const clock = { now: new Date('2026-03-27T08:00:00Z') };
  let deps: LedgerDeps;
  const entryIds: number[] = [];

  beforeAll(async () => {
    ctx = await createTestContext({ clock: { now: () => clock.now } });
    deps = { db: ctx.app.db, clock: { now: () => clock.now }, timeZone: TZ };
    for (let i = 0; i < 2; i += 1) {
      sets.push(
        await createLedgerFixture(ctx.app.db, {
          customers: 4,
          expiry: { policy: 'afterDays', days: 2 },
          tiers: [
            { name: 'Argento', minPoints: 0, multiplier: 1 },
            { name: 'Oro', minPoints: 100, multiplier: 2 },
          ],
        }),
      );
    }
  });
  afterAll(async () => ctx?.close());

  const run = async (op: Op) => {
    try {
      if (op.op === 'time') {
        clock.now = new Date(clock.now.getTime() + op.hours * 3_600_000);
        return;
      }
      if (op.op === 'expire') {
        await expireDueLots(deps);
        return;
      }
      if (op.op === 'reverse') {
        if (entryIds.length === 0) return;
        const id = entryIds[op.pick % entryIds.length]!;
        const answer = await reverseEntry(deps, caller, id, 'Errore', randomUUID());
        entryIds.push((answer.body as { entry: { id: number } }).entry.id);
        return;
      }
      const set = sets[op.set]!;
      const customerId = set.customerIds[op.customer]!;
      const programId = op.op !== 'adjust' && op.op !== 'bonus' && op.stamps ? set.stampsProgramId : set.pointsProgramId;
      const body =
        op.op === 'purchase'
          ? programId === set.stampsProgramId
            ? { customerId, programId, kind: 'purchase' as const, stamps: 1, ...(op.merchant ? { merchantId: set.merchantId } : {}) }
            : { customerId, programId, kind: 'purchase' as const, amountCents: op.cents, ...(op.merchant ? { merchantId: set.merchantId } : {}) }
          : op.op === 'redeem'
            ? programId === set.stampsProgramId
              ? { customerId, programId, kind: 'redeem' as const, stamps: Math.min(op.amount, 3), merchantId: set.merchantId }
              : { customerId, programId, kind: 'redeem' as const, points: op.amount, merchantId: set.merchantId }
            : { customerId, programId, kind: op.op, points: op.amount, reason: 'Prova' };
      const answer = await createEntry(deps, caller, body, randomUUID());
      entryIds.push((answer.body as { entry: { id: number } }).entry.id);
    } catch (error) {
      // Refusals (insufficient balance, already reversed…) are part of the mix: they write nothing.
      if (!(error instanceof AppError)) throw error;
    }
  };

  const dashboard = async (query: string): Promise<DashboardPeriod> => {
    const token = await ctx.tokenFor('admin@demo.test');
    const response = await ctx.request({ method: 'GET', url: `/api/admin/dashboard${query}`, token });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as Dashboard).period;
  };

  // Six runs of up to 40 writes and five dashboards each: seconds alone, but past the 30-s default
  // beside the journeys on a loaded machine (a timeout, not a wrong figure).
  it('after a random mix of operations, for every period and filter', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 10, maxLength: 40 }), fc.nat(20), fc.nat(20), async (ops, back, span) => {
        for (const op of ops) await run(op);
        const today = localDate(clock.now, TZ);
        const from = addDays(today, -back);
        const to = addDays(from, span);
        const set = sets[back % 2]!;
        const queries: Record<string, string>[] = [
          {},
          { from, to },
          { from, to, programId: set.pointsProgramId },
          { from, to, merchantId: set.merchantId },
          { from, to, programId: set.stampsProgramId, merchantId: set.merchantId },
        ];
        const token = await ctx.tokenFor('admin@demo.test');
        for (const q of queries) {
          const got = await dashboard(`?${new URLSearchParams(q).toString()}`);
          const period = { from: got.from, to: got.to, ...q };
          expect(pick(got)).toEqual(await fromLedger(ctx, period));
          expectNoneNegative(got);
          await expectLinksToMatch(ctx, token, got);
          await expectPointsToReconcile(ctx, got);
          // A longer period around this one never counts fewer distinct active customers.
          const wider = await dashboard(`?${new URLSearchParams({ ...q, from: addDays(got.from, -3), to: addDays(got.to, 2) }).toString()}`);
          expect(wider.customersActive).toBeGreaterThanOrEqual(got.customersActive);
        }
      }),
      { numRuns: 6 },
    );
    // The outstanding points up to today are the members' balances, and the ledger is sound.
    const all = await dashboard('');
    const [balances] = ((await ctx.app.db.execute(sql`select coalesce(sum(balance), 0) as b from memberships`)) as unknown as { rows: Row[] }).rows;
    expect(all.pointsOutstanding).toBe(n(balances?.['b']));
    expect(await verifyLedger(ctx.app.db)).toEqual([]);
  });

  it('rebuilding the rollups from the ledger gives the same rows the triggers kept', async () => {
    const snapshot = async () =>
      ((await ctx.app.db.execute(
        // Summed over the stripes (a figure is their sum; decision 019): the rebuild writes one each.
        sql`select day::text, program_id, merchant_id::text, bucket, sum(entries)::int as entries, sum(points)::int as points,
              sum(stamps)::int as stamps, sum(amount_cents)::int as amount_cents from dashboard_rollups group by 1, 2, 3, 4
            union all select day::text, program_id, null, 'customers', sum(customers)::int, 0, 0, 0 from dashboard_customer_rollups group by 1, 2
            union all select day::text, program_id, prev_day::text, 'active', sum(customers)::int, 0, 0, 0 from dashboard_active_rollups group by 1, 2, 3
            union all select '-', program_id, null, coalesce(tier, '-'), sum(members)::int, 0, 0, 0 from dashboard_member_rollups group by 2, 4
            order by 1, 2, 3, 4`,
      )) as unknown as { rows: Row[] }).rows.filter((r) => n(r['entries']) !== 0 || n(r['points']) !== 0 || n(r['stamps']) !== 0);
    const kept = await snapshot();
    expect(kept.length).toBeGreaterThan(0);
    await ctx.app.db.execute(sql`select dashboard_rollups_rebuild(${TZ})`);
    expect(await snapshot()).toEqual(kept);
  });
});

describe('the activity days behind "active customers"', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ seed: false });
  });
  afterAll(async () => ctx?.close());

  it('stay exact for back-dated entries, several days and members in one statement, and expiries', async () => {
    const fx = await createLedgerFixture(ctx.app.db, { customers: 1 });
    const customer = fx.customerIds[0]!;
    const members: Record<'points' | 'stamps', string> = { points: randomUUID(), stamps: randomUUID() };
    await ctx.app.db.execute(sql`insert into memberships (id, customer_id, program_id) values
      (${members.points}, ${customer}, ${fx.pointsProgramId}), (${members.stamps}, ${customer}, ${fx.stampsProgramId})`);
    // Entries written straight to the table, in the order a bulk path or two clocks could: the
    // balances do not matter here, only which days each member and the customer moved on.
    const entry = (member: 'points' | 'stamps', day: string, kind = 'earn') =>
      sql`(${members[member]}, ${customer}, ${member === 'points' ? fx.pointsProgramId : fx.stampsProgramId}, ${kind},
        ${kind === 'expire' ? 'system' : 'purchase'}, 0, 0, 0, 0, 'test', ${`${day}T10:00:00Z`}::timestamptz)`;
    const write = (...rows: ReturnType<typeof entry>[]) =>
      ctx.app.db.execute(sql`insert into ledger_entries (membership_id, customer_id, program_id, kind, source, points, stamps,
        balance_after, stamps_after, created_by_label, created_at) values ${sql.join(rows, sql`, `)}`);
    const activity = async () =>
      (await verifyDerivedFigures(ctx.app.db, { timeZone: TZ })).problems.filter((problem) => problem.figure === 'activeCustomers');
    await write(entry('points', '2026-03-10'));
    await write(entry('points', '2026-03-05'));
    expect(await activity()).toEqual([]);
    await write(entry('points', '2026-03-07'), entry('stamps', '2026-03-03'), entry('stamps', '2026-03-12'), entry('points', '2026-03-12'), entry('points', '2026-03-07'));
    expect(await activity()).toEqual([]);
    await ctx.app.db.transaction(async (tx) => {
      await tx.execute(sql`insert into ledger_entries (membership_id, customer_id, program_id, kind, source, points, stamps,
        balance_after, stamps_after, created_by_label, created_at) values ${entry('stamps', '2026-03-07')}`);
      await tx.execute(sql`insert into ledger_entries (membership_id, customer_id, program_id, kind, source, points, stamps,
        balance_after, stamps_after, created_by_label, created_at) values ${entry('points', '2026-03-01')}`);
    });
    await write(entry('stamps', '2026-03-20', 'expire'));
    expect(await activity()).toEqual([]);
    // Distinct customers: one, in any period that holds one of its days; none where it only expired.
    const active = async (from: string, to: string) => {
      const [row] = ((await ctx.app.db.execute(sql`select coalesce(sum(customers), 0)::int as n from dashboard_active_rollups
        where program_id is null and day between ${from} and ${to} and (prev_day is null or prev_day < ${from})`)) as unknown as { rows: { n: number }[] }).rows;
      return row!.n;
    };
    expect([await active('2026-03-01', '2026-03-31'), await active('2026-03-04', '2026-03-06'), await active('2026-03-13', '2026-03-31')]).toEqual([1, 1, 0]);
  });
});

describe("the customers' lists beyond their count cap", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => ctx?.close());

  it('still show the customer figures that link to them, from the rollups (the list counts at most 10,000)', async () => {
    // 10,200 customers over 40 days, a few erased: more than the list counts.
    await ctx.app.db.execute(sql`insert into customers (first_name, last_name, card_number, referral_code, status, created_at)
      select 'Cliente', 'N' || i, '8' || lpad(i::text, 12, '0'), 'CAP' || i, case when i % 97 = 0 then 'erased' else 'active' end,
        now() - (i % 40) * interval '1 day'
      from generate_series(1, 10200) i`);
    const token = await ctx.tokenFor('admin@demo.test');
    const today = localDate(ctx.app.clock.now(), TZ);
    for (const from of [addDays(today, -29), addDays(today, -400)]) {
      const response = await ctx.request({ method: 'GET', url: `/api/admin/dashboard?from=${from}&to=${today}`, token });
      const period = (response.json() as Dashboard).period;
      expect(period.customersTotal).toBeGreaterThan(10_000);
      await expectLinksToMatch(ctx, token, period);
    }
  });
});

describe('dashboard filters', () => {
  let ctx: TestContext;
  let admin: string;
  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await ctx.tokenFor('admin@demo.test');
  });
  afterAll(async () => ctx?.close());

  const get = (query: string, language = 'it') =>
    ctx.request({ method: 'GET', url: `/api/admin/dashboard${query}`, token: admin, headers: { 'accept-language': language } });

  it('defaults to the last 30 days up to today, one trend point per day', async () => {
    const { period, loyalty } = (await get('')).json() as Dashboard;
    const today = localDate(ctx.app.clock.now(), TZ);
    expect(period.to).toBe(today);
    expect(period.from).toBe(addDays(today, -29));
    expect(period.trend).toHaveLength(30);
    expect(loyalty.periodDays).toBe(30);
  });

  it('refuses a period that ends before it starts, naming the field in the language asked', async () => {
    const it = await get('?from=2026-05-10&to=2026-05-01');
    expect(it.statusCode).toBe(400);
    expect(it.json().error.fields).toEqual([{ field: 'to', message: 'Al non è valido' }]);
    const en = await get('?from=2026-05-10&to=2026-05-01', 'en');
    expect(en.json().error.message).not.toBe(it.json().error.message);
  });

  it('refuses a malformed date or id', async () => {
    for (const [query, field] of [
      ['?from=10/05/2026', 'from'],
      ['?programId=abc', 'programId'],
      ['?merchantId=1', 'merchantId'],
    ] as const) {
      const response = await get(query);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
  });

  it('refuses a period longer than three years', async () => {
    const response = await get('?from=2020-01-01&to=2026-01-01');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields[0].field).toBe('from');
  });
});

describe('dashboard figures of rewards, approvals and privacy requests', () => {
  let ctx: TestContext;
  let admin: string;
  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await ctx.tokenFor('admin@demo.test');
  });
  afterAll(async () => ctx?.close());

  it('counts vouchers by reward in the period, pending proofs and privacy requests due within a week', async () => {
    const fx = await createLedgerFixture(ctx.app.db, { customers: 2 });
    const other = await createLedgerFixture(ctx.app.db, { customers: 1 });
    const [customer] = fx.customerIds as [string];
    const now = ctx.app.clock.now();
    const day = 86_400_000;
    const caffe = randomUUID();
    const cornetto = randomUUID();
    await ctx.app.db.execute(sql`insert into rewards (id, program_id, name, cost, status) values
      (${caffe}, ${fx.pointsProgramId}, 'Caffè', 10, 'active'), (${cornetto}, ${other.pointsProgramId}, 'Cornetto', 20, 'active')`);
    const voucher = (reward: string, code: string, issuedAt: Date | null, status = 'issued') =>
      ctx.app.db.execute(sql`insert into vouchers (reward_id, code, origin, status, customer_id, issued_at)
        values (${reward}, ${code}, 'generated', ${status}, ${issuedAt ? customer : null}, ${issuedAt})`);
    await voucher(caffe, 'C1', now);
    await voucher(caffe, 'C2', new Date(now.getTime() - day));
    await voucher(caffe, 'C3', new Date(now.getTime() - 40 * day));
    await voucher(caffe, 'C4', null, 'available');
    await voucher(cornetto, 'K1', now);
    const proof = (program: string, status: string) =>
      ctx.app.db.execute(sql`insert into social_proofs (customer_id, program_id, merchant_id, kind, url, channel, submitted_by_label, status, reason, decided_at)
        values (${customer}, ${program}, ${fx.merchantId}, 'share', 'https://example.test/p', 'app', 'test', ${status},
          ${status === 'rejected' ? 'No' : null}, ${status === 'pending' ? null : now})`);
    await proof(fx.pointsProgramId, 'pending');
    await proof(fx.pointsProgramId, 'pending');
    await proof(other.pointsProgramId, 'pending');
    await proof(fx.pointsProgramId, 'rejected');
    const request = (kind: string, dueInDays: number, status = 'open') =>
      ctx.app.db.execute(sql`insert into privacy_requests (kind, customer_id, received_at, due_at, status)
        values (${kind}, ${customer}, ${now}, ${new Date(now.getTime() + dueInDays * day)}, ${status}) returning id`);
    await request('erasure', 3);
    await request('access', -1);
    await request('access', 20);
    await request('erasure', 2, 'done');

    const get = async (query: string) =>
      ((await ctx.request({ method: 'GET', url: `/api/admin/dashboard${query}`, token: admin })).json() as Dashboard).period;
    const all = await get('');
    expect(all.topRewards.map((r) => [r.name, r.vouchers])).toEqual([['Caffè', 2], ['Cornetto', 1]]);
    // Each with its program's name: two programs' rewards may share theirs.
    const programName = async (id: string) => String(((await ctx.app.db.execute(sql`select name from programs where id = ${id}`)) as unknown as { rows: Row[] }).rows[0]?.['name']);
    expect(all.topRewards.map((r) => r.programName)).toEqual([await programName(fx.pointsProgramId), await programName(other.pointsProgramId)]);
    expect(all.pendingApprovals).toBe(3);
    expect(all.privacyDeadlines.count).toBe(2);
    expect(all.privacyDeadlines.items.map((i) => [i.kind, i.daysLeft])).toEqual([['access', -1], ['erasure', 3]]);
    const one = await get(`?programId=${fx.pointsProgramId}`);
    expect(one.topRewards.map((r) => r.name)).toEqual(['Caffè']);
    expect(one.pendingApprovals).toBe(2);
    expect((await get(`?merchantId=${other.merchantId}`)).pendingApprovals).toBe(0);
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import type { IntegrityFigure } from '@sf/contract/integrity';
import { createTestContext, testDatabaseKind, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture, type LedgerFixture } from '../../../test/ledger-fixtures.ts';
import { redeemReward } from '../rewards/rewards.service.ts';
import { createEntry, type LedgerCaller, type LedgerDeps } from './ledger.service.ts';
import { rebuildDerivedFigures } from './ledger.rebuild.ts';
import { runLedgerVerify, verifyDerivedFigures } from './ledger.verify.ts';

const TZ = 'Europe/Rome';
type Row = Record<string, unknown>;

describe('ledger:verify', () => {
  let ctx: TestContext;
  let fx: LedgerFixture;
  let deps: LedgerDeps;
  let rewardId: string;
  const caller: LedgerCaller = { id: null, label: 'verify-test', audit: { id: null, email: 'verify-test' } };
  const rows = async (query: SQL) => ((await ctx.app.db.execute(query)) as unknown as { rows: Row[] }).rows;
  const verify = async () => {
    const lines: string[] = [];
    const code = await runLedgerVerify(ctx.app.db, (line) => lines.push(line), { timeZone: TZ });
    return { code, text: lines.join('\n') };
  };

  beforeAll(async () => {
    ctx = await createTestContext({ seed: false });
    fx = await createLedgerFixture(ctx.app.db, {
      customers: 2,
      expiry: { policy: 'endOfYear' },
      tiers: [
        { name: 'Bronzo', minPoints: 0, multiplier: 1 },
        { name: 'Oro', minPoints: 40, multiplier: 1 },
      ],
    });
    deps = { db: ctx.app.db, clock: ctx.app.clock, timeZone: TZ };
    for (const customerId of fx.customerIds) {
      await createEntry(deps, caller, { customerId, programId: fx.pointsProgramId, kind: 'purchase', amountCents: 4200, merchantId: fx.merchantId }, randomUUID());
      await createEntry(deps, caller, { customerId, programId: fx.pointsProgramId, kind: 'redeem', points: 10 }, randomUUID());
      await createEntry(deps, caller, { customerId, programId: fx.stampsProgramId, kind: 'purchase', amountCents: 150 }, randomUUID());
    }
    rewardId = randomUUID();
    await ctx.app.db.execute(sql`insert into rewards (id, program_id, name, cost, stock, status) values (${rewardId}, ${fx.pointsProgramId}, 'Caffè', 5, 3, 'active')`);
    await redeemReward(deps, caller, { customerId: fx.customerIds[0]!, rewardId }, randomUUID());
    // A consent history and the current state it gives.
    await ctx.app.db.execute(sql`insert into customer_consents (customer_id, purpose, granted, channel, notice_version, at)
      values (${fx.customerIds[0]}, 'marketing', true, 'counter', 'v1', now() - interval '2 days'),
             (${fx.customerIds[0]}, 'marketing', false, 'app', 'v1', now() - interval '1 day')`);
  });
  afterAll(async () => ctx?.close());

  it('exits 0 on figures written by the service, and says what it proved', async () => {
    const { code, text } = await verify();
    expect(code, text).toBe(0);
    expect(text).toMatch(/^ledger:verify OK: 4 memberships, 7 entries; balances, lots, day sums, dashboard rollups, tiers, reward stock and consents equal their sources/);
  });

  /**
   * One stored figure of each kind changed by hand (a bug, a bad manual fix, a bulk load without its
   * rebuild): the command fails naming that figure and the row; for the derived ones, ledger:rebuild
   * puts them right and the command passes again.
   */
  const tampered: { figure: IntegrityFigure; change: () => SQL; says: RegExp; undo?: () => SQL }[] = [
    {
      figure: 'dashboardRollups',
      change: () => sql`update dashboard_rollups set points = points + 7 where bucket = 'earn:purchase' and program_id = ${fx.pointsProgramId}
        and ctid = (select ctid from dashboard_rollups where bucket = 'earn:purchase' and program_id = ${fx.pointsProgramId} limit 1)`,
      says: /dashboardRollups: dashboard day \d{4}-\d{2}-\d{2}, program [0-9a-f-]{36}, merchant [0-9a-f-]{36}, earn:purchase: stored entries 2, points 91, stamps 0, amount_cents 8400; computed entries 2, points 84,/,
    },
    {
      figure: 'customerRollups',
      change: () => sql`insert into dashboard_customer_rollups (day, program_id, stripe, customers) values ('2026-01-05', null, 0, 3)`,
      says: /customerRollups: dashboard new customers on 2026-01-05: stored customers 3; computed customers 0/,
    },
    {
      figure: 'tierMix',
      change: () => sql`update dashboard_member_rollups set members = members - 1 where tier = 'Oro'
        and ctid = (select ctid from dashboard_member_rollups where tier = 'Oro' limit 1)`,
      says: /tierMix: dashboard tier mix, program .*, tier Oro: stored members 1; computed members 2/,
    },
    {
      figure: 'activeCustomers',
      change: () => sql`insert into dashboard_active_rollups (day, prev_day, program_id, stripe, customers) values ('2026-02-01', null, null, 0, 1)`,
      says: /activeCustomers: dashboard activity of customers on 2026-02-01 after -: stored customers 1; computed customers 0/,
    },
    {
      figure: 'memberDays',
      change: () => sql`update ledger_member_days set earned_points = earned_points + 1
        where ctid = (select ctid from ledger_member_days where earned_points > 0 limit 1)`,
      says: /memberDays: membership .*: its day sums for \d{4}-\d{2}-\d{2} \(UTC\) differ from its entries/,
    },
    {
      figure: 'tiers',
      change: () => sql`update memberships set tier = 'Bronzo' where customer_id = ${fx.customerIds[1]} and program_id = ${fx.pointsProgramId}`,
      says: /tiers: membership .*: stored tier Bronzo, its program's rule gives Oro/,
    },
    {
      figure: 'rewardStock',
      change: () => sql`update rewards set stock = stock + 1 where id = ${rewardId}`,
      says: /rewardStock: reward .* \(Caffè\): stored stock 3, made available 3 minus 1 vouchers of redemptions/,
    },
    {
      figure: 'consents',
      change: () => sql`update customers set marketing_consent = true where id = ${fx.customerIds[0]}`,
      says: /consents: customer .*: stored consents service\/marketing\/profiling false\/true\/false, latest records false\/false\/false/,
    },
    {
      figure: 'rollupTimeZone',
      change: () => sql`update dashboard_rollup_settings set time_zone = 'Europe/London'`,
      says: /rollupTimeZone: the dashboard's days were cut in Europe\/London/,
    },
  ];

  for (const { figure, change, says } of tampered) {
    it(`exits 1 naming ${figure} when one of its stored figures is changed by hand, and passes again after ledger:rebuild`, async () => {
      await ctx.app.db.execute(change());
      const failed = await verify();
      expect(failed.code).toBe(1);
      expect(failed.text).toMatch(new RegExp(`^ledger:verify FAILED \\(1 difference\\(s\\) shown, in ${figure};`));
      expect(failed.text).toMatch(says);
      expect(failed.text).toContain(`${figure}: derived from their sources, recomputed by \`npm run ledger:rebuild\`.`);
      await rebuildDerivedFigures(ctx.app.db, { timeZone: TZ });
      const again = await verify();
      expect(again.code, again.text).toBe(0);
    });
  }

  it('ledger:rebuild is idempotent: on right figures it changes nothing, and the rollups read the same', async () => {
    const snapshot = () =>
      rows(sql`select 'r' as t, day::text, program_id::text, merchant_id::text, bucket, sum(entries)::int as n, sum(points)::int as p from dashboard_rollups group by 2, 3, 4, 5
        union all select 'a', day::text, program_id::text, prev_day::text, '', sum(customers)::int, 0 from dashboard_active_rollups group by 2, 3, 4
        union all select 'm', '', program_id::text, tier, '', sum(members)::int, 0 from dashboard_member_rollups group by 3, 4
        order by 1, 2, 3, 4, 5`);
    const before = await snapshot();
    const first = await rebuildDerivedFigures(ctx.app.db, { timeZone: TZ });
    const second = await rebuildDerivedFigures(ctx.app.db, { timeZone: TZ });
    expect([first.tiers, first.consents, first.rewardStock]).toEqual([0, 0, 0]);
    expect([second.tiers, second.consents, second.rewardStock]).toEqual([0, 0, 0]);
    expect(await snapshot()).toEqual(before);
  });

  it('exits 1 and names the membership when a stored balance or stamps count drifts from its entries; the rebuild leaves it', async () => {
    const [membership] = await rows(sql`select id from memberships where customer_id = ${fx.customerIds[1]} and program_id = ${fx.pointsProgramId}`);
    // Memberships are not append-only: a bug (or a hand edit) could do this.
    await ctx.app.db.execute(sql`update memberships set balance = balance + 5 where id = ${membership!['id']}`);
    const failed = await verify();
    expect(failed.code).toBe(1);
    expect(failed.text).toContain(`balances: membership ${membership!['id']}: stored balance 37 / stamps 0, entries sum to 32 / 0`);
    expect(failed.text).toContain(`lots: membership ${membership!['id']}: balance 37 but its FIFO lots hold 32`);
    expect(failed.text).toContain("balances, lots: the ledger's own guarantees; nothing rebuilds them: investigate before any write.");
    // The ledger's own figures are never overwritten by a rebuild.
    await rebuildDerivedFigures(ctx.app.db, { timeZone: TZ });
    expect((await verify()).code).toBe(1);
    await ctx.app.db.execute(sql`update memberships set balance = balance - 5 where id = ${membership!['id']}`);
    expect((await verify()).code).toBe(0);
  });

  it.runIf(testDatabaseKind === 'postgres')('reads one snapshot: a write committed while it runs is not seen half-way', async () => {
    // Between the first check and the next ones a purchase commits on another connection: its entry,
    // balance and rollups all exist afterwards, but none of them in the snapshot the checks read.
    let written = false;
    const result = await verifyDerivedFigures(ctx.app.db, {
      timeZone: TZ,
      onCheck: async () => {
        if (written) return;
        written = true;
        await createEntry(deps, caller, { customerId: fx.customerIds[1]!, programId: fx.pointsProgramId, kind: 'purchase', amountCents: 1000 }, randomUUID());
      },
    });
    expect(written).toBe(true);
    expect(result.problems).toEqual([]);
    expect(result.counts.entries).toBe(7);
    expect((await verify()).code).toBe(0);
  });
});

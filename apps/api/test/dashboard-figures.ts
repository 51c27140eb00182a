import { expect } from 'vitest';
import { sql } from 'drizzle-orm';
import type { DashboardPeriod } from '@sf/contract/dashboard-figures';
import { dashboardFigureLinks, merchantFigureLink, type FigureLink, type LinkedFigure } from '@sf/contract/dashboard-links';
import { addDays, startOfLocalDay } from '../src/lib/business-days.ts';
import type { TestContext } from './helper.ts';

/**
 * The dashboard's figures computed straight from the ledger, the memberships and the customers (no
 * rollup), as the contract defines them, and the checks that hold the API to them: shared by the
 * random-mix property (dashboard.figures.test.ts) and the demo-data test (dashboard.demo.test.ts).
 */
const TZ = 'Europe/Rome';

type Row = Record<string, unknown>;
const n = (value: unknown) => Number(value ?? 0);

/**
 * The figures straight from the ledger, the memberships and the customers (no rollup), as the
 * contract defines them (dashboard-figures.ts). Shared with the demo-data test.
 */
export async function fromLedger(ctx: TestContext, q: { from: string; to: string; programId?: string; merchantId?: string }) {
  const db = ctx.app.db;
  const program = q.programId ? sql`and e.program_id = ${q.programId}` : sql``;
  const merchant = q.merchantId ? sql`and e.merchant_id = ${q.merchantId}` : sql``;
  const inPeriod = sql`(e.created_at at time zone ${TZ})::date between ${q.from} and ${q.to}`;
  const base = sql`from ledger_entries e where true ${program}`;
  const one = async (query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: Row[] }).rows;
  const [s] = await one(sql`select
      coalesce(sum(e.points) filter (where e.kind = 'earn'), 0) as issued,
      coalesce(-sum(e.points) filter (where e.kind = 'redeem'), 0) as redeemed,
      coalesce(-sum(e.points) filter (where e.kind = 'expire'), 0) as expired,
      coalesce(sum(e.points) filter (where e.kind = 'adjust'), 0) as adjusted,
      coalesce(sum(e.points) filter (where e.kind = 'reversal'), 0) as reversed,
      coalesce(sum(e.points), 0) as net_change,
      coalesce(sum(e.stamps) filter (where e.kind = 'earn'), 0) as stamps_issued,
      coalesce(-sum(e.stamps) filter (where e.kind = 'redeem'), 0) as stamps_redeemed,
      count(*) filter (where e.kind = 'redeem') as redemptions,
      count(*) filter (where e.kind = 'earn' and e.source = 'purchase') as purchases
    ${base} ${merchant} and ${inPeriod}`);
  // The balances at the end of the period's last day: each member's running balance after the last
  // entry the ledger applied by then (in the ledger's order, its ids: an entry may carry an earlier time
  // than the one before it, as the demo's expiries at 02:00 after a purchase at 01:00 do).
  const [o] = await one(sql`select coalesce(sum(balance_after), 0) as outstanding from (
      select distinct on (e.membership_id) e.balance_after ${base} and e.created_at < ${startOfLocalDay(addDays(q.to, 1), TZ)}
      order by e.membership_id, e.id desc) last`);
  const trendRows = await one(sql`select (e.created_at at time zone ${TZ})::date::text as day,
      coalesce(sum(e.points) filter (where e.kind = 'earn'), 0) as issued,
      coalesce(-sum(e.points) filter (where e.kind = 'redeem'), 0) as redeemed,
      coalesce(-sum(e.points) filter (where e.kind = 'expire'), 0) as expired
    ${base} ${merchant} and ${inPeriod} group by 1`);
  const [c] = await one(
    q.programId
      ? sql`select
          (select count(*) from memberships where program_id = ${q.programId} and (joined_at at time zone ${TZ})::date <= ${q.to}) as total,
          (select count(*) from memberships where program_id = ${q.programId} and (joined_at at time zone ${TZ})::date between ${q.from} and ${q.to}) as new`
      : sql`select
          (select count(*) from customers where status <> 'erased' and (created_at at time zone ${TZ})::date <= ${q.to}) as total,
          (select count(*) from customers where status <> 'erased' and (created_at at time zone ${TZ})::date between ${q.from} and ${q.to}) as new`,
  );
  // Distinct customers with a movement of their own in the period: not an expiry, not a bonus the
  // platform pays by itself (birthday, referral), not a system entry.
  // With a merchant: the customers who moved there.
  const [a] = await one(sql`select count(distinct e.customer_id) as active ${base} ${merchant} and ${inPeriod}
    and e.kind <> 'expire' and e.source not in ('birthday', 'referral', 'system')`);
  const tiers = await one(sql`select tier, count(*) as members from memberships
    ${q.programId ? sql`where program_id = ${q.programId}` : sql``} group by 1 order by 1 nulls first`);
  const merchants = await one(sql`select e.merchant_id,
      coalesce(sum(e.points) filter (where e.kind = 'earn'), 0) as issued,
      count(*) filter (where e.kind = 'earn' and e.source = 'purchase') as purchases
    ${base} ${merchant} and ${inPeriod} and e.merchant_id is not null group by 1 order by 2 desc, 3 desc, 1 limit 5`);
  // Vouchers issued in the period and not void, by reward; with a merchant, those its redemption made there.
  const rewards = await one(sql`select r.id, count(*) as vouchers
    from vouchers v join rewards r on r.id = v.reward_id left join ledger_entries e on e.id = v.entry_id
    where v.status <> 'void' and (v.issued_at at time zone ${TZ})::date between ${q.from} and ${q.to}
      ${q.programId ? sql`and r.program_id = ${q.programId}` : sql``} ${merchant}
    group by r.id, r.name order by 2 desc, r.name, r.id limit 5`);
  return {
    pointsIssued: n(s?.['issued']),
    pointsRedeemed: n(s?.['redeemed']),
    pointsExpired: n(s?.['expired']),
    pointsAdjusted: n(s?.['adjusted']),
    pointsReversed: n(s?.['reversed']),
    pointsNetChange: n(s?.['net_change']),
    stampsIssued: n(s?.['stamps_issued']),
    stampsRedeemed: n(s?.['stamps_redeemed']),
    redemptions: n(s?.['redemptions']),
    purchases: n(s?.['purchases']),
    pointsOutstanding: n(o?.['outstanding']),
    customersTotal: n(c?.['total']),
    customersNew: n(c?.['new']),
    customersActive: n(a?.['active']),
    trend: Object.fromEntries(trendRows.filter((r) => n(r['issued']) !== 0 || n(r['redeemed']) !== 0 || n(r['expired']) !== 0).map((r) => [String(r['day']), [n(r['issued']), n(r['redeemed']), n(r['expired'])]])),
    topMerchants: merchants.map((r) => [String(r['merchant_id']), n(r['issued']), n(r['purchases'])]),
    tierMix: tiers.map((r) => ({ tier: r['tier'] === null ? null : String(r['tier']), members: n(r['members']) })),
    topRewards: rewards.map((r) => [String(r['id']), n(r['vouchers'])]),
  };
}

/**
 * Every figure's "Apri l'elenco" list (the links of dashboard-links.ts, through the real list routes)
 * has that figure as its total or as the sum of its points/stamps. Shared with the demo-data test.
 */
export async function expectLinksToMatch(ctx: TestContext, token: string, period: DashboardPeriod): Promise<void> {
  const open = async (link: FigureLink) => {
    const query = new URLSearchParams({ ...link.query, pageSize: '1' }).toString();
    // The screens' paths are the API's, but for Approvazioni's (its proofs are social-proofs).
    const apiPath = link.path === '/approvals' ? '/social-proofs' : link.path;
    const response = await ctx.request({ method: 'GET', url: `/api/admin${apiPath}?${query}`, token });
    expect(response.statusCode, `${link.path}?${query}: ${response.body}`).toBe(200);
    const page = response.json() as { total: number; totalIsCapped?: boolean; sums?: { points: number; stamps: number } | null };
    expect(page.totalIsCapped ?? false, `${link.path}?${query}`).toBe(false);
    switch (link.measure) {
      case 'total':
        return page.total;
      case 'points':
        return page.sums!.points;
      case 'negativePoints':
        return 0 - page.sums!.points;
      case 'stamps':
        return page.sums!.stamps;
    }
  };
  const links = dashboardFigureLinks(period);
  for (const [figure, link] of Object.entries(links) as [LinkedFigure, FigureLink | null][]) {
    if (!link) continue;
    expect({ figure, list: await open(link) }).toEqual({ figure, list: period[figure] });
  }
  for (const top of period.topMerchants) {
    expect({ merchant: top.name, list: await open(merchantFigureLink(period, top.merchantId)) }).toEqual({ merchant: top.name, list: top.pointsIssued });
  }
}

export function pick(period: DashboardPeriod) {
  return {
    pointsIssued: period.pointsIssued,
    pointsRedeemed: period.pointsRedeemed,
    pointsExpired: period.pointsExpired,
    pointsAdjusted: period.pointsAdjusted,
    pointsReversed: period.pointsReversed,
    pointsNetChange: period.pointsNetChange,
    stampsIssued: period.stampsIssued,
    stampsRedeemed: period.stampsRedeemed,
    redemptions: period.redemptions,
    purchases: period.purchases,
    pointsOutstanding: period.pointsOutstanding,
    customersTotal: period.customersTotal,
    customersNew: period.customersNew,
    customersActive: period.customersActive,
    trend: Object.fromEntries(
      period.trend
        .filter((d) => d.pointsIssued !== 0 || d.pointsRedeemed !== 0 || d.pointsExpired !== 0)
        .map((d) => [d.day, [d.pointsIssued, d.pointsRedeemed, d.pointsExpired]]),
    ),
    topMerchants: period.topMerchants.map((m) => [m.merchantId, m.pointsIssued, m.purchases]),
    tierMix: period.tierMix,
    topRewards: period.topRewards.map((r) => [r.rewardId, r.vouchers]),
  };
}

/**
 * The period's points reconcile on the screen: issued − redeemed − expired + adjusted + reversed is the
 * net change (Movimenti' points for the same filters: `expectLinksToMatch`) and, without a merchant,
 * what the balances grew by over the period (outstanding at its end less at the day before it).
 */
export async function expectPointsToReconcile(ctx: TestContext, period: DashboardPeriod): Promise<void> {
  const { pointsIssued, pointsRedeemed, pointsExpired, pointsAdjusted, pointsReversed, pointsNetChange } = period;
  expect({ sum: pointsIssued - pointsRedeemed - pointsExpired + pointsAdjusted + pointsReversed }).toEqual({ sum: pointsNetChange });
  if (period.merchantId) return;
  const before = await fromLedger(ctx, { from: addDays(period.from, -1), to: addDays(period.from, -1), ...(period.programId ? { programId: period.programId } : {}) });
  expect({ change: period.pointsOutstanding - before.pointsOutstanding }).toEqual({ change: pointsNetChange });
}

/** Every figure a count or an amount that cannot be below zero (adjustments are signed by nature). */
export function expectNoneNegative(period: DashboardPeriod): void {
  const { pointsAdjusted: _adjusted, pointsReversed: _reversed, pointsNetChange: _net, ...rest } = pick(period);
  for (const [name, value] of Object.entries(rest)) if (typeof value === 'number') expect({ name, value: value >= 0 }).toEqual({ name, value: true });
  for (const day of period.trend) for (const [name, value] of Object.entries(day)) if (typeof value === 'number') expect({ day: day.day, name, ok: value >= 0 }).toEqual({ day: day.day, name, ok: true });
  for (const tier of period.tierMix) expect(tier.members).toBeGreaterThan(0);
}


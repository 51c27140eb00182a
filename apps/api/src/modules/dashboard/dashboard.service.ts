import { PRIVACY_DEADLINE_DAYS, type DashboardPeriod, type DashboardQuery, type DashboardTrendDay } from '@sf/contract/dashboard-figures';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { addDays, businessDaysUntil, localDate, startOfLocalDay } from '../ledger/ledger.rules.ts';
import * as repo from './dashboard.repository.ts';

export type DashboardDeps = { db: Database; clock: Clock; timeZone: string };

/** Without `from`/`to`: the last 30 days up to today. */
export const DEFAULT_PERIOD_DAYS = 30;

export function periodOf(deps: DashboardDeps, query: DashboardQuery): repo.PeriodFilter {
  const today = localDate(deps.clock.now(), deps.timeZone);
  const to = query.to ?? (query.from && query.from > today ? query.from : today);
  const from = query.from ?? addDays(to, -(DEFAULT_PERIOD_DAYS - 1));
  return {
    from,
    to,
    start: startOfLocalDay(from, deps.timeZone),
    end: startOfLocalDay(addDays(to, 1), deps.timeZone),
    programId: query.programId ?? null,
    merchantId: query.merchantId ?? null,
  };
}

export function daysIn(period: { from: string; to: string }): number {
  return Math.round((Date.parse(`${period.to}T00:00:00Z`) - Date.parse(`${period.from}T00:00:00Z`)) / 86_400_000) + 1;
}

type Totals = Omit<DashboardTrendDay, 'day'> & {
  pointsAdjusted: number;
  stampsRedeemed: number;
  redemptions: number;
};

const zero = (): Totals => ({
  pointsIssued: 0,
  pointsRedeemed: 0,
  pointsExpired: 0,
  stampsIssued: 0,
  purchases: 0,
  pointsAdjusted: 0,
  stampsRedeemed: 0,
  redemptions: 0,
});

/** Adds one rollup bucket (`kind:source`, reversals as `reversal_<kind of the reversed entry>`). */
function add(totals: Totals, row: repo.BucketDay): void {
  const [kind, source] = row.bucket.split(':') as [string, string];
  switch (kind) {
    case 'earn':
    case 'reversal_earn':
      totals.pointsIssued += row.points;
      totals.stampsIssued += row.stamps;
      if (source === 'purchase') totals.purchases += kind === 'earn' ? row.entries : -row.entries;
      break;
    case 'redeem':
    case 'reversal_redeem':
      totals.pointsRedeemed -= row.points;
      totals.stampsRedeemed -= row.stamps;
      totals.redemptions += kind === 'redeem' ? row.entries : -row.entries;
      break;
    case 'expire':
      totals.pointsExpired -= row.points;
      break;
    case 'adjust':
    case 'reversal_adjust':
      totals.pointsAdjusted += row.points;
      break;
  }
}

/** The dashboard's period figures (contract `dashboardPeriodSchema`), from the rollups. */
export async function periodFigures(deps: DashboardDeps, query: DashboardQuery): Promise<DashboardPeriod> {
  const period = periodOf(deps, query);
  const now = deps.clock.now();
  const [buckets, outstanding, top, customers, tiers, rewards, approvals, privacy] = await Promise.all([
    repo.bucketsByDay(deps.db, period),
    repo.outstandingAt(deps.db, period),
    repo.topMerchants(deps.db, period),
    repo.customerFigures(deps.db, period),
    repo.tierMix(deps.db, period),
    repo.topRewards(deps.db, period),
    repo.pendingApprovals(deps.db, period),
    // Due on one of the next PRIVACY_DEADLINE_DAYS business days (or overdue): before the day after.
    repo.privacyDeadlines(deps.db, startOfLocalDay(addDays(localDate(now, deps.timeZone), PRIVACY_DEADLINE_DAYS + 1), deps.timeZone)),
  ]);
  const totals = zero();
  const byDay = new Map<string, Totals>();
  for (const row of buckets) {
    add(totals, row);
    let dayTotals = byDay.get(row.day);
    if (!dayTotals) byDay.set(row.day, (dayTotals = zero()));
    add(dayTotals, row);
  }
  const trend: DashboardTrendDay[] = [];
  for (let day = period.from; day <= period.to; day = addDays(day, 1)) {
    const t = byDay.get(day) ?? zero();
    trend.push({
      day,
      pointsIssued: t.pointsIssued,
      pointsRedeemed: t.pointsRedeemed,
      pointsExpired: t.pointsExpired,
      stampsIssued: t.stampsIssued,
      purchases: t.purchases,
    });
  }
  return {
    from: period.from,
    to: period.to,
    programId: period.programId,
    merchantId: period.merchantId,
    ...customers,
    ...totals,
    pointsOutstanding: outstanding,
    trend,
    topMerchants: top,
    tierMix: tiers,
    topRewards: rewards,
    pendingApprovals: approvals,
    privacyDeadlines: {
      count: privacy.count,
      items: privacy.items.map((item) => ({
        id: item.id,
        kind: item.kind,
        dueAt: item.dueAt.toISOString(),
        // Calendar days in the business time zone, as the privacy list counts them (negative: overdue).
        daysLeft: businessDaysUntil(item.dueAt, now, deps.timeZone),
      })),
    },
  };
}

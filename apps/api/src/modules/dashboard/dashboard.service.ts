import { PRIVACY_DEADLINE_DAYS, type DashboardPeriod, type DashboardQuery, type DashboardTrendDay } from '@sf/contract/dashboard-figures';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { addDays, businessDaysUntil, localDate, startOfLocalDay } from '../../lib/business-days.ts';
import { fieldError } from '../../lib/errors.ts';
import { latestChangesWithRecords } from '../audit/audit-records.service.ts';
import { integrityFindings } from '../ledger/ledger-integrity.service.ts';
import { newsSummary } from '../news/news.service.ts';
import { countWaitingStaff } from '../staff/staff-admin.service.ts';
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
  pointsReversed: number;
  pointsNetChange: number;
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
  pointsReversed: 0,
  pointsNetChange: 0,
  stampsRedeemed: 0,
  redemptions: 0,
});

/**
 * Adds one rollup bucket (`kind:source`, reversals as `reversal_<kind of the reversed entry>`). Every
 * figure is the entries of its kind made in the period — what the ledger list of that kind counts and
 * sums (decision 032) — so none is ever negative: a reversal takes points back from the balances
 * (outstanding), it does not unmake the earning or redemption it reverses.
 */
function add(totals: Totals, row: repo.BucketDay): void {
  const [kind, source] = row.bucket.split(':') as [string, string];
  // Every entry's points: what the period did to the balances, and what Movimenti adds up for it.
  totals.pointsNetChange += row.points;
  if (kind.startsWith('reversal_')) totals.pointsReversed += row.points;
  switch (kind) {
    case 'earn':
      totals.pointsIssued += row.points;
      totals.stampsIssued += row.stamps;
      if (source === 'purchase') totals.purchases += row.entries;
      break;
    case 'redeem':
      totals.pointsRedeemed -= row.points;
      totals.stampsRedeemed -= row.stamps;
      totals.redemptions += row.entries;
      break;
    case 'expire':
      totals.pointsExpired -= row.points;
      break;
    case 'adjust':
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
    startsAt: period.start.toISOString(),
    endsAt: period.end.toISOString(),
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

/** A business day when the instant is that day's first (`edge: 'start'`) or last millisecond (`'end'`); else null. */
function dayAt(deps: DashboardDeps, instant: Date, edge: 'start' | 'end'): string | null {
  const day = localDate(instant, deps.timeZone);
  const expected = edge === 'start' ? startOfLocalDay(day, deps.timeZone).getTime() : startOfLocalDay(addDays(day, 1), deps.timeZone).getTime() - 1;
  return expected === instant.getTime() ? day : null;
}

/**
 * The customers list's exact total from the rollups when its filter is one a dashboard customer figure
 * links to (registered, or active, in whole business days; a program or, without one, the erased left
 * out; nothing else): beyond the list's count cap it then shows that figure. Null otherwise.
 */
export async function customersTotal(
  deps: DashboardDeps,
  filter: {
    programId?: string | undefined;
    joinedFrom?: string | undefined;
    joinedTo?: string | undefined;
    activeFrom?: string | undefined;
    activeTo?: string | undefined;
    erased?: boolean | undefined;
    q?: string | undefined;
    status?: string | undefined;
    tier?: string | undefined;
    marketingConsent?: boolean | undefined;
  },
): Promise<number | null> {
  if (filter.q || filter.status || filter.tier || filter.marketingConsent !== undefined) return null;
  const programId = filter.programId ?? null;
  const isJoined = filter.joinedFrom !== undefined || filter.joinedTo !== undefined;
  const isActive = filter.activeFrom !== undefined || filter.activeTo !== undefined;
  if (isJoined === isActive) return null;
  if (isJoined) {
    // Without a program the figure leaves the erased out; a program's members are all counted.
    if (programId === null ? filter.erased !== false : filter.erased !== undefined) return null;
    const from = filter.joinedFrom ? dayAt(deps, new Date(filter.joinedFrom), 'start') : null;
    const to = filter.joinedTo ? dayAt(deps, new Date(filter.joinedTo), 'end') : null;
    if ((filter.joinedFrom && !from) || (filter.joinedTo && !to)) return null;
    return repo.joinedTotal(deps.db, { from, to, programId });
  }
  if (filter.erased !== undefined || !filter.activeFrom || !filter.activeTo) return null;
  const from = dayAt(deps, new Date(filter.activeFrom), 'start');
  const to = dayAt(deps, new Date(filter.activeTo), 'end');
  return from && to ? repo.activeTotal(deps.db, { from, to, programId }) : null;
}

/**
 * The ledger list's total and sums from the rollups, when its filter is one the rollups answer: no
 * customer, and a period of whole business days (`from` at a day's start, `to` at a day's last
 * millisecond; either may be open). Null otherwise. The Movimenti a dashboard figure links to then
 * shows that figure as its total even beyond the list's count cap.
 */
export async function ledgerTotals(
  deps: DashboardDeps,
  filter: { customerId?: string | undefined; programId?: string | undefined; merchantId?: string | undefined; from?: Date | undefined; to?: Date | undefined } & repo.BucketFilter,
): Promise<{ total: number; points: number; stamps: number } | null> {
  if (filter.customerId) return null;
  const fromDay = filter.from ? dayAt(deps, filter.from, 'start') : null;
  const toDay = filter.to ? dayAt(deps, filter.to, 'end') : null;
  if ((filter.from && !fromDay) || (filter.to && !toDay)) return null;
  const totals = await repo.bucketTotals(deps.db, {
    from: fromDay,
    to: toDay,
    programId: filter.programId ?? null,
    merchantId: filter.merchantId ?? null,
    kind: filter.kind,
    source: filter.source,
  });
  return { total: totals.entries, points: totals.points, stamps: totals.stamps };
}

/** The longest period the dashboard sums (its trend has one point per day). */
const MAX_PERIOD_DAYS = 3 * 366;

/**
 * `GET /api/admin/dashboard`: the news figures, the latest changes, the loyalty figures of the period,
 * the staff waiting for a role and what the nightly check found wrong — each from its module's service.
 */
export async function dashboardOverview(deps: DashboardDeps, query: DashboardQuery) {
  const period = periodOf(deps, query);
  const days = daysIn(period);
  if (days < 1 || days > MAX_PERIOD_DAYS) {
    throw fieldError(query.to && days < 1 ? 'to' : 'from');
  }
  const [news, latest, figures, pendingStaff, integrity] = await Promise.all([
    newsSummary(deps, { nextLimit: 5 }),
    latestChangesWithRecords(deps, { limit: 10 }),
    periodFigures(deps, query),
    countWaitingStaff(deps),
    integrityFindings(deps.db),
  ]);
  return {
    postsByStatus: news.postsByStatus,
    nextScheduled: news.nextScheduled,
    latestChanges: latest,
    loyalty: {
      customersTotal: figures.customersTotal,
      customersNew: figures.customersNew,
      activeMerchants: figures.activeMerchants,
      pointsIssued: figures.pointsIssued,
      pointsRedeemed: figures.pointsRedeemed,
      pointsOutstanding: figures.pointsOutstanding,
      periodDays: days,
    },
    period: figures,
    pendingStaff,
    integrity,
  };
}

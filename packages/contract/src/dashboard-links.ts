import type { DashboardPeriod } from './dashboard-figures.ts';

/**
 * Where each dashboard figure leads ("Apri l'elenco"), and what of that list equals the figure
 * (decision 032): its total, or the sum of its points or stamps (as the ledger list shows them,
 * signed: redeemed and expired points are negative there). One definition for the web app's links
 * and for the test that holds every link's list to its figure.
 *
 * The period is the server's: its instants cut business days in BUSINESS_TIME_ZONE, whatever the
 * browser's time zone (a link built from the browser's local midnight missed or added hours).
 */
export type FigureLink = {
  path: '/ledger' | '/customers' | '/merchants' | '/approvals';
  query: Record<string, string>;
  /** What of the list equals the figure. */
  measure: 'total' | 'points' | 'negativePoints' | 'stamps';
};

export type LinkedFigure =
  | 'customersTotal'
  | 'customersNew'
  | 'customersActive'
  | 'activeMerchants'
  | 'pointsIssued'
  | 'pointsRedeemed'
  | 'pointsExpired'
  | 'pointsOutstanding'
  | 'pointsNetChange'
  | 'stampsIssued'
  | 'redemptions'
  | 'purchases'
  | 'pendingApprovals';

type Period = Pick<DashboardPeriod, 'startsAt' | 'endsAt' | 'programId' | 'merchantId'>;

/** The period's last millisecond: the lists' `to` is inclusive. */
const lastInstant = (endsAt: string) => new Date(new Date(endsAt).getTime() - 1).toISOString();

function ledger(period: Period, query: Record<string, string>, measure: FigureLink['measure'], options: { from?: boolean; merchant?: boolean } = {}): FigureLink {
  return {
    path: '/ledger',
    query: {
      ...query,
      ...(options.from === false ? {} : { from: period.startsAt }),
      to: lastInstant(period.endsAt),
      ...(period.programId ? { programId: period.programId } : {}),
      ...(period.merchantId && options.merchant !== false ? { merchantId: period.merchantId } : {}),
    },
    measure,
  };
}

function customers(period: Period, query: Record<string, string>): FigureLink {
  // Without a program the customer figures leave erased customers out; a program's members are all counted.
  return { path: '/customers', query: { ...query, ...(period.programId ? { programId: period.programId } : { erased: 'false' }) }, measure: 'total' };
}

export function dashboardFigureLinks(period: Period): Record<LinkedFigure, FigureLink | null> {
  const to = lastInstant(period.endsAt);
  return {
    customersTotal: customers(period, { joinedTo: to }),
    customersNew: customers(period, { joinedFrom: period.startsAt, joinedTo: to, sort: 'createdAt', order: 'desc' }),
    // With a merchant the figure counts the customers active there, which Clienti cannot filter: no list.
    customersActive: period.merchantId
      ? null
      : {
          path: '/customers',
          query: { activeFrom: period.startsAt, activeTo: to, ...(period.programId ? { programId: period.programId } : {}) },
          measure: 'total',
        },
    // With one merchant chosen the figure is that merchant (1 or 0): no list to open.
    activeMerchants: period.merchantId
      ? null
      : { path: '/merchants', query: { status: 'active', ...(period.programId ? { programId: period.programId } : {}) }, measure: 'total' },
    pointsIssued: ledger(period, { kind: 'earn' }, 'points'),
    pointsRedeemed: ledger(period, { kind: 'redeem' }, 'negativePoints'),
    pointsExpired: ledger(period, { kind: 'expire' }, 'negativePoints'),
    // Every entry up to the period's end: the balances then (a program's; balances have no merchant).
    pointsOutstanding: ledger(period, {}, 'points', { from: false, merchant: false }),
    // Every entry of the period: what Movimenti' points add up to (reversals and adjustments included).
    pointsNetChange: ledger(period, {}, 'points'),
    stampsIssued: ledger(period, { kind: 'earn' }, 'stamps'),
    redemptions: ledger(period, { kind: 'redeem' }, 'total'),
    purchases: ledger(period, { kind: 'earn', source: 'purchase' }, 'total'),
    // Waiting now, whatever the period: the queue as it is, for the program and merchant chosen.
    pendingApprovals: {
      path: '/approvals',
      query: { status: 'pending', ...(period.programId ? { programId: period.programId } : {}), ...(period.merchantId ? { merchantId: period.merchantId } : {}) },
      measure: 'total',
    },
  };
}

/** A top merchant's row: the points it issued in the period. */
export function merchantFigureLink(period: Period, merchantId: string): FigureLink {
  return ledger({ ...period, merchantId }, { kind: 'earn' }, 'points');
}

export function figureHref(link: FigureLink): string {
  const query = Object.entries(link.query)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join('&');
  return query ? `${link.path}?${query}` : link.path;
}

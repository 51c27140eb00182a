import { z } from 'zod';

/**
 * `GET /api/admin/dashboard` query: a period of business days (inclusive, BUSINESS_TIME_ZONE;
 * default the last 30 days up to today), and optionally one program and/or one merchant.
 */
export const dashboardQuerySchema = z.object({
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  programId: z.uuid().optional(),
  merchantId: z.uuid().optional(),
});
export type DashboardQuery = z.infer<typeof dashboardQuerySchema>;

/** "Near their deadline": due within this many days (the queue highlights the same). */
export const PRIVACY_DEADLINE_DAYS = 7;

export const dashboardTrendDaySchema = z.object({
  day: z.iso.date(),
  pointsIssued: z.number().int(),
  pointsRedeemed: z.number().int(),
  pointsExpired: z.number().int(),
  stampsIssued: z.number().int(),
  purchases: z.number().int(),
});
export type DashboardTrendDay = z.infer<typeof dashboardTrendDaySchema>;

/**
 * The period's figures, every one equal to a direct computation over the ledger entries, the
 * memberships and the customers (through the rollups, decision 019; `npm run ledger:verify` proves
 * the stored rows), and each to the list its dashboard link opens (decision 032):
 * - points issued: the points of the earnings made in the period; redeemed: of the redemptions;
 *   expired: of the expiries; adjusted: of the manual adjustments (signed); stamps likewise; purchases
 *   and redemptions: how many — each the sum or the count of the ledger list of that kind over the
 *   period, so none is negative (a reversal takes points back from the balances, it does not unmake
 *   the earning or redemption it reverses);
 * - reversed: the points of the reversals made in the period (signed: a reversed earning takes points
 *   back, a reversed redemption gives them back); net change: every entry's points in the period =
 *   issued − redeemed − expired + adjusted + reversed, what Movimenti' points add up to for the same
 *   filters and, without a merchant, the change of outstanding over the period;
 * - outstanding: the sum of the members' balances at the end of the period's last day (every entry's
 *   points up to then), never negative; it follows the program filter, not the merchant one;
 * - customers: total (registered up to the end of the period, not erased; with a program: its members
 *   who joined by then), new (registered, or joined the program, in the period), active (DISTINCT
 *   customers with at least one movement of their own in the period — every movement except expiries
 *   and the bonuses the platform pays by itself, birthday and referral; with a program: in it); a
 *   longer period never has fewer. With a merchant, active counts the customers with a movement of
 *   their own there; total and new do not follow the merchant filter;
 * - active merchants: merchants with status active (with a program: its merchants).
 * `startsAt`/`endsAt` are the instants the period's business days begin and end (exclusive), for the
 * lists the figures link to.
 */
export const dashboardPeriodSchema = z.object({
  from: z.iso.date(),
  to: z.iso.date(),
  startsAt: z.iso.datetime({ offset: true }),
  endsAt: z.iso.datetime({ offset: true }),
  programId: z.uuid().nullable(),
  merchantId: z.uuid().nullable(),
  customersTotal: z.number().int(),
  customersNew: z.number().int(),
  customersActive: z.number().int(),
  activeMerchants: z.number().int(),
  pointsIssued: z.number().int(),
  pointsRedeemed: z.number().int(),
  pointsExpired: z.number().int(),
  pointsAdjusted: z.number().int(),
  pointsReversed: z.number().int(),
  pointsNetChange: z.number().int(),
  pointsOutstanding: z.number().int(),
  stampsIssued: z.number().int(),
  stampsRedeemed: z.number().int(),
  redemptions: z.number().int(),
  purchases: z.number().int(),
  trend: z.array(dashboardTrendDaySchema),
  topMerchants: z.array(
    z.object({ merchantId: z.uuid(), name: z.string(), pointsIssued: z.number().int(), purchases: z.number().int() }),
  ),
  /** Members by tier now (`tier` null: no tier); with a program: its members only. */
  tierMix: z.array(z.object({ tier: z.string().nullable(), members: z.number().int() })),
  /** Rewards by vouchers issued in the period (not void); with a program: its rewards; with a merchant: redeemed there. */
  /** With its program's name: two programs' rewards may share theirs ("Caffè omaggio"). */
  topRewards: z.array(z.object({ rewardId: z.uuid(), name: z.string(), programName: z.string(), vouchers: z.number().int() })),
  /** Social-action proofs waiting for a decision now (program/merchant filters apply). */
  pendingApprovals: z.number().int(),
  /** Open privacy requests due within `PRIVACY_DEADLINE_DAYS` days (or overdue), soonest first. */
  privacyDeadlines: z.object({
    count: z.number().int(),
    items: z.array(z.object({ id: z.uuid(), kind: z.string(), dueAt: z.iso.datetime({ offset: true }), daysLeft: z.number().int() })),
  }),
});
export type DashboardPeriod = z.infer<typeof dashboardPeriodSchema>;

/**
 * The figures a merchant filter does not narrow: customers registered (or members joined) belong to no
 * merchant, and balances and tiers to a program (decision 019). With a merchant chosen the dashboard
 * says so on each, rather than showing them as that merchant's. Counting them per merchant would need
 * rollups of their own (a customer's first purchase, a balance per merchant that no entry defines).
 */
export const FIGURES_ACROSS_MERCHANTS = ['customersTotal', 'customersNew', 'pointsOutstanding', 'tierMix'] as const;

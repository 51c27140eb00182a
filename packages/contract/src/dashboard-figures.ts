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
 * The period's figures, every one a sum of ledger entries (through the rollups, decision 019):
 * - points issued: earnings net of their reversals; redeemed: redemptions net of their reversals;
 *   expired: expiries; adjusted: manual adjustments net of their reversals (signed);
 * - outstanding: every entry's points up to the end of the period (the members' balances then);
 *   it follows the program filter, not the merchant one (balances belong to programs);
 * - redemptions: redeem entries not reversed (count); purchases: purchase earnings (count);
 * - customers: total (joined up to the end of the period, not erased; with a program: its members),
 *   new (joined in the period), active (memberships whose latest movement falls in the period: a
 *   customer active in two programs counts twice without a program filter);
 * - active merchants: merchants with status active (with a program: its merchants).
 */
export const dashboardPeriodSchema = z.object({
  from: z.iso.date(),
  to: z.iso.date(),
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
  /** Rewards by vouchers issued in the period (not void); with a program: its rewards. */
  topRewards: z.array(z.object({ rewardId: z.uuid(), name: z.string(), vouchers: z.number().int() })),
  /** Social-action proofs waiting for a decision now (program/merchant filters apply). */
  pendingApprovals: z.number().int(),
  /** Open privacy requests due within `PRIVACY_DEADLINE_DAYS` days (or overdue), soonest first. */
  privacyDeadlines: z.object({
    count: z.number().int(),
    items: z.array(z.object({ id: z.uuid(), kind: z.string(), dueAt: z.iso.datetime({ offset: true }), daysLeft: z.number().int() })),
  }),
});
export type DashboardPeriod = z.infer<typeof dashboardPeriodSchema>;

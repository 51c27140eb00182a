import { z } from 'zod';
import { auditListEntrySchema } from './audit.ts';
import { newsPostSchema } from './news.ts';
import { dashboardPeriodSchema } from './dashboard-figures.ts';
import { integrityFindingSchema } from './integrity.ts';

/** The dashboard's headline loyalty figures of the chosen period (the full set is in `period`). */
export const loyaltyFiguresSchema = z.object({
  customersTotal: z.number().int(),
  /** Customers created in the last `periodDays` days. */
  customersNew: z.number().int(),
  activeMerchants: z.number().int(),
  /** Points of the earnings and of the redemptions made in the last `periodDays` days. */
  pointsIssued: z.number().int(),
  pointsRedeemed: z.number().int(),
  /** Points on members' balances now. */
  pointsOutstanding: z.number().int(),
  periodDays: z.number().int(),
});
export type LoyaltyFigures = z.infer<typeof loyaltyFiguresSchema>;

export const dashboardSchema = z.object({
  postsByStatus: z.object({
    draft: z.number().int(),
    scheduled: z.number().int(),
    published: z.number().int(),
    archived: z.number().int(),
  }),
  nextScheduled: z.array(newsPostSchema.pick({ id: true, title: true, publishAt: true, author: true })),
  /** The latest audit entries with the record each is about (`record`, as the audit list's). */
  latestChanges: z.array(auditListEntrySchema.omit({ before: true, after: true, references: true })),
  loyalty: loyaltyFiguresSchema,
  /** Self-registered accounts with a confirmed address waiting for an admin to grant a role (B7). */
  pendingStaff: z.number().int(),
  /** The chosen period's figures (query: from, to, programId, merchantId). */
  period: dashboardPeriodSchema,
  /**
   * "Integrità dei dati": what the latest nightly check of the stored figures found wrong (empty: all
   * right), per kind of figure, since when, and whether `npm run ledger:rebuild` recomputes it.
   */
  integrity: z.array(integrityFindingSchema),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

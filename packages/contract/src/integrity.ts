import { z } from 'zod';

/**
 * The stored figures that `npm run ledger:verify` proves against their sources (the ledger entries,
 * the memberships, the customers and their consents' history, the vouchers), and what the nightly
 * check reports to admins on the dashboard ("Integrità dei dati"). Decision record 030.
 */
export const INTEGRITY_FIGURES = [
  /** Members' balances and stamps = the sum of their entries, never negative. */
  'balances',
  /** Each entry's balance after it = the running sum of its member's entries. */
  'runningBalances',
  /** The FIFO lots' unspent points = the balance. */
  'lots',
  /** No entry reversed twice. */
  'reversals',
  /** No (source, idempotency key) twice. */
  'idempotencyKeys',
  /** The members' day sums that the write rules read (tiers, stamps caps). */
  'memberDays',
  /** The dashboard's sums per day, program, merchant and kind of movement. */
  'dashboardRollups',
  /** The dashboard's customers and memberships by the day they joined. */
  'customerRollups',
  /** The dashboard's members by tier. */
  'tierMix',
  /** The dashboard's activity days (distinct active customers). */
  'activeCustomers',
  /** The business time zone the dashboard's days were cut in. */
  'rollupTimeZone',
  /** Each member's tier = its program's rule at its latest movement. */
  'tiers',
  /** A reward's stock = what staff made available minus the vouchers its redemptions hold. */
  'rewardStock',
  /** A customer's current consent per purpose = the latest record of its history. */
  'consents',
] as const;
export const integrityFigureSchema = z.enum(INTEGRITY_FIGURES);
export type IntegrityFigure = z.infer<typeof integrityFigureSchema>;

/**
 * Figures `npm run ledger:rebuild` recomputes from their sources. The others are the ledger's own
 * guarantees: a difference there is a bug to investigate, never something to overwrite.
 */
export const REBUILDABLE_FIGURES = [
  'memberDays',
  'dashboardRollups',
  'customerRollups',
  'tierMix',
  'activeCustomers',
  'rollupTimeZone',
  'tiers',
  'rewardStock',
  'consents',
] as const satisfies readonly IntegrityFigure[];

export function isRebuildable(figure: IntegrityFigure): boolean {
  return (REBUILDABLE_FIGURES as readonly IntegrityFigure[]).includes(figure);
}

/** One kind of figure the latest check found wrong, since its first failing check. */
export const integrityFindingSchema = z.object({
  figure: integrityFigureSchema,
  firstSeenAt: z.iso.datetime({ offset: true }),
  lastSeenAt: z.iso.datetime({ offset: true }),
  /** How many differences the check found (it stops counting at its limit). */
  problems: z.number().int(),
  isRebuildable: z.boolean(),
  /** A few of them as the command prints them (which row, stored vs computed): for whoever investigates. */
  examples: z.array(z.string()),
});
export type IntegrityFinding = z.infer<typeof integrityFindingSchema>;

/** The command that recomputes the rebuildable figures from their sources. */
export const LEDGER_REBUILD_COMMAND = 'npm run ledger:rebuild';
export const LEDGER_VERIFY_COMMAND = 'npm run ledger:verify';

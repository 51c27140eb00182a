import { z } from 'zod';
import { pagingQuerySchema, sortOrderSchema } from './common.ts';
import { listPageSchema } from './list-query.ts';
import { proofKindSchema } from './social-proofs.ts';
import { keyed, ruleAcrossFields } from './validation.ts';

/**
 * The points ledger (docs/product.md D "Ledger", F). Entries are append-only: a mistake is undone by a
 * `reversal` entry pointing at the original, never by an edit.
 */
export const LEDGER_KINDS = ['earn', 'redeem', 'adjust', 'expire', 'reversal'] as const;
export const ledgerKindSchema = z.enum(LEDGER_KINDS);
export type LedgerKind = z.infer<typeof ledgerKindSchema>;

/** Where an entry comes from; with the idempotency key it identifies a request (unique per source). */
export const LEDGER_SOURCES = ['purchase', 'social', 'referral', 'birthday', 'bonus', 'manual', 'system', 'reward'] as const;
export const ledgerSourceSchema = z.enum(LEDGER_SOURCES);
export type LedgerSource = z.infer<typeof ledgerSourceSchema>;

/** What staff may ask the ledger to do (`POST /api/admin/ledger`). */
export const LEDGER_REQUEST_KINDS = ['purchase', 'redeem', 'adjust', 'bonus'] as const;
export const ledgerRequestKindSchema = z.enum(LEDGER_REQUEST_KINDS);
export type LedgerRequestKind = z.infer<typeof ledgerRequestKindSchema>;

export const LEDGER_BOUNDS = {
  /**
   * One purchase at most 100,000.00 euro. With a program's points per euro (≤ 1,000) and a tier's
   * multiplier (≤ 10, programs.ts) a purchase cannot compute more than 10^9 points, inside the
   * 32-bit columns; beyond pointsMax it is refused naming amountCents (issue 30).
   */
  amountCentsMax: 10_000_000,
  /** One request moves at most a million points (or stamps). */
  pointsMax: 1_000_000,
  /** What a balance, a stamps count or an entry can hold (PostgreSQL integer): a write past it is a 400. */
  storedMax: 2_147_483_647,
  stampsMax: 1_000,
  reasonMax: 500,
  idempotencyKeyMin: 8,
  idempotencyKeyMax: 200,
} as const;

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

export const ledgerEntrySchema = z.object({
  id: z.number().int(),
  membershipId: z.string(),
  customerId: z.string(),
  programId: z.string(),
  merchantId: z.string().nullable(),
  kind: ledgerKindSchema,
  source: ledgerSourceSchema,
  /** Signed: earn +, redeem/expire −, adjust ±, reversal the opposite of its target. */
  points: z.number().int(),
  stamps: z.number().int(),
  /** The purchase amount in euro cents (earn by purchase), else null. */
  amountCents: z.number().int().nullable(),
  reason: z.string().nullable(),
  /** The entry this one reverses (kind `reversal`). */
  reversesId: z.number().int().nullable(),
  /** The reversal of this entry, when there is one (at most one). */
  reversedById: z.number().int().nullable(),
  /** The balance and stamps of the membership right after this entry. */
  balanceAfter: z.number().int(),
  stampsAfter: z.number().int(),
  /** Earned points: the day their unspent rest expires (YYYY-MM-DD, business time zone), or null. */
  expiresOn: z.iso.date().nullable(),
  /** Who made it: the staff member's id (null for the system). */
  createdBy: z.string().nullable(),
  /** Who made it, readable: the staff member's e-mail, `system` (SYSTEM_ACTOR_EMAIL), or an API key's name. */
  createdByLabel: z.string(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

export const membershipSchema = z.object({
  id: z.string(),
  customerId: z.string(),
  programId: z.string(),
  balance: z.number().int(),
  stamps: z.number().int(),
  /** The effective tier name (never below the manual floor), or null when the program has no tiers. */
  tier: z.string().nullable(),
  tierFloor: z.string().nullable(),
  joinedAt: z.iso.datetime({ offset: true }),
  lastActivityAt: z.iso.datetime({ offset: true }).nullable(),
  version: z.number().int(),
});
export type Membership = z.infer<typeof membershipSchema>;

/** "N points expire on D": the unspent rest of earn lots, grouped by day, soonest first. */
export const expiringPointsSchema = z.object({ points: z.number().int(), expiresOn: z.iso.date() });
export type ExpiringPoints = z.infer<typeof expiringPointsSchema>;

export const membershipDetailSchema = membershipSchema.extend({
  programName: z.string(),
  programType: z.enum(['points', 'stamps']),
  stampsRequired: z.number().int().nullable(),
  /** Points earned in the program's tier window (rolling 12 months or calendar year). */
  pointsInTierWindow: z.number().int(),
  expiring: z.array(expiringPointsSchema),
  /** Points expiring in the next 30 days (business days, today included). */
  expiringSoon: z.number().int(),
  /** Tier changes, newest first (at most 10): from → to (null: no tier). */
  tierChanges: z.array(z.object({ from: z.string().nullable(), to: z.string().nullable(), at: z.iso.datetime({ offset: true }) })),
});
export type MembershipDetail = z.infer<typeof membershipDetailSchema>;

/**
 * How many rewards a stamp card holds now (12 stamps of 10: one; the other two count towards the next);
 * 0 for points. The customer's page, the customer's card page and both wallet passes say it.
 */
export function rewardsReadyOf(membership: Pick<MembershipDetail, 'programType' | 'stamps' | 'stampsRequired'>): number {
  return membership.programType === 'stamps' && membership.stampsRequired ? Math.floor(membership.stamps / membership.stampsRequired) : 0;
}
export const customerMembershipsSchema = z.object({ items: z.array(membershipDetailSchema) });
export type CustomerMemberships = z.infer<typeof customerMembershipsSchema>;

const reasonSchema = z.string().trim().min(1).max(LEDGER_BOUNDS.reasonMax);

/**
 * A purchase's amount (cents): more than zero (a 0 € purchase would count as a purchase and earn
 * nothing), at most LEDGER_BOUNDS.amountCentsMax. Reported as "Importo deve essere maggiore di zero" /
 * "… al massimo 100.000,00 €" (euro, as the app writes money). Shared by the staff's and the tills' purchases.
 */
export function amountIssue(ctx: z.RefinementCtx, path: PropertyKey[], amountCents: number): void {
  if (amountCents < 1) ctx.addIssue({ code: 'custom', path, message: 'amountCents must be greater than zero', ...keyed('positive') });
  else if (amountCents > LEDGER_BOUNDS.amountCentsMax) {
    ctx.addIssue({ code: 'custom', path, message: 'amountCents is too large', params: { messageKey: 'maxAmount', max: LEDGER_BOUNDS.amountCentsMax / 100 } });
  }
}

/**
 * `POST /api/admin/ledger`. Per kind:
 * - `purchase`: `amountCents` (points programs: points from the program's rate; stamps programs:
 *   `stamps`, default 1, within the caps);
 * - `redeem`: `points` (points programs) or `stamps` (stamps programs), positive;
 * - `adjust`: signed `points` and/or `stamps`, not both zero, `reason` required;
 * - `bonus`: positive `points` (or `stamps`), `reason` required.
 */
export const createLedgerEntrySchema = z
  .strictObject({
    customerId: z.uuid(),
    programId: z.uuid(),
    merchantId: z.uuid().optional(),
    kind: ledgerRequestKindSchema,
    // Its bounds are checked below, in euro words: a purchase of 0 € is refused, and the largest
    // amount is said in euro, not in cents.
    amountCents: z.number().int().optional(),
    points: z.number().int().min(-LEDGER_BOUNDS.pointsMax).max(LEDGER_BOUNDS.pointsMax).optional(),
    stamps: z.number().int().min(-LEDGER_BOUNDS.stampsMax).max(LEDGER_BOUNDS.stampsMax).optional(),
    reason: reasonSchema.optional(),
  })
  .check(
    ruleAcrossFields((value, ctx) => {
      // Reported as "<field> è obbligatorio" / "<field> non è valido" by the error handler.
      const issue = (path: string) =>
        ctx.addIssue({ code: 'custom', path: [path], message: `${path} is required`, ...keyed('required') });
      const invalid = (path: string) =>
        ctx.addIssue({ code: 'custom', path: [path], message: `${path} is not valid`, ...keyed('invalid') });
      const points = value.points ?? 0;
      const stamps = value.stamps ?? 0;
      switch (value.kind) {
        case 'purchase':
          if (value.amountCents === undefined) issue('amountCents');
          else amountIssue(ctx, ['amountCents'], value.amountCents);
          if (value.points !== undefined) invalid('points');
          if (value.stamps !== undefined && value.stamps < 1) invalid('stamps');
          break;
        case 'redeem':
        case 'bonus':
          if (value.amountCents !== undefined) invalid('amountCents');
          if (value.points === undefined && value.stamps === undefined) issue('points');
          if (value.points !== undefined && value.points < 1) invalid('points');
          if (value.stamps !== undefined && value.stamps < 1) invalid('stamps');
          if (value.kind === 'bonus' && value.reason === undefined) issue('reason');
          break;
        case 'adjust':
          if (value.amountCents !== undefined) invalid('amountCents');
          if (points === 0 && stamps === 0) issue('points');
          if (value.reason === undefined) issue('reason');
          break;
      }
    }),
  );
export type CreateLedgerEntry = z.infer<typeof createLedgerEntrySchema>;

export const idempotencyHeadersSchema = z.object({
  'idempotency-key': z
    .string()
    .trim()
    .min(LEDGER_BOUNDS.idempotencyKeyMin)
    .max(LEDGER_BOUNDS.idempotencyKeyMax)
    .regex(/^[\x21-\x7e]+$/),
});

/**
 * `Idempotency-Key` where an API first went out without it (a proof, a voucher's use): with it, a
 * retry answers the first answer; without it, clients written before it still work.
 */
export const optionalIdempotencyHeadersSchema = idempotencyHeadersSchema.partial();

export const ledgerWriteResultSchema = z.object({
  entry: ledgerEntrySchema,
  membership: membershipSchema,
});
export type LedgerWriteResult = z.infer<typeof ledgerWriteResultSchema>;

/** `POST /api/admin/ledger/:id/reversal`. */
export const reverseLedgerEntrySchema = z.strictObject({ reason: reasonSchema });
export type ReverseLedgerEntry = z.infer<typeof reverseLedgerEntrySchema>;
export const ledgerEntryIdParamSchema = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

export const LEDGER_SORT_FIELDS = ['createdAt'] as const;

/** `GET /api/admin/ledger` (and `export.csv`): newest first; from/to are inclusive instants (to the millisecond). */
export const listLedgerQuerySchema = pagingQuerySchema.extend({
  customerId: z.uuid().optional(),
  programId: z.uuid().optional(),
  merchantId: z.uuid().optional(),
  kind: ledgerKindSchema.optional(),
  source: ledgerSourceSchema.optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  sort: z.enum(LEDGER_SORT_FIELDS).default('createdAt'),
  order: sortOrderSchema.default('desc'),
});
export type ListLedgerQuery = z.infer<typeof listLedgerQuerySchema>;
export const exportLedgerQuerySchema = listLedgerQuerySchema.omit({ page: true, pageSize: true });

/**
 * What a reason the platform wrote itself says, as data, so that each reader gets it in their language
 * (the stored `reason` is the Italian text it was written with, and stays: the ledger is append-only).
 * Read from what the entry carries, so old entries read as well as new ones: a referral bonus by its
 * idempotency key (`referral:referee:<customer>` / `referral:referrer:<referee>`), a birthday bonus by
 * its key's year (`birthday:<customer>:<program>:<year>`), a till's receipt by the integration API's key
 * (`int:…`) and the `Scontrino <n>` it wrote, an import's default reason (`Saldo iniziale`) by the
 * import's key (`import:…`). A reason a person typed (an adjustment's note, a CSV's own reason) has none.
 */
export const LEDGER_SYSTEM_REASON_KINDS = ['referralReferee', 'referralReferrer', 'birthday', 'receipt', 'openingBalance'] as const;
export type LedgerSystemReasonKind = (typeof LEDGER_SYSTEM_REASON_KINDS)[number];
export const ledgerSystemReasonSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('referralReferee') }),
  z.object({ kind: z.literal('referralReferrer') }),
  z.object({ kind: z.literal('birthday'), year: z.number().int() }),
  z.object({ kind: z.literal('receipt'), receipt: z.string() }),
  z.object({ kind: z.literal('openingBalance') }),
]);
export type LedgerSystemReason = z.infer<typeof ledgerSystemReasonSchema>;

/** A list row: the entry and whose it is (null: the customer was erased; the entry and its figures stay). */
export const ledgerListEntrySchema = ledgerEntrySchema.extend({
  customer: z.object({ firstName: z.string(), lastName: z.string(), cardNumber: z.string() }).nullable(),
  /**
   * The social-action proof whose approval wrote this entry (the proof's `entryId`), else null. Read with
   * the entry, not from its `reason`: the screens name the bonus by it in the reader's language, and
   * entries written before the reason was worded (`share #5`) read as well as the new ones.
   */
  proof: z.object({ id: z.number().int(), kind: proofKindSchema }).nullable(),
  /** A reason the platform wrote itself, as data (ledgerSystemReasonSchema), else null: `reason` is then read as it is. */
  systemReason: ledgerSystemReasonSchema.nullable(),
  /**
   * Who made it as people read it: the staff member's name (their e-mail when they have none); null when
   * no staff member did (the system, an API key: `createdByLabel` says which).
   */
  createdByName: z.string().nullable(),
});
export type LedgerListEntry = z.infer<typeof ledgerListEntrySchema>;

/**
 * A page of the ledger. `total` counts every matching entry; when more than 100,000 match it is exact
 * only where the dashboard's rollups answer it (no customer filter, a period of whole business days),
 * else `totalIsCapped` says "at least". `sums`: the matching entries' points and stamps, whenever
 * `total` is exact (null otherwise).
 */
export const ledgerPageSchema = listPageSchema(ledgerListEntrySchema).extend({
  totalIsCapped: z.boolean(),
  sums: z.object({ points: z.number().int(), stamps: z.number().int() }).nullable(),
});
export type LedgerPage = z.infer<typeof ledgerPageSchema>;

export const customerIdParamSchema = z.object({ id: z.uuid() });

/** Error codes of the ledger (also listed in errors.ts), with their texts in both languages. */
export const LEDGER_ERROR_CODES = [
  'insufficient_balance',
  'already_reversed',
  'idempotency_key_reused',
  'idempotency_key_in_flight',
] as const;
export type LedgerErrorCode = (typeof LEDGER_ERROR_CODES)[number];


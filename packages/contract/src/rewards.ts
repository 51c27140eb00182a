import { z } from 'zod';
import { exportQuerySchema, listPageSchema, listQuerySchema } from './list-query.ts';
import { ledgerEntrySchema } from './ledger.ts';
import { programTypeSchema } from './programs.ts';
import { ruleAcrossFields } from './validation.ts';

/**
 * Premi (rewards), their vouchers and redemptions (docs/product.md D "Reward", F; decision record 015).
 *
 * - A reward belongs to one program; its `cost` is in the program's unit (points for a points
 *   program, stamps for a stamp card: `costUnit`).
 * - `stock` is how many redemptions are left (null: unlimited); a redemption takes one, atomically,
 *   and never below zero.
 * - A voucher is the proof of one redemption: a code issued to a customer, used once at a merchant of
 *   the reward's program, within the reward's validity window. Codes may also be generated or
 *   imported ahead (status `available`): a redemption hands out the oldest available code before it
 *   mints a new one.
 */
export const REWARD_STATUSES = ['draft', 'active', 'archived'] as const;
export const rewardStatusSchema = z.enum(REWARD_STATUSES);
export type RewardStatus = z.infer<typeof rewardStatusSchema>;

/** Stored voucher states; `expired` is derived (an available or issued code past the reward's window). */
export const VOUCHER_STATUSES = ['available', 'issued', 'used', 'expired', 'void'] as const;
export const voucherStatusSchema = z.enum(VOUCHER_STATUSES);
export type VoucherStatus = z.infer<typeof voucherStatusSchema>;

export const REWARD_BOUNDS = {
  nameMax: 120,
  descriptionMax: 2000,
  costMax: 1_000_000,
  stockMax: 10_000_000,
  limitPerCustomerMax: 1000,
  /** One generation request makes at most this many codes. */
  generateMax: 10_000,
  /** One CSV import carries at most this many codes (and 1 MB). */
  importMax: 10_000,
  importBytesMax: 1024 * 1024,
  codeMin: 4,
  codeMax: 40,
  generatedCodeLength: 10,
} as const;

/**
 * Generated codes use 32 characters that cannot be mistaken for one another when read aloud or
 * typed from paper: no 0/O, 1/I/L. 10 characters = 50 random bits.
 */
export const VOUCHER_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** How a typed or scanned code is compared: spaces and dashes dropped, upper case. */
export function normalizeVoucherCode(code: string): string {
  return code.replace(/[\s-]+/g, '').toUpperCase();
}

/** Imported codes: letters, digits and dashes; compared after normalizeVoucherCode. */
export const voucherCodeSchema = z
  .string()
  .trim()
  .min(REWARD_BOUNDS.codeMin)
  .max(REWARD_BOUNDS.codeMax)
  .regex(/^[A-Za-z0-9][A-Za-z0-9 -]*$/);

export const rewardSchema = z.object({
  id: z.uuid(),
  programId: z.uuid(),
  programName: z.string(),
  /** The unit of `cost`: the program's type (points or stamps). */
  costUnit: programTypeSchema,
  name: z.string(),
  description: z.string(),
  /** An uploaded image's id (POST /api/admin/rewards/image), and where to read it. */
  imageId: z.string().nullable(),
  imageUrl: z.string().nullable(),
  cost: z.number().int(),
  /** Redemptions left; null = unlimited. */
  stock: z.number().int().nullable(),
  /** The window: its first and last business days (`YYYY-MM-DD` in BUSINESS_TIME_ZONE), both included. */
  validFrom: z.iso.date().nullable(),
  validUntil: z.iso.date().nullable(),
  /** How many vouchers one customer may get (void ones do not count); null = no limit. */
  limitPerCustomer: z.number().int().nullable(),
  status: rewardStatusSchema,
  /** Vouchers by status (expired counted apart from available/issued). */
  vouchers: z.object({
    available: z.number().int(),
    issued: z.number().int(),
    used: z.number().int(),
    expired: z.number().int(),
    void: z.number().int(),
  }),
  version: z.number().int(),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
});
export type Reward = z.infer<typeof rewardSchema>;

const rewardFields = {
  programId: z.uuid(),
  name: z.string().trim().min(1).max(REWARD_BOUNDS.nameMax),
  description: z.string().trim().max(REWARD_BOUNDS.descriptionMax),
  imageId: z.string().min(1).max(100).nullable(),
  cost: z.number().int().min(1).max(REWARD_BOUNDS.costMax),
  stock: z.number().int().min(0).max(REWARD_BOUNDS.stockMax).nullable(),
  validFrom: z.iso.date().nullable(),
  validUntil: z.iso.date().nullable(),
  limitPerCustomer: z.number().int().min(1).max(REWARD_BOUNDS.limitPerCustomerMax).nullable(),
  status: rewardStatusSchema,
};

function windowIssue(value: { validFrom?: string | null | undefined; validUntil?: string | null | undefined }, ctx: z.RefinementCtx) {
  // Days compare as text; a one-day window (from = until) is allowed.
  if (value.validFrom && value.validUntil && value.validFrom > value.validUntil) {
    ctx.addIssue({ code: 'custom', path: ['validUntil'], message: 'validUntil is before validFrom', params: { messageKey: 'notBefore', after: 'validFrom' } });
  }
}

export const createRewardSchema = z
  .strictObject({
    ...rewardFields,
    description: rewardFields.description.default(''),
    imageId: rewardFields.imageId.default(null),
    stock: rewardFields.stock.default(null),
    validFrom: rewardFields.validFrom.default(null),
    validUntil: rewardFields.validUntil.default(null),
    limitPerCustomer: rewardFields.limitPerCustomer.default(null),
    status: rewardFields.status.default('draft'),
  })
  .check(ruleAcrossFields(windowIssue));
export type CreateReward = z.infer<typeof createRewardSchema>;

/** A change with the `version` read (409 version_conflict); the program of a reward does not change. */
export const updateRewardSchema = z
  .strictObject({
    ...z.strictObject(rewardFields).omit({ programId: true }).partial().shape,
    version: z.number().int().min(1),
  })
  .check(ruleAcrossFields(windowIssue));
export type UpdateReward = z.infer<typeof updateRewardSchema>;

export const REWARD_SORT_FIELDS = ['name', 'cost', 'stock', 'status', 'validUntil', 'createdAt'] as const;
export const listRewardsQuerySchema = listQuerySchema({
  sort: REWARD_SORT_FIELDS,
  defaultSort: 'name',
  defaultOrder: 'asc',
  filters: {
    programId: z.uuid().optional(),
    status: rewardStatusSchema.optional(),
  },
});
export type ListRewardsQuery = z.infer<typeof listRewardsQuerySchema>;
export const exportRewardsQuerySchema = exportQuerySchema(listRewardsQuerySchema);
export const rewardPageSchema = listPageSchema(rewardSchema);
export type RewardPage = z.infer<typeof rewardPageSchema>;

export const voucherSchema = z.object({
  id: z.number().int(),
  rewardId: z.uuid(),
  code: z.string(),
  status: voucherStatusSchema,
  /** `generated` by us, `imported` from CSV, or `issued` on redemption when no code was waiting. */
  origin: z.enum(['generated', 'imported', 'redemption']),
  customerId: z.uuid().nullable(),
  customerName: z.string().nullable(),
  /** The `redeem` ledger entry that paid for it. */
  entryId: z.number().int().nullable(),
  issuedAt: z.iso.datetime({ offset: true }).nullable(),
  usedAt: z.iso.datetime({ offset: true }).nullable(),
  usedMerchantId: z.uuid().nullable(),
  voidedAt: z.iso.datetime({ offset: true }).nullable(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type Voucher = z.infer<typeof voucherSchema>;

export const VOUCHER_SORT_FIELDS = ['createdAt', 'code', 'status', 'issuedAt', 'usedAt'] as const;
export const listVouchersQuerySchema = listQuerySchema({
  sort: VOUCHER_SORT_FIELDS,
  defaultSort: 'createdAt',
  defaultOrder: 'desc',
  filters: {
    status: voucherStatusSchema.optional(),
    customerId: z.uuid().optional(),
  },
});
export type ListVouchersQuery = z.infer<typeof listVouchersQuerySchema>;
export const exportVouchersQuerySchema = exportQuerySchema(listVouchersQuerySchema);
export const voucherPageSchema = listPageSchema(voucherSchema);
export type VoucherPage = z.infer<typeof voucherPageSchema>;

/** `POST /api/admin/rewards/:id/vouchers` as JSON: generate `count` new codes. */
export const generateVouchersSchema = z.strictObject({
  count: z.number().int().min(1).max(REWARD_BOUNDS.generateMax),
});
export type GenerateVouchers = z.infer<typeof generateVouchersSchema>;

/** The answer of a generation or an import (`dryRun`: nothing stored, the same report). */
export const voucherBatchResultSchema = z.object({
  dryRun: z.boolean(),
  /** Codes stored (or that would be). */
  created: z.number().int(),
  /** Rows refused, with why (row numbers count the header as row 1). */
  errors: z.array(z.object({ row: z.number().int(), code: z.string(), message: z.string() })),
  /**
   * Imported codes stored otherwise than written (spaces and dashes dropped, upper case: a till types
   * them either way), so the report says so rather than changing them silently. The first 50.
   */
  rewritten: z.array(z.object({ row: z.number().int(), from: z.string(), to: z.string() })),
  rewrittenCount: z.number().int(),
  /**
   * With a limited stock: codes waiting for a redemption (after this batch) and the stock left. More
   * codes than stock are allowed (stock can grow), and said: those beyond it wait until it does.
   */
  stock: z.object({ waiting: z.number().int(), left: z.number().int() }).nullable(),
});
export type VoucherBatchResult = z.infer<typeof voucherBatchResultSchema>;

/** `POST /api/admin/redemptions` (with an Idempotency-Key header). */
export const createRedemptionSchema = z.strictObject({
  customerId: z.uuid(),
  rewardId: z.uuid(),
  /** Where the reward is handed over: an active merchant of the reward's program, written on the entry. */
  merchantId: z.uuid().optional(),
});
export type CreateRedemption = z.infer<typeof createRedemptionSchema>;

export const redemptionResultSchema = z.object({
  entry: ledgerEntrySchema,
  voucher: z.object({ id: z.number().int(), code: z.string(), validUntil: z.iso.date().nullable() }),
});
export type RedemptionResult = z.infer<typeof redemptionResultSchema>;

/** `POST /api/admin/vouchers/:code/use`. */
export const useVoucherSchema = z.strictObject({ merchantId: z.uuid() });
export type UseVoucher = z.infer<typeof useVoucherSchema>;
/** Any text a till may read (an unknown code is a 404, not a 400). */
export const voucherCodeParamSchema = z.object({ code: z.string().trim().min(1).max(REWARD_BOUNDS.codeMax) });

/** What a till learns about a code (check, and the answer of a use). */
export const voucherCheckSchema = z.object({
  code: z.string(),
  status: voucherStatusSchema,
  /** True when `use` at this merchant would succeed now. */
  usable: z.boolean(),
  /** Why not, as an error code (voucher_used, voucher_expired, voucher_not_issued, voucher_void, voucher_wrong_merchant, voucher_not_yet_valid). */
  reason: z.string().nullable(),
  reward: z.object({ id: z.uuid(), name: z.string(), programId: z.uuid() }),
  customerId: z.uuid().nullable(),
  issuedAt: z.iso.datetime({ offset: true }).nullable(),
  usedAt: z.iso.datetime({ offset: true }).nullable(),
  validFrom: z.iso.date().nullable(),
  validUntil: z.iso.date().nullable(),
});
export type VoucherCheck = z.infer<typeof voucherCheckSchema>;

export const voucherIdParamSchema = z.object({ id: z.uuid(), voucherId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/** Error codes of rewards and vouchers (also listed in errors.ts), with their texts. */
export const REWARD_ERROR_CODES = [
  'out_of_stock',
  'reward_not_available',
  'reward_limit_reached',
  'voucher_used',
  'voucher_expired',
  'voucher_not_yet_valid',
  'voucher_not_issued',
  'voucher_void',
  'voucher_wrong_merchant',
  /** Reversing a redemption whose voucher was used at a till (issue 30, M1). */
  'redemption_voucher_used',
] as const;
export type RewardErrorCode = (typeof REWARD_ERROR_CODES)[number];


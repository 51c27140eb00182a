import { z } from 'zod';
import { exportQuerySchema, listPageSchema, listQuerySchema } from './list-query.ts';
import { ruleAcrossFields } from './validation.ts';

export const PROGRAM_TYPES = ['points', 'stamps'] as const;
export const programTypeSchema = z.enum(PROGRAM_TYPES);
export type ProgramType = z.infer<typeof programTypeSchema>;

export const PROGRAM_STATUSES = ['draft', 'active', 'closed'] as const;
export const programStatusSchema = z.enum(PROGRAM_STATUSES);
export type ProgramStatus = z.infer<typeof programStatusSchema>;

/** Points earned in a rolling 12 months, or in the calendar year, decide the tier. */
export const TIER_WINDOWS = ['rolling12', 'calendarYear'] as const;
export const tierWindowSchema = z.enum(TIER_WINDOWS);

export const EXPIRY_POLICIES = ['never', 'afterDays', 'endOfYear'] as const;
export const expiryPolicySchema = z.enum(EXPIRY_POLICIES);
export type ExpiryPolicy = z.infer<typeof expiryPolicySchema>;

export const BONUS_KINDS = ['referrer', 'referee', 'share', 'review', 'checkIn', 'birthday'] as const;
export type BonusKind = (typeof BONUS_KINDS)[number];

export const tierSchema = z.strictObject({
  name: z.string().trim().min(1).max(50),
  minPoints: z.number().int().min(0).max(100_000_000),
  /** Earning multiplier, e.g. 1.5 (two decimals at most). */
  multiplier: z.number().min(1).max(10).multipleOf(0.01),
});
export type Tier = z.infer<typeof tierSchema>;

export const bonusSchema = z.strictObject({
  points: z.number().int().min(0).max(1_000_000),
  /** How many times a member may get it per month (0: no limit). */
  capPerMonth: z.number().int().min(0).max(1000),
});
export type Bonus = z.infer<typeof bonusSchema>;

export const bonusesSchema = z.strictObject({
  referrer: bonusSchema,
  referee: bonusSchema,
  share: bonusSchema,
  review: bonusSchema,
  checkIn: bonusSchema,
  birthday: bonusSchema,
});
export type Bonuses = z.infer<typeof bonusesSchema>;

const noBonus = { points: 0, capPerMonth: 0 };
export const NO_BONUSES: Bonuses = {
  referrer: noBonus,
  referee: noBonus,
  share: noBonus,
  review: noBonus,
  checkIn: noBonus,
  birthday: noBonus,
};

export const expirySchema = z.strictObject({
  policy: expiryPolicySchema,
  /** Days after earning, for `afterDays`; null otherwise. */
  days: z.number().int().min(1).max(3650).nullable(),
});
export type Expiry = z.infer<typeof expirySchema>;

/**
 * The expiry a client sends: `days` applies to `afterDays` only, so it may be left out otherwise
 * (`{ policy: 'never' }`) and is then null (issue 26: a field that does not apply is optional).
 */
const expiryInputSchema = z.strictObject({
  policy: expiryPolicySchema,
  days: expirySchema.shape.days.default(null),
});

/** A wallet colour: `#rrggbb`, lower-cased (what Apple's `rgb()` and Google's hex both take). */
export const walletColorSchema = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/)
  .transform((value) => value.toLowerCase());

/** The largest logo, as its data: URL (about 64 KiB of PNG): a pass is downloaded over phone networks. */
export const WALLET_LOGO_MAX_CHARS = 90_000;
export const PROGRAM_TERMS_MAX = 2000;

/** The program's logo for the pass and the card page: a PNG, as a `data:image/png;base64,…` URL. */
export const walletLogoSchema = z
  .string()
  .max(WALLET_LOGO_MAX_CHARS)
  .regex(/^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/);

export const programSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  type: programTypeSchema,
  merchantIds: z.array(z.uuid()),
  status: programStatusSchema,
  /** Points per euro (a decimal, rounded down per transaction); null for stamp cards. */
  pointsPerEuro: z.number().nullable(),
  minSpendCents: z.number().int().nullable(),
  stampsRequired: z.number().int().nullable(),
  maxStampsPerDay: z.number().int().nullable(),
  maxStampsPerTransaction: z.number().int().nullable(),
  tiers: z.array(tierSchema),
  tierWindow: tierWindowSchema,
  expiry: expirySchema,
  bonuses: bonusesSchema,
  /** The wallet pass's and the card page's look (issue 27): colours `#rrggbb`, a PNG logo as a data: URL. */
  walletBackgroundColor: z.string().nullable(),
  walletForegroundColor: z.string().nullable(),
  walletLogo: z.string().nullable(),
  /** Printed on the back of the wallet pass and on the card page. */
  terms: z.string().nullable(),
  version: z.number().int(),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
});
export type Program = z.infer<typeof programSchema>;

/** The largest minimum spend for points (cents): 1,000,000.00 €. */
const MIN_SPEND_CENTS_MAX = 100_000_000;

const programFields = {
  name: z.string().trim().min(1).max(120),
  type: programTypeSchema,
  /** One merchant, or the merchants of a circuit. */
  merchantIds: z.array(z.uuid()).min(1).max(500),
  status: programStatusSchema,
  pointsPerEuro: z.number().positive().max(1000).multipleOf(0.01).nullable(),
  // In cents, typed in euro: the bound is said in euro ("al massimo 1.000.000,00 €"), not as 100.000.000.
  minSpendCents: z
    .number()
    .int()
    .min(0)
    .refine((cents) => cents <= MIN_SPEND_CENTS_MAX, { message: 'minSpendCents is too large', params: { messageKey: 'maxAmount', max: MIN_SPEND_CENTS_MAX / 100 } })
    .nullable(),
  stampsRequired: z.number().int().min(1).max(100).nullable(),
  maxStampsPerDay: z.number().int().min(1).max(100).nullable(),
  maxStampsPerTransaction: z.number().int().min(1).max(100).nullable(),
  tiers: z.array(tierSchema).max(10),
  tierWindow: tierWindowSchema,
  expiry: expiryInputSchema,
  bonuses: bonusesSchema,
  walletBackgroundColor: walletColorSchema.nullable(),
  walletForegroundColor: walletColorSchema.nullable(),
  walletLogo: walletLogoSchema.nullable(),
  terms: z.string().trim().max(PROGRAM_TERMS_MAX).nullable(),
};

type ProgramRules = {
  type?: ProgramType | undefined;
  pointsPerEuro?: number | null | undefined;
  stampsRequired?: number | null | undefined;
  tiers?: Tier[] | undefined;
  expiry?: Expiry | undefined;
  merchantIds?: string[] | undefined;
};

/**
 * The rules across fields, shared by create and (on the merged result) update: a points program
 * needs its rate, a stamp card its number of stamps; tiers climb; `afterDays` needs its days.
 */
export type ProgramRuleIssue = { path: (string | number)[]; messageKey: 'required' | 'invalid' | 'tierNameRepeated' | 'tierAbovePrevious'; min?: number };

export function programRuleIssues(program: ProgramRules): ProgramRuleIssue[] {
  const issues: ProgramRuleIssue[] = [];
  if (program.type === 'points' && (program.pointsPerEuro === null || program.pointsPerEuro === undefined)) {
    issues.push({ path: ['pointsPerEuro'], messageKey: 'required' });
  }
  if (program.type === 'stamps' && (program.stampsRequired === null || program.stampsRequired === undefined)) {
    issues.push({ path: ['stampsRequired'], messageKey: 'required' });
  }
  if (program.expiry?.policy === 'afterDays' && program.expiry.days === null) {
    issues.push({ path: ['expiry', 'days'], messageKey: 'required' });
  }
  const tiers = program.tiers ?? [];
  const names = new Set<string>();
  tiers.forEach((tier, index) => {
    const key = tier.name.toLowerCase();
    // Each says the rule it breaks, not only "non è valido".
    if (names.has(key)) issues.push({ path: ['tiers', index, 'name'], messageKey: 'tierNameRepeated' });
    names.add(key);
    const previous = tiers[index - 1];
    if (previous && tier.minPoints <= previous.minPoints) issues.push({ path: ['tiers', index, 'minPoints'], messageKey: 'tierAbovePrevious', min: previous.minPoints });
  });
  if (program.merchantIds && new Set(program.merchantIds).size !== program.merchantIds.length) {
    issues.push({ path: ['merchantIds'], messageKey: 'invalid' });
  }
  return issues;
}

export const createProgramSchema = z
  .strictObject({
    ...programFields,
    status: programFields.status.default('draft'),
    pointsPerEuro: programFields.pointsPerEuro.default(null),
    minSpendCents: programFields.minSpendCents.default(null),
    stampsRequired: programFields.stampsRequired.default(null),
    maxStampsPerDay: programFields.maxStampsPerDay.default(null),
    maxStampsPerTransaction: programFields.maxStampsPerTransaction.default(null),
    tiers: programFields.tiers.default([]),
    tierWindow: programFields.tierWindow.default('rolling12'),
    expiry: programFields.expiry.default({ policy: 'never', days: null }),
    bonuses: programFields.bonuses.default(NO_BONUSES),
    walletBackgroundColor: programFields.walletBackgroundColor.default(null),
    walletForegroundColor: programFields.walletForegroundColor.default(null),
    walletLogo: programFields.walletLogo.default(null),
    terms: programFields.terms.default(null),
  })
  .check(
    ruleAcrossFields((value, context) => {
      for (const issue of programRuleIssues(value)) {
        context.addIssue({ code: 'custom', path: issue.path, params: { messageKey: issue.messageKey, ...(issue.min === undefined ? {} : { min: issue.min }) } });
      }
    }),
  );
export type CreateProgram = z.infer<typeof createProgramSchema>;

/** A change with the `version` read; the rules across fields are checked on the merged program. */
export const updateProgramSchema = z.strictObject({
  ...z.strictObject(programFields).partial().shape,
  version: z.number().int().min(1),
});
export type UpdateProgram = z.infer<typeof updateProgramSchema>;

export const PROGRAM_SORT_FIELDS = ['name', 'type', 'status', 'createdAt', 'updatedAt'] as const;

export const listProgramsQuerySchema = listQuerySchema({
  sort: PROGRAM_SORT_FIELDS,
  defaultSort: 'name',
  defaultOrder: 'asc',
  filters: {
    status: programStatusSchema.optional(),
    type: programTypeSchema.optional(),
    merchantId: z.uuid().optional(),
  },
});
export type ListProgramsQuery = z.infer<typeof listProgramsQuerySchema>;
export const exportProgramsQuerySchema = exportQuerySchema(listProgramsQuerySchema);
export const programPageSchema = listPageSchema(programSchema);

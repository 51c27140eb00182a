import { z } from 'zod';
import { listPageSchema, listQuerySchema, exportQuerySchema } from './list-query.ts';
import { amountIssue, expiringPointsSchema, LEDGER_BOUNDS, membershipSchema } from './ledger.ts';
import { consentInputSchema, consentPurposeSchema, createCustomerSchema } from './customers.ts';
import { BOUNDS, keyed, ruleAcrossFields } from './validation.ts';
import { voucherCheckSchema } from './rewards.ts';
import { proofKindSchema, proofUrlSchema, PROOF_BOUNDS, proofStatusSchema } from './social-proofs.ts';
import { cardCodeSchema, cardReferenceSchema } from './customer-cards.ts';

/**
 * The integration API (`/api/integration/v1`, docs/product.md D "Integration API", F) and its keys
 * (`/api/admin/api-keys`). A key belongs to one merchant's till or to the customers' app, and carries
 * scopes: what it may do.
 */
export const API_KEY_SCOPES = ['purchases:write', 'cards:read', 'proofs:write', 'vouchers:use', 'rewards:redeem', 'customers:write'] as const;
export const apiKeyScopeSchema = z.enum(API_KEY_SCOPES);
export type ApiKeyScope = z.infer<typeof apiKeyScopeSchema>;

export const API_KEY_KINDS = ['merchant', 'app'] as const;
export const apiKeyKindSchema = z.enum(API_KEY_KINDS);
export type ApiKeyKind = z.infer<typeof apiKeyKindSchema>;

/** What every secret starts with: tells a leaked key apart in logs and secret scanners. */
export const API_KEY_PREFIX = 'sfk_';

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: apiKeyKindSchema,
  merchantId: z.string().nullable(),
  merchantName: z.string().nullable(),
  scopes: z.array(apiKeyScopeSchema),
  /** The secret's first characters (`sfk_AbCd…`), to tell keys apart; never the secret. */
  prefix: z.string(),
  createdAt: z.iso.datetime({ offset: true }),
  createdBy: z.string().nullable(),
  /** Updated at most once a minute. */
  lastUsedAt: z.iso.datetime({ offset: true }).nullable(),
  revokedAt: z.iso.datetime({ offset: true }).nullable(),
  status: z.enum(['active', 'revoked']),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** `POST /api/admin/api-keys`: a merchant key names its merchant; the app's key names none. */
export const createApiKeySchema = z
  .strictObject({
    name: z.string().trim().min(1).max(100),
    kind: apiKeyKindSchema,
    merchantId: z.uuid().optional(),
    scopes: z.array(apiKeyScopeSchema).min(1).max(API_KEY_SCOPES.length),
  })
  .check(
    ruleAcrossFields((value, ctx) => {
      if (value.kind === 'merchant' && value.merchantId === undefined) {
        ctx.addIssue({ code: 'custom', path: ['merchantId'], message: 'merchantId is required', ...keyed('required') });
      }
      if (value.kind === 'app' && value.merchantId !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['merchantId'], message: 'merchantId is not valid', ...keyed('invalid') });
      }
      // A purchase happens at a merchant: the app's key may not record one.
      if (value.kind === 'app' && value.scopes?.includes('purchases:write')) {
        ctx.addIssue({ code: 'custom', path: ['scopes'], message: 'scopes is not valid', ...keyed('invalid') });
      }
      // Signing people up is the customers' app's: a merchant's till may not create customers.
      if (value.kind === 'merchant' && value.scopes?.includes('customers:write')) {
        ctx.addIssue({ code: 'custom', path: ['scopes'], message: 'scopes is not valid', ...keyed('invalid') });
      }
    }),
  );
export type CreateApiKey = z.infer<typeof createApiKeySchema>;

/** The answer to a creation: the only time the secret is shown. */
export const createdApiKeySchema = z.object({ key: apiKeySchema, secret: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const API_KEY_SORT_FIELDS = ['createdAt', 'name', 'lastUsedAt'] as const;
export const listApiKeysQuerySchema = listQuerySchema({
  sort: API_KEY_SORT_FIELDS,
  defaultSort: 'createdAt',
  defaultOrder: 'desc',
  filters: {
    status: z.enum(['active', 'revoked']).optional(),
    kind: apiKeyKindSchema.optional(),
    merchantId: z.uuid().optional(),
  },
});
export type ListApiKeysQuery = z.infer<typeof listApiKeysQuerySchema>;
export const exportApiKeysQuerySchema = exportQuerySchema(listApiKeysQuerySchema);
export const apiKeyPageSchema = listPageSchema(apiKeySchema);
export type ApiKeyPage = z.infer<typeof apiKeyPageSchema>;

// ---- /api/integration/v1 ------------------------------------------------------------------------

/**
 * A card in a request (decision record 030): `cardNumber` is the number alone or the scanned form
 * `<13 digits>-<code>` (what the card's QR code and barcode carry: a till may pass it verbatim), and
 * `cardCode` the code on its own. Spending needs the code; so does everything an `app` key does.
 */
const cardFields = {
  cardNumber: cardReferenceSchema,
  cardCode: cardCodeSchema.optional(),
};

/** `GET /cards/:cardNumber`: the number, or the scanned form; the code may come in `X-Card-Code` instead. */
export const cardNumberParamSchema = z.object({ cardNumber: cardReferenceSchema });
export const cardCodeHeadersSchema = z.object({ 'x-card-code': cardCodeSchema.optional() });

/** `POST /api/integration/v1/purchases` (with `Idempotency-Key`). */
export const integrationPurchaseSchema = z.strictObject({
  ...cardFields,
  /** More than zero: a 0 € purchase is refused (400 naming `amountCents`). */
  amountCents: z.number().int(),
  /** Stamps programs: how many stamps (default 1, within the caps). */
  stamps: z.number().int().min(1).max(LEDGER_BOUNDS.stampsMax).optional(),
  /** Needed only when the merchant takes part in more than one active program. */
  programId: z.uuid().optional(),
  /** The key's own merchant (default); another merchant is refused with 403. */
  merchantId: z.uuid().optional(),
  /** The till's receipt number, kept as the entry's reason. */
  receipt: z.string().trim().min(1).max(100).optional(),
}).check(ruleAcrossFields((value, ctx) => {
  if (value.amountCents !== undefined) amountIssue(ctx, ['amountCents'], value.amountCents);
}));
export type IntegrationPurchase = z.infer<typeof integrationPurchaseSchema>;

export const integrationMembershipSchema = z.object({
  programId: z.string(),
  programName: z.string(),
  programType: z.enum(['points', 'stamps']),
  balance: z.number().int(),
  stamps: z.number().int(),
  stampsRequired: z.number().int().nullable(),
  tier: z.string().nullable(),
  /** Points expiring in the next 30 days, soonest first. */
  expiring: z.array(expiringPointsSchema),
});

export const integrationPurchaseResultSchema = z.object({
  entryId: z.number().int(),
  cardNumber: z.string(),
  programId: z.string(),
  merchantId: z.string(),
  points: z.number().int(),
  stamps: z.number().int(),
  amountCents: z.number().int().nullable(),
  balance: z.number().int(),
  stampsBalance: z.number().int(),
  tier: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type IntegrationPurchaseResult = z.infer<typeof integrationPurchaseResultSchema>;

export const rewardWithinReachSchema = z.object({
  id: z.string(),
  programId: z.string(),
  name: z.string(),
  costPoints: z.number().int().nullable(),
  costStamps: z.number().int().nullable(),
  /** True when the balance already covers it; else how much is missing. */
  isAffordable: z.boolean(),
  missing: z.number().int(),
});

/** `GET /api/integration/v1/cards/:cardNumber`: no personal data beyond the initials. */
export const integrationCardSchema = z.object({
  /** The number alone (never the code). */
  cardNumber: z.string(),
  initials: z.string(),
  status: z.string(),
  memberships: z.array(integrationMembershipSchema),
  /** Active rewards of those programs, cheapest still missing first (at most 10). */
  rewardsWithinReach: z.array(rewardWithinReachSchema),
});
export type IntegrationCard = z.infer<typeof integrationCardSchema>;

/** A voucher as a till sees it: no customer id (the till knows the card it scanned). */
export const integrationVoucherSchema = voucherCheckSchema.omit({ customerId: true });
export type IntegrationVoucher = z.infer<typeof integrationVoucherSchema>;

/** `POST /api/integration/v1/redemptions` (with `Idempotency-Key`). */
export const integrationRedemptionSchema = z.strictObject({
  ...cardFields,
  rewardId: z.uuid(),
});
export type IntegrationRedemption = z.infer<typeof integrationRedemptionSchema>;

export const integrationRedemptionResultSchema = z.object({
  entryId: z.number().int(),
  programId: z.string(),
  /** Taken: negative points (or stamps for a stamp card). */
  points: z.number().int(),
  stamps: z.number().int(),
  balance: z.number().int(),
  stampsBalance: z.number().int(),
  /** The last business day (BUSINESS_TIME_ZONE) the voucher may be used, included. */
  voucher: z.object({ code: z.string(), validUntil: z.iso.date().nullable() }),
});
export type IntegrationRedemptionResult = z.infer<typeof integrationRedemptionResultSchema>;

/** `POST /api/integration/v1/proofs`: a link and/or a screenshot uploaded with `POST /proofs/image`. */
export const integrationProofSchema = z
  .strictObject({
    ...cardFields,
    programId: z.uuid(),
    kind: proofKindSchema,
    url: proofUrlSchema.optional(),
    imageId: z.string().min(1).max(100).optional(),
    note: z.string().trim().max(PROOF_BOUNDS.noteMax).optional(),
  })
  .check(
    ruleAcrossFields((value, ctx) => {
      if (value.url === undefined && value.imageId === undefined) {
        ctx.addIssue({ code: 'custom', path: ['url'], message: 'url is required', ...keyed('required') });
      }
    }),
  );
export type IntegrationProof = z.infer<typeof integrationProofSchema>;

export const integrationProofResultSchema = z.object({
  id: z.number().int(),
  kind: proofKindSchema,
  status: proofStatusSchema,
  createdAt: z.iso.datetime({ offset: true }),
});


/**
 * `POST /api/integration/v1/customers` (an `app` key with `customers:write`, and `Idempotency-Key`):
 * the customers' app signs a person up in one program (decision 035). The consents are the person's
 * own, given in the app: their channel is recorded as `app`.
 */
export const integrationCustomerSchema = z.strictObject({
  ...createCustomerSchema.pick({ firstName: true, lastName: true, phone: true, birthDate: true, referrerCode: true, language: true }).shape,
  email: z.email().max(BOUNDS.emailMax),
  consents: z.partialRecord(consentPurposeSchema, consentInputSchema.omit({ channel: true })).optional(),
  /** The active program the person joins; its welcome e-mail (when on) is the one sent. */
  programId: z.uuid(),
});
export type IntegrationCustomer = z.infer<typeof integrationCustomerSchema>;

/** The new customer as the app needs them: the card number (never its secret code: decision 030), the referral code, the membership. */
export const integrationCustomerResultSchema = z.object({
  customerId: z.string(),
  cardNumber: z.string(),
  referralCode: z.string(),
  membership: membershipSchema.pick({ id: true, programId: true, balance: true, stamps: true, tier: true, joinedAt: true }),
});
export type IntegrationCustomerResult = z.infer<typeof integrationCustomerResultSchema>;

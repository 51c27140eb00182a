import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as customers from './customers.ts';
import * as integration from './integration.ts';
import * as ledger from './ledger.ts';
import { fieldLabel, message } from './messages.ts';
import * as merchants from './merchants.ts';
import * as news from './news.ts';
import * as privacy from './privacy.ts';
import * as profile from './profile.ts';
import * as programs from './programs.ts';
import * as rewards from './rewards.ts';
import * as socialProofs from './social-proofs.ts';
import { issueMessage } from './validation.ts';

/** The keys of every object inside a schema (nested objects, arrays, optional/default wrappers, pipes). */
function keysOf(schema: unknown, found = new Set<string>(), depth = 0): Set<string> {
  const def = (schema as { _zod?: { def?: Record<string, unknown> } } | null)?._zod?.def;
  if (!def || depth > 8) return found;
  if (def['type'] === 'object') {
    for (const [key, value] of Object.entries(def['shape'] as Record<string, unknown>)) {
      found.add(key);
      keysOf(value, found, depth + 1);
    }
  }
  for (const inner of ['innerType', 'in', 'out', 'element', 'left', 'right']) if (def[inner]) keysOf(def[inner], found, depth + 1);
  if (Array.isArray(def['options'])) for (const option of def['options']) keysOf(option, found, depth + 1);
  return found;
}

/** Every body a person's form or a till sends: a 400 names its fields by their labels. */
const requests: Record<string, z.ZodType> = {
  updateProfile: profile.updateProfileRequestSchema,
  createCustomer: customers.createCustomerSchema,
  updateCustomer: customers.updateCustomerSchema,
  createMerchant: merchants.createMerchantSchema,
  updateMerchant: merchants.updateMerchantSchema,
  createProgram: programs.createProgramSchema,
  updateProgram: programs.updateProgramSchema,
  createReward: rewards.createRewardSchema,
  updateReward: rewards.updateRewardSchema,
  generateVouchers: rewards.generateVouchersSchema,
  createRedemption: rewards.createRedemptionSchema,
  useVoucher: rewards.useVoucherSchema,
  createLedgerEntry: ledger.createLedgerEntrySchema,
  createApiKey: integration.createApiKeySchema,
  integrationPurchase: integration.integrationPurchaseSchema,
  createPrivacyRequest: privacy.createPrivacyRequestSchema,
  decideSocialProofs: socialProofs.decideSocialProofsSchema,
  createSocialProof: socialProofs.createSocialProofSchema,
  createNewsPost: news.createNewsPostSchema,
};

describe('field names in messages', () => {
  for (const [name, schema] of Object.entries(requests)) {
    it(`labels every field of ${name} in Italian and English`, () => {
      const raw = [...keysOf(schema)].filter((key) => fieldLabel(key, 'it') === key || fieldLabel(key, 'en') === key);
      expect(raw).toEqual([]);
    });
  }

  it('names a reward\'s window by the form\'s labels and says why its end is refused, never "validUntil non è valido"', () => {
    const result = rewards.createRewardSchema.safeParse({ programId: '00000000-0000-4000-8000-000000000001', name: 'X', cost: 1, validFrom: '2026-07-01', validUntil: '2026-06-30' });
    expect(result.success).toBe(false);
    const issues = result.error?.issues ?? [];
    expect(issues.map((issue) => [issue.path.join('.'), issueMessage(issue, 'it'), issueMessage(issue, 'en')])).toEqual([
      ['validUntil', 'Valido fino al: la data non può venire prima di Valido dal', 'Valid until: the date cannot come before Valid from'],
    ]);
    expect(message('invalid', 'it', { field: 'validUntil' })).toBe('Valido fino al non è valido');
    // The same day is a one-day window, not an error.
    expect(rewards.createRewardSchema.safeParse({ programId: '00000000-0000-4000-8000-000000000001', name: 'X', cost: 1, validFrom: '2026-07-01', validUntil: '2026-07-01' }).success).toBe(true);
  });
});

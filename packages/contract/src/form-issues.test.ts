import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as auth from './auth.ts';
import * as campaigns from './campaigns.ts';
import * as customers from './customers.ts';
import * as integration from './integration.ts';
import * as ledger from './ledger.ts';
import * as merchants from './merchants.ts';
import * as news from './news.ts';
import * as privacy from './privacy.ts';
import * as programs from './programs.ts';
import * as rewards from './rewards.ts';
import * as serviceEmails from './service-emails.ts';
import * as socialProofs from './social-proofs.ts';
import * as invitations from './staff-invitations.ts';
import { issueField } from './validation.ts';

/**
 * One submit says every problem (QA: "forms report errors in rounds"). Each body mixes a badly
 * written field, empty required fields and, where the schema has one, a broken rule across fields:
 * every one of them must be named by the first answer, as the forms and the API's 400 show them.
 * (zod skips a `superRefine` of an object as soon as any of its fields has an issue: the rule's
 * error then appeared only on the next submit.)
 */
type Case = { schema: z.ZodType; input: Record<string, unknown>; fields: string[] };

const UUID = '00000000-0000-4000-8000-000000000001';
const EMPTY_ADDRESS = { street: '', city: '', province: '', postalCode: '' };
const merchant = {
  legalName: 'Bar Prova',
  signName: null,
  vatNumber: '12345678901',
  taxCode: null,
  sdiCode: null,
  pec: null,
  category: 'bar',
  address: EMPTY_ADDRESS,
  phone: null,
  email: null,
  website: null,
};

const cases: Record<string, Case> = {
  'merchant, a bad Partita IVA and no address': {
    schema: merchants.createMerchantSchema,
    input: merchant,
    fields: ['vatNumber', 'address.street', 'address.city', 'address.province', 'address.postalCode'],
  },
  'merchant, a bad Codice fiscale and telephone, SDI 0000000 without PEC': {
    schema: merchants.createMerchantSchema,
    input: { ...merchant, vatNumber: '00743110157', taxCode: 'ABC', phone: 'abc', sdiCode: '0000000' },
    fields: ['taxCode', 'phone', 'pec', 'address.street', 'address.city', 'address.province', 'address.postalCode'],
  },
  'merchant, a bad PEC': {
    schema: merchants.createMerchantSchema,
    input: { ...merchant, vatNumber: '00743110157', pec: 'pec' },
    fields: ['pec', 'address.street', 'address.city', 'address.province', 'address.postalCode'],
  },
  'service e-mail, a blank subject and an unknown placeholder in the other language': {
    schema: serviceEmails.updateServiceEmailSchema,
    input: { isEnabled: true, subjectIt: '', bodyIt: 'Ciao {{nome}}', subjectEn: 'Hi {{name}}', bodyEn: 'Balance: {{balance}}', version: 0 },
    fields: ['subjectIt', 'subjectEn', 'bodyEn'],
  },
  'merchant change': {
    schema: merchants.updateMerchantSchema,
    input: { legalName: '', vatNumber: 'IT123', address: EMPTY_ADDRESS, version: 1 },
    fields: ['legalName', 'vatNumber', 'address.street', 'address.city', 'address.province', 'address.postalCode'],
  },
  customer: {
    schema: customers.createCustomerSchema,
    input: { firstName: '', lastName: '', email: 'nobody', phone: 'abc', birthDate: '1800-01-01' },
    fields: ['firstName', 'lastName', 'email', 'phone', 'birthDate'],
  },
  'customer change': {
    schema: customers.updateCustomerSchema,
    input: { firstName: '', phone: 'abc', version: 1 },
    fields: ['firstName', 'phone'],
  },
  'staff invitation': {
    schema: invitations.createInvitationRequestSchema,
    input: { email: 'bad', displayName: '', role: 'editor' },
    fields: ['email', 'displayName'],
  },
  'accepted invitation': {
    schema: invitations.acceptInvitationRequestSchema,
    input: { token: 't', firstName: '', lastName: '', password: 'short' },
    fields: ['firstName', 'lastName', 'password'],
  },
  registration: {
    schema: auth.registerRequestSchema,
    input: { email: 'bad', password: 'short', firstName: '', lastName: '', acceptTerms: false },
    fields: ['email', 'password', 'firstName', 'lastName', 'acceptTerms'],
  },
  'points program without points per euro': {
    schema: programs.createProgramSchema,
    input: { name: '', type: 'points', merchantIds: [], walletBackgroundColor: 'red' },
    fields: ['name', 'merchantIds', 'walletBackgroundColor', 'pointsPerEuro'],
  },
  'program change': {
    schema: programs.updateProgramSchema,
    input: { name: '', walletForegroundColor: 'red', version: 1 },
    fields: ['name', 'walletForegroundColor'],
  },
  'reward ending before it starts': {
    schema: rewards.createRewardSchema,
    input: { programId: 'nope', name: '', cost: 0, validFrom: '2026-07-01', validUntil: '2026-06-30' },
    fields: ['programId', 'name', 'cost', 'validUntil'],
  },
  'reward of no cost ending before it starts': {
    schema: rewards.createRewardSchema,
    input: { programId: UUID, name: 'Caffè', cost: 'free', validFrom: '2026-07-01', validUntil: '2026-06-30' },
    fields: ['cost', 'validUntil'],
  },
  'reward change ending before it starts': {
    schema: rewards.updateRewardSchema,
    input: { name: '', validFrom: '2026-07-01', validUntil: '2026-06-30', version: 1 },
    fields: ['name', 'validUntil'],
  },
  'purchase of 0 €': {
    schema: ledger.createLedgerEntrySchema,
    input: { customerId: 'nope', programId: UUID, kind: 'purchase', amountCents: 0 },
    fields: ['customerId', 'amountCents'],
  },
  'purchase of 0 € for nobody': {
    schema: ledger.createLedgerEntrySchema,
    input: { programId: UUID, kind: 'purchase', amountCents: 0 },
    fields: ['customerId', 'amountCents'],
  },
  'bonus without a reason': {
    schema: ledger.createLedgerEntrySchema,
    input: { customerId: UUID, programId: 'nope', kind: 'bonus', points: 10 },
    fields: ['programId', 'reason'],
  },
  'privacy request': {
    schema: privacy.createPrivacyRequestSchema,
    input: { kind: 'access', customerId: '', receivedAt: 'yesterday' },
    fields: ['customerId', 'receivedAt'],
  },
  campaign: {
    schema: campaigns.createCampaignSchema,
    input: { name: '', subject: '', audience: { programId: 'nope', merchantId: null, tier: null, inactiveDays: null, birthdayMonth: null, joinedAfter: null } },
    fields: ['name', 'subject', 'audience.programId'],
  },
  'news post': {
    schema: news.createNewsPostSchema,
    input: { title: '', audienceId: 'nope' },
    fields: ['title', 'audienceId'],
  },
  'stamps program without stamps required, for nobody': {
    schema: programs.createProgramSchema,
    input: { name: 'Timbri', type: 'stamps' },
    fields: ['merchantIds', 'stampsRequired'],
  },
  'API key of a merchant without its merchant': {
    schema: integration.createApiKeySchema,
    input: { kind: 'merchant', scopes: ['customers:write'] },
    fields: ['name', 'merchantId', 'scopes'],
  },
  'social proof without link or screenshot': {
    schema: socialProofs.createSocialProofSchema,
    input: { customerId: 'nope', programId: UUID, kind: 'review' },
    fields: ['customerId', 'url'],
  },
  'rejection without a reason': {
    schema: socialProofs.decideSocialProofsSchema,
    input: { ids: [], decision: 'reject' },
    fields: ['ids', 'reason'],
  },
};

function fieldsOf(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input, { reportInput: true });
  return result.success ? [] : [...new Set(result.error.issues.map((issue) => issueField(issue)))].sort();
}

describe('one submit names every bad field', () => {
  for (const [name, { schema, input, fields }] of Object.entries(cases)) {
    it(name, () => {
      expect(fieldsOf(schema, input)).toEqual([...fields].sort());
    });
  }

  it('a rule across fields still runs with every field valid, and says nothing about a field with its own issue', () => {
    const valid = { ...merchant, vatNumber: '00743110157', address: { street: 'Via Roma 1', city: 'Milano', province: 'MI', postalCode: '20121' } };
    expect(fieldsOf(merchants.createMerchantSchema, { ...valid, sdiCode: '0000000' })).toEqual(['pec']);
    expect(fieldsOf(merchants.createMerchantSchema, { ...valid, sdiCode: '0000000', pec: 'not-an-address' })).toEqual(['pec']);
    const pec = merchants.createMerchantSchema.safeParse({ ...valid, sdiCode: '0000000', pec: 'not-an-address' });
    expect(pec.success ? [] : pec.error.issues.map((issue) => issue.code)).toEqual(['invalid_format']);
    expect(merchants.createMerchantSchema.safeParse({ ...valid, sdiCode: '0000000', pec: 'fatture@pec.example.it' }).success).toBe(true);
  });
});

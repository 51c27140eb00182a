import type { LedgerListEntry, MembershipDetail } from '@sf/contract/ledger';
import type { Program } from '@sf/contract/programs';

export const CUSTOMER_ID = '6f1c2b9e-1d2a-4b3c-8d4e-5f6a7b8c9d0e';
export const PROGRAM_ID = '11111111-1111-4111-8111-111111111111';
export const MERCHANT_ID = '0d7f5c2e-8a31-4c1b-9a57-3f2b1e0c9d11';

export function program(overrides: Partial<Program> = {}): Program {
  return {
    id: PROGRAM_ID,
    name: 'Circuito Bergamo',
    type: 'points',
    merchantIds: [MERCHANT_ID],
    status: 'active',
    pointsPerEuro: 1.5,
    minSpendCents: null,
    stampsRequired: null,
    maxStampsPerDay: null,
    maxStampsPerTransaction: null,
    tiers: [{ name: 'Oro', minPoints: 1000, multiplier: 2 }],
    tierWindow: 'rolling12',
    expiry: { policy: 'never', days: null },
    bonuses: { referrer: { points: 0, capPerMonth: 0 }, referee: { points: 0, capPerMonth: 0 }, share: { points: 0, capPerMonth: 0 }, review: { points: 0, capPerMonth: 0 }, checkIn: { points: 0, capPerMonth: 0 }, birthday: { points: 0, capPerMonth: 0 } },
    walletBackgroundColor: null,
    walletForegroundColor: null,
    walletLogo: null,
    terms: null,
    version: 1,
    createdAt: '2026-11-01T09:00:00.000Z',
    updatedAt: '2026-11-01T09:00:00.000Z',
    ...overrides,
  };
}

export function membership(overrides: Partial<MembershipDetail> = {}): MembershipDetail {
  return {
    id: 'm1',
    customerId: CUSTOMER_ID,
    programId: PROGRAM_ID,
    balance: 1200,
    stamps: 0,
    tier: 'Oro',
    tierFloor: null,
    joinedAt: '2026-01-10T09:00:00.000Z',
    lastActivityAt: null,
    version: 3,
    programName: 'Circuito Bergamo',
    programType: 'points',
    stampsRequired: null,
    pointsInTierWindow: 1200,
    expiring: [{ points: 150, expiresOn: '2026-12-31' }],
    expiringSoon: 150,
    tierChanges: [{ from: 'Argento', to: 'Oro', at: '2026-10-02T10:00:00.000Z' }],
    ...overrides,
  };
}

export function entry(overrides: Partial<LedgerListEntry> = {}): LedgerListEntry {
  return {
    id: 41,
    membershipId: 'm1',
    customerId: CUSTOMER_ID,
    programId: PROGRAM_ID,
    merchantId: MERCHANT_ID,
    kind: 'earn',
    source: 'purchase',
    points: 37,
    stamps: 0,
    amountCents: 2_450,
    reason: null,
    reversesId: null,
    reversedById: null,
    balanceAfter: 1237,
    stampsAfter: 0,
    expiresOn: null,
    createdBy: 'u-admin',
    createdByLabel: 'admin@demo.test',
    createdByName: 'Anna Admin',
    createdAt: '2026-11-21T10:15:00.000Z',
    customer: { firstName: 'Giulia', lastName: 'Bianchi', cardNumber: '2790000000018' },
    proof: null,
    systemReason: null,
    ...overrides,
  };
}

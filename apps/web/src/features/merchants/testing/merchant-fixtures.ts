import type { Merchant } from '@sf/contract/merchants';

/** A complete merchant as the API answers it; override what a test cares about. */
export function merchant(overrides: Partial<Merchant> = {}): Merchant {
  return {
    id: '0d7f5c2e-8a31-4c1b-9a57-3f2b1e0c9d11',
    legalName: 'Bar Centrale S.r.l.',
    signName: 'Bar Centrale',
    vatNumber: '01234567897',
    taxCode: null,
    sdiCode: 'M5UXCR1',
    pec: null,
    category: 'bar',
    address: { street: 'Via Roma 1', city: 'Milano', province: 'MI', postalCode: '20121' },
    phone: '+390212345678',
    email: 'info@barcentrale.it',
    website: null,
    social: {},
    status: 'active',
    version: 2,
    createdAt: '2026-11-01T09:00:00.000Z',
    updatedAt: '2026-11-02T09:00:00.000Z',
    ...overrides,
  };
}

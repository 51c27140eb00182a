import type { Customer } from '@sf/contract/customers';

/** A complete customer as the API answers it; override what a test cares about. */
export function customer(overrides: Partial<Customer> = {}): Customer {
  return {
    id: '6f1c2b9e-1d2a-4b3c-8d4e-5f6a7b8c9d0e',
    firstName: 'Giulia',
    lastName: 'Bianchi',
    email: 'giulia.bianchi@example.it',
    phone: '+393331234567',
    birthDate: '1990-05-17',
    city: 'Bergamo',
    province: 'BG',
    language: 'it',
    cardNumber: '8012345678903',
    referralCode: 'ACDE3467',
    referredBy: null,
    status: 'active',
    consents: {
      service: { granted: true, at: '2026-11-01T09:00:00.000Z', channel: 'counter', noticeVersion: '2026-01' },
      marketing: null,
      profiling: null,
    },
    version: 1,
    createdAt: '2026-11-01T09:00:00.000Z',
    updatedAt: '2026-11-01T09:00:00.000Z',
    ...overrides,
  };
}

import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { PrivacyRequest } from '@sf/contract/privacy';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/test-utils.tsx';
import { PrivacyRequestsPage } from './privacy-requests-page.tsx';

const admin = { role: 'admin' as const, timeZone: 'Europe/Rome' };
const CUSTOMER_ID = '00000000-0000-4000-8000-0000000000c1';

function request(id: string, overrides: Partial<PrivacyRequest>): PrivacyRequest {
  return {
    id,
    kind: 'access',
    customerId: CUSTOMER_ID,
    customerName: 'Giulia Bianchi',
    customerCardNumber: '8012345678903',
    customerStatus: 'active',
    receivedAt: '2026-11-02T09:00:00.000Z',
    dueAt: '2026-12-02T09:00:00.000Z',
    daysLeft: null,
    extensionReason: null,
    extendedAt: null,
    status: 'done',
    notes: null,
    handledBy: '00000000-0000-4000-8000-0000000000a1',
    handledByEmail: 'admin@demo.test',
    handledByName: 'Giulia Rossi',
    handledAt: '2026-11-03T10:00:00.000Z',
    isProcessingBlocked: false,
    outcome: [],
    version: 3,
    createdAt: '2026-11-02T09:00:00.000Z',
    updatedAt: '2026-11-03T10:00:00.000Z',
    ...overrides,
  };
}

describe('who handled a privacy request', { timeout: 30_000 }, () => {
  it('is named by the staff member, on the list and in the drawer, with the e-mail on hover', async () => {
    const named = request('00000000-0000-4000-8000-0000000000d1', {});
    const open = request('00000000-0000-4000-8000-0000000000d2', { status: 'open', daysLeft: 20, handledBy: null, handledByEmail: null, handledByName: null, handledAt: null });
    server.use(
      http.get('/api/admin/privacy-requests', () => HttpResponse.json({ items: [named, open], total: 2, page: 1, pageSize: 25 })),
      http.get(`/api/admin/privacy-requests/${named.id}`, () => HttpResponse.json(named)),
    );
    renderWithProviders(<PrivacyRequestsPage renderCustomerPicker={() => null} customerHref={(id) => `/customers/${id}`} />, {
      route: `/privacy-requests?request=${named.id}`,
      user: admin,
    });
    const table = await screen.findByRole('table');
    expect(await within(table).findByText('Giulia Rossi')).toHaveAttribute('title', 'admin@demo.test');
    expect(within(table).queryByText('admin@demo.test')).not.toBeInTheDocument();
    const drawer = await screen.findByRole('dialog', { name: 'Richiesta privacy' });
    expect(await within(drawer).findByText(/^Giulia Rossi · /)).toHaveAttribute('title', 'admin@demo.test');
  });
});

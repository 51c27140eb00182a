import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { DashboardPage } from '../features/dashboard/components/dashboard-page.tsx';
import { dashboardAnswer } from '../features/dashboard/testing/dashboard-fixtures.ts';
import { LedgerEntryDialog } from '../features/ledger/components/ledger-entry-dialog.tsx';
import { CUSTOMER_ID, MERCHANT_ID, entry, membership, program } from '../features/ledger/testing/ledger-fixtures.ts';
import { server } from '../testing/msw-server.ts';
import { renderWithProviders } from '../testing/test-utils.tsx';

describe('the dashboard after a write', { timeout: 30_000 }, () => {
  it('shows the new figures once a purchase is registered from Azioni, without a reload', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    let purchases = 5_210;
    server.use(
      http.get('/api/admin/dashboard', () => HttpResponse.json(dashboardAnswer({ purchases }))),
      http.get(`/api/admin/customers/${CUSTOMER_ID}/memberships`, () => HttpResponse.json({ items: [membership()] })),
      http.post('/api/admin/ledger', () => {
        purchases += 1;
        return HttpResponse.json({ entry: entry({ points: 36 }), membership: membership() }, { status: 201 });
      }),
    );
    renderWithProviders(
      <>
        <DashboardPage />
        <LedgerEntryDialog
          kind="purchase"
          onClose={() => undefined}
          customer={{ id: CUSTOMER_ID, label: 'Giulia Bianchi · 8012345678903' }}
          renderCustomerPicker={() => null}
          programs={[program()]}
          merchantOptions={[{ value: MERCHANT_ID, label: 'Bar Centrale' }]}
        />
      </>,
      { route: '/dashboard', user: { role: 'admin' } },
    );
    expect(await within(await screen.findByTestId('figure-purchases')).findByText('5.210')).toBeInTheDocument();
    const dialog = await screen.findByRole('dialog', { name: 'Registra acquisto' });
    await user.type(within(dialog).getByRole('textbox', { name: /Importo/ }), '24,50');
    await user.click(within(dialog).getByRole('button', { name: 'Continua' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Conferma' }));
    await waitFor(() => expect(within(screen.getByTestId('figure-purchases')).getByText('5.211')).toBeInTheDocument());
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import type { Customer } from '@sf/contract/customers';
import { CustomerDetailPage } from '../features/customers/components/customer-detail-page.tsx';
import { customer } from '../features/customers/testing/customer-fixtures.ts';
import { WalletPanel } from '../features/wallet/components/wallet-panel.tsx';
import { toastModule } from '../lib/notify.ts';
import { server } from '../testing/msw-server.ts';
import { renderWithProviders } from '../testing/test-utils.tsx';

const MEMBERSHIPS = [
  { id: '5b1e7f3a-9c2d-4e8f-a1b2-c3d4e5f60718', programName: 'Circuito Centro' },
  { id: '5b1e7f3a-9c2d-4e8f-a1b2-c3d4e5f60719', programName: 'Circuito Bergamo' },
];
const REVOKED = 'Il cliente è bloccato o i suoi dati sono stati cancellati: la tessera non ha link né pass';

// The customer's page composes both features: blocking the customer revokes the card's link.
describe("the card link after the customer is blocked on the customer's page", { timeout: 30_000 }, () => {
  it('shows only the green toast and the calm notice: no red toast, no read of a link that no longer exists', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const { notifications } = await toastModule();
    const show = vi.spyOn(notifications, 'show').mockImplementation(() => 'toast');
    onTestFinished(() => show.mockRestore());
    const user = userEvent.setup();
    let current: Customer = customer();
    const reads: string[] = [];
    server.use(
      http.get('/api/admin/wallet/status', () => HttpResponse.json({ apple: { isConfigured: true, message: null }, google: { isConfigured: true, message: null } })),
      http.get('/api/admin/memberships/:id/card-link', ({ params }) => {
        reads.push(`${current.status}:${String(params.id)}`);
        return current.status === 'active'
          ? HttpResponse.json({ url: 'https://carte.example.it/c/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', emailRefusal: null })
          : HttpResponse.json({ error: { code: 'card_unavailable', message: REVOKED, requestId: 'r' } }, { status: 409 });
      }),
      http.get(`/api/admin/customers/${current.id}`, () => HttpResponse.json(current)),
      http.get(`/api/admin/customers/${current.id}/card`, () => HttpResponse.json({ cardNumber: current.cardNumber, cardCode: 'K7PXM2QD9W', barcodeMessage: `${current.cardNumber}-K7PXM2QD9W`, cardCodeVersion: 1 })),
      http.get(`/api/admin/customers/${current.id}/consents`, () => HttpResponse.json({ items: [] })),
      http.get('/api/admin/customers', () => HttpResponse.json({ items: [], total: 0, page: 1, pageSize: 25 })),
      http.patch(`/api/admin/customers/${current.id}`, async ({ request }) => {
        const body = (await request.json()) as { status: Customer['status'] };
        current = { ...current, status: body.status, version: current.version + 1 };
        return HttpResponse.json(current);
      }),
    );
    renderWithProviders(
      <CustomerDetailPage
        customerId={current.id}
        listHref="/customers"
        wallet={(shown) => <WalletPanel memberships={MEMBERSHIPS} holder="Giulia Bianchi" isActive={shown.status === 'active'} canWrite />}
      />,
      { route: `/customers/${current.id}`, user: { role: 'admin' } },
    );
    await waitFor(() => expect(screen.getAllByTestId('card-link')[1]).not.toHaveValue(''));
    reads.length = 0;

    await user.click(screen.getByRole('button', { name: 'Blocca' }));
    await user.click(await within(await screen.findByRole('dialog')).findByRole('button', { name: 'Blocca' }));

    expect(await screen.findByText('Il cliente non è attivo: nessun link né pass per la tessera.')).toBeVisible();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reads).toEqual([]);
    expect(show.mock.calls.map(([toast]) => toast.color)).toEqual(['green']);
    expect(screen.queryByText(REVOKED)).toBeNull();

    // Unblocked, the panel asks for the (new) links again.
    await user.click(screen.getByRole('button', { name: 'Sblocca' }));
    await user.click(await within(await screen.findByRole('dialog')).findByRole('button', { name: 'Sblocca' }));
    await waitFor(() => expect(screen.getAllByTestId('card-link')[1]).not.toHaveValue(''));
    expect(reads).toEqual(MEMBERSHIPS.map(({ id }) => `active:${id}`));
  });

  it("says a link that cannot be read in the panel, without a toast", async () => {
    const { notifications } = await toastModule();
    const show = vi.spyOn(notifications, 'show').mockImplementation(() => 'toast');
    onTestFinished(() => show.mockRestore());
    server.use(
      http.get('/api/admin/wallet/status', () => HttpResponse.json({ apple: { isConfigured: true, message: null }, google: { isConfigured: true, message: null } })),
      http.get('/api/admin/memberships/:id/card-link', () => HttpResponse.json({ error: { code: 'card_unavailable', message: REVOKED, requestId: 'r' } }, { status: 409 })),
    );
    renderWithProviders(<WalletPanel memberships={MEMBERSHIPS.slice(0, 1)} holder="Giulia Bianchi" isActive canWrite />, { route: '/customers/x', user: { role: 'admin' } });
    expect(await screen.findByRole('alert')).toHaveTextContent(REVOKED);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(show).not.toHaveBeenCalled();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Customer } from '@sf/contract/customers';
import { ConsentsPanel } from '../features/customers/components/consents-panel.tsx';
import { customer } from '../features/customers/testing/customer-fixtures.ts';
import { WalletPanel } from '../features/wallet/components/wallet-panel.tsx';
import { server } from '../testing/msw-server.ts';
import { renderWithProviders } from '../testing/test-utils.tsx';

const MEMBERSHIP = '5b1e7f3a-9c2d-4e8f-a1b2-c3d4e5f60718';
const NO_CONSENT = 'Il cliente non ha dato il consenso al servizio: la tessera non si può inviare per e-mail';

// The customer's page composes both features: a consent recorded in one changes what the other may do.
describe("the card link's e-mail after a consent is recorded on the customer's page", { timeout: 30_000 }, () => {
  it('enables "Invia per e-mail" once the service consent is granted, without a reload', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    let hasServiceConsent = false;
    const anna: Customer = customer({ email: 'anna@example.it', consents: { service: null, marketing: null, profiling: null } });
    server.use(
      http.get('/api/admin/wallet/status', () => HttpResponse.json({ apple: { isConfigured: true, message: null }, google: { isConfigured: true, message: null } })),
      http.get(`/api/admin/memberships/${MEMBERSHIP}/card-link`, () =>
        HttpResponse.json({ url: 'https://carte.example.it/c/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', emailRefusal: hasServiceConsent ? null : NO_CONSENT }),
      ),
      http.get(`/api/admin/customers/${anna.id}/consents`, () => HttpResponse.json({ items: [] })),
      http.post(`/api/admin/customers/${anna.id}/consents`, () => {
        hasServiceConsent = true;
        return HttpResponse.json(anna);
      }),
    );
    renderWithProviders(
      <>
        <ConsentsPanel customer={anna} />
        <WalletPanel memberships={[{ id: MEMBERSHIP, programName: 'Circuito Centro' }]} holder="Anna Rossi" isActive canWrite />
      </>,
      { route: `/customers/${anna.id}`, user: { role: 'admin' } },
    );
    expect(await screen.findByText(NO_CONSENT)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Invia per e-mail' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: /^Registra consenso: Servizio/ }));
    await user.click(await within(await screen.findByRole('dialog')).findByRole('button', { name: 'Conferma' }));

    await waitFor(() => expect(screen.getByRole('button', { name: 'Invia per e-mail' })).toBeEnabled());
    expect(screen.queryByText(NO_CONSENT)).not.toBeInTheDocument();
  });
});

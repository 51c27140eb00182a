import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { dashboardAnswer } from '../../features/dashboard/testing/dashboard-fixtures.ts';
import { program } from '../../features/ledger/testing/ledger-fixtures.ts';
import { merchant } from '../../features/merchants/testing/merchant-fixtures.ts';
import { server } from '../../testing/msw-server.ts';
import { renderWithProviders } from '../../testing/test-utils.tsx';
import { Component as ApiKeysRoute } from './api-keys.tsx';
import { Component as DashboardRoute } from './dashboard.tsx';

const merchants = [
  merchant({ id: '00000000-0000-4000-8000-00000000b001', legalName: 'Bar Centrale S.r.l.', signName: 'Bar Centrale', status: 'active' }),
  merchant({ id: '00000000-0000-4000-8000-00000000b002', legalName: 'Bella Napoli S.r.l.', signName: 'Pizzeria Bella Napoli', status: 'archived' }),
  merchant({ id: '00000000-0000-4000-8000-00000000b003', legalName: 'Sport Point S.p.A.', signName: 'Sport Point', status: 'suspended' }),
];

function answerLookups() {
  server.use(
    http.get('/api/admin/dashboard', () => HttpResponse.json(dashboardAnswer({}))),
    http.get('/api/admin/api-keys', () => HttpResponse.json({ items: [], total: 0, page: 1, pageSize: 25 })),
    http.get('/api/admin/programs', () => HttpResponse.json({ items: [program()], total: 1, page: 1, pageSize: 100 })),
    http.get('/api/admin/merchants', () => HttpResponse.json({ items: merchants, total: merchants.length, page: 1, pageSize: 100 })),
  );
}

const names = () => screen.queryAllByRole('option', { hidden: true }).map((option) => option.textContent);

describe('the merchants a choice offers', { timeout: 30_000 }, () => {
  it('are only the active ones for a new API key: a suspended or archived merchant cannot have one', async () => {
    answerLookups();
    const user = userEvent.setup();
    renderWithProviders(<ApiKeysRoute />, { route: '/api-keys', user: { role: 'admin' } });
    await user.click(await screen.findByRole('button', { name: 'Nuova chiave' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nuova chiave API' });
    await user.click(await waitFor(() => dialog.querySelector<HTMLInputElement>('input[aria-haspopup="listbox"]')!));
    const merchantNames = () => names().filter((name) => merchants.some((item) => item.signName === name));
    await waitFor(() => expect(merchantNames()).toEqual(['Bar Centrale']));
  });

  it('are every merchant in a list filter, where history names the archived ones too', async () => {
    answerLookups();
    const user = userEvent.setup();
    renderWithProviders(<DashboardRoute />, { route: '/dashboard', user: { role: 'admin' } });
    await user.click(await screen.findByLabelText('Esercente'));
    await waitFor(() => expect(names().filter((name) => name !== 'Tutti gli esercenti')).toEqual(['Bar Centrale', 'Pizzeria Bella Napoli', 'Sport Point']));
  });
});

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { Merchant } from '@sf/contract/merchants';
import { describe, expect, it } from 'vitest';
import { dashboardAnswer } from '../../features/dashboard/testing/dashboard-fixtures.ts';
import { program } from '../../features/ledger/testing/ledger-fixtures.ts';
import { merchant } from '../../features/merchants/testing/merchant-fixtures.ts';
import { server } from '../../testing/msw-server.ts';
import { renderWithProviders } from '../../testing/test-utils.tsx';
import { Component as DashboardRoute } from './dashboard.tsx';

function answerLookups(merchants: Merchant[] = []) {
  const asked: string[] = [];
  server.use(
    http.get('/api/admin/dashboard', () => HttpResponse.json(dashboardAnswer({}))),
    http.get('/api/admin/programs', () => {
      asked.push('programs');
      return HttpResponse.json({ items: [program()], total: 1, page: 1, pageSize: 100 });
    }),
    http.get('/api/admin/merchants', () => {
      asked.push('merchants');
      return HttpResponse.json({ items: merchants, total: merchants.length, page: 1, pageSize: 100 });
    }),
  );
  return asked;
}

describe('the dashboard route', { timeout: 30_000 }, () => {
  it('lands with the figures alone, and asks for the programs and merchants when a filter is opened (issue 32)', async () => {
    const asked = answerLookups();
    const user = userEvent.setup();
    renderWithProviders(<DashboardRoute />, { route: '/dashboard', user: { role: 'admin' } });
    expect(await screen.findByTestId('figure-purchases')).toBeInTheDocument();
    expect(asked).toEqual([]);

    await user.click(screen.getByLabelText('Programma'));
    await waitFor(() => expect([...asked].sort()).toEqual(['merchants', 'programs']));
  });

  it('asks for them at once when the address already names a program', async () => {
    const asked = answerLookups();
    renderWithProviders(<DashboardRoute />, { route: `/dashboard?programId=${program().id}`, user: { role: 'admin' } });
    await waitFor(() => expect([...asked].sort()).toEqual(['merchants', 'programs']));
  });

  it('offers the merchants in the order of the names it shows (the sign), not of their legal names', async () => {
    // The API's order, by legal name: the signs come out of order.
    answerLookups([
      merchant({ id: '00000000-0000-4000-8000-00000000a001', legalName: 'Anna Fiori S.r.l.', signName: 'Fiori di Anna' }),
      merchant({ id: '00000000-0000-4000-8000-00000000a002', legalName: 'Bacco S.n.c.', signName: 'Enoteca Bacco' }),
      merchant({ id: '00000000-0000-4000-8000-00000000a003', legalName: 'Centrale S.r.l.', signName: 'bar Centrale' }),
      merchant({ id: '00000000-0000-4000-8000-00000000a004', legalName: 'Zeta S.p.A.', signName: null }),
    ]);
    const user = userEvent.setup();
    renderWithProviders(<DashboardRoute />, { route: '/dashboard', user: { role: 'admin' } });
    await user.click(await screen.findByLabelText('Esercente'));
    const names = () => screen.queryAllByRole('option', { hidden: true }).map((option) => option.textContent);
    await waitFor(() => expect(names().filter((name) => name !== 'Tutti gli esercenti')).toEqual(['bar Centrale', 'Enoteca Bacco', 'Fiori di Anna', 'Zeta S.p.A.']));
  });
});

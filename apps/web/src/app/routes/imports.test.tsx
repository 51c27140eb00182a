import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { program } from '../../features/ledger/testing/ledger-fixtures.ts';
import { server } from '../../testing/msw-server.ts';
import { renderWithProviders } from '../../testing/test-utils.tsx';
import { Component as ImportsRoute } from './imports.tsx';

describe('the imports route', { timeout: 30_000 }, () => {
  it('offers the wizard only the active programs: the API refuses a closed or draft one on the field', async () => {
    const active = program({ id: '00000000-0000-4000-8000-0000000000a1', name: 'Circuito Centro' });
    const closed = program({ id: '00000000-0000-4000-8000-0000000000a2', name: 'Circuito Estate 2025', status: 'closed' });
    const draft = program({ id: '00000000-0000-4000-8000-0000000000a3', name: 'Circuito in bozza', status: 'draft' });
    server.use(
      // As the API answers: `status` filters the programs.
      http.get('/api/admin/programs', ({ request }) => {
        const status = new URL(request.url).searchParams.get('status');
        const items = [active, closed, draft].filter((item) => status === null || item.status === status);
        return HttpResponse.json({ items, total: items.length, page: 1, pageSize: 100 });
      }),
      http.get('/api/admin/imports', () => HttpResponse.json({ items: [], total: 0, page: 1, pageSize: 25 })),
    );
    const user = userEvent.setup();
    renderWithProviders(<ImportsRoute />, { route: '/imports?import=new', user: { role: 'admin' } });
    const wizard = await screen.findByRole('dialog', { name: 'Nuova importazione' });
    const file = new File(['\uFEFFNome;Cognome\r\nGiada;Rossi\r\n'], 'clienti.csv', { type: 'text/csv' });
    await user.upload(wizard.querySelector<HTMLInputElement>('input[type="file"]')!, file);
    await user.click(await within(wizard).findByLabelText('Programma a cui iscrivere i clienti', { selector: 'input' }));
    expect(await screen.findByRole('option', { name: 'Circuito Centro', hidden: true })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Circuito Estate 2025', hidden: true })).toBeNull();
    expect(screen.queryByRole('option', { name: 'Circuito in bozza', hidden: true })).toBeNull();
  });
});

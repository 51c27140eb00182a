import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { renderWithProviders } from '../../testing/test-utils.tsx';
import { useList, type ListQueryResult } from '../../hooks/use-list-params.ts';
import { ListPage } from './list-page.tsx';

type Row = { id: string; name: string };

const schema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().default(25),
  sort: z.enum(['name']).default('name'),
  order: z.enum(['asc', 'desc']).default('asc'),
  q: z.string().optional(),
  isActive: z.enum(['true', 'false']).transform((value) => value === 'true').optional(),
  from: z.string().optional(),
  to: z.string().optional(),
  province: z.string().optional(),
});

const rows: Row[] = [{ id: '1', name: 'Bar Centrale' }];
const useRows = (): ListQueryResult<Row> => ({ data: { items: rows, total: 1, page: 1, pageSize: 25 }, isError: false, isFetching: false });

function Screen() {
  const list = useList(schema, useRows);
  return (
    <ListPage
      list={list}
      texts={{ title: 'Negozi', caption: 'I negozi', empty: 'Nessun negozio', errorTitle: 'Errore' }}
      exportPath="/admin/shops"
      create={{ permission: 'merchants:write', href: '?shop=new', label: 'Nuovo negozio' }}
      filters={[
        {
          type: 'boolean',
          field: 'isActive',
          label: 'Attivi',
          choices: [
            { value: 'any', label: 'Tutti', is: undefined },
            { value: 'yes', label: 'Sì', is: true },
            { value: 'no', label: 'No', is: false },
          ],
          width: 150,
        },
        { type: 'period', from: 'from', to: 'to', labels: { from: 'Dal', to: 'Al' }, width: 160, isInstant: true },
        {
          type: 'select',
          field: 'province',
          label: 'Provincia',
          allLabel: 'Tutte le province',
          options: [
            { value: 'MI', label: 'Milano (MI)' },
            { value: 'TO', label: 'Torino (TO)' },
          ],
          width: 200,
          isSearchable: true,
        },
      ]}
      columns={[{ id: 'name', header: 'Nome', sortField: 'name', cell: (row) => row.name }]}
      getRowId={(row) => row.id}
    />
  );
}

describe('ListPage', () => {
  it('lays out a declared list: title, export, create for the roles that may write, the rows', async () => {
    renderWithProviders(<Screen />, { route: '/shops', user: { role: 'admin' } });
    expect(screen.getByRole('heading', { level: 1, name: 'Negozi' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Esporta CSV' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Nuovo negozio' })).toHaveAttribute('href', '/shops?shop=new');
    expect(await screen.findByText('Bar Centrale')).toBeInTheDocument();
  });

  it('hides the create action from a role without the permission', () => {
    renderWithProviders(<Screen />, { route: '/shops', user: { role: 'editor' } });
    expect(screen.queryByRole('link', { name: 'Nuovo negozio' })).not.toBeInTheDocument();
  });

  it('binds a yes/no filter and a period to the URL through the schema', async () => {
    const user = userEvent.setup();
    const { router } = renderWithProviders(<Screen />, { route: '/shops?isActive=true&page=3', user: { role: 'admin' } });
    // A short filter is the platform's own select (decision 010): its three choices, "Sì" chosen.
    const active = screen.getByRole('combobox', { name: 'Attivi' });
    expect(active).toHaveDisplayValue('Sì');
    expect(within(active).getAllByRole('option').map((option) => option.textContent)).toEqual(['Tutti', 'Sì', 'No']);
    await user.selectOptions(active, 'No');
    await waitFor(() => expect(router.state.location.search).toBe('?isActive=false'));

    // Typed as an Italian writes it, whatever the browser's language; a year still being typed asks nothing.
    const day = await screen.findByRole('textbox', { name: 'Dal' });
    const from = () => new URLSearchParams(router.state.location.search).get('from');
    await user.type(day, '5/3/202');
    expect(from()).toBeNull();
    await user.type(day, '6');
    // The start of that day in the user's zone (Rome, UTC+1 in March), whatever the browser's zone.
    await waitFor(() => expect(from()).toBe('2026-03-04T23:00:00.000Z'));
    await user.tab();
    expect(day).toHaveValue('05/03/2026');

    // An end typed before the start stays as typed and "Al" says why, but the list is not asked for it
    // (the API answered such a period with an error); the same day is its end.
    const last = screen.getByRole('textbox', { name: 'Al' });
    const to = () => new URLSearchParams(router.state.location.search).get('to');
    await user.type(last, '4/3/2026');
    await user.tab();
    expect(last).toHaveValue('04/03/2026');
    expect(screen.getByText('Al: la data non può venire prima di Dal')).toBeInTheDocument();
    expect(to()).toBeNull();
    expect(from()).toBe('2026-03-04T23:00:00.000Z');
    await user.clear(last);
    await user.type(last, '5/3/2026');
    await waitFor(() => expect(to()).toBe('2026-03-05T22:59:59.999Z'));
    expect(screen.queryByText('Al: la data non può venire prima di Dal')).toBeNull();
  });

  it('searches a long filter by typing over the label it shows, not inside it', async () => {
    const user = userEvent.setup();
    const { router } = renderWithProviders(<Screen />, { route: '/shops', user: { role: 'admin' } });
    const province = screen.getByRole('combobox', { name: 'Provincia' });
    expect(province).toHaveValue('Tutte le province');
    await user.click(province);
    await user.keyboard('MI');
    expect(province).toHaveValue('MI');
    await user.click(await screen.findByRole('option', { name: 'Milano (MI)' }));
    await waitFor(() => expect(router.state.location.search).toBe('?province=MI'));
  });
});

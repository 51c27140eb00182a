import { Button } from '@mantine/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { useQuery } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { useListParams, toApiQuery } from '../../hooks/use-list-params.ts';
import { apiClient } from '../../lib/api-client.ts';
import { server } from '../../testing/msw-server.ts';
import { renderWithProviders } from '../../testing/test-utils.tsx';
import { DataTable, type DataTableColumn, type DataTablePage } from './data-table.tsx';
import { ExportButton } from './export-button.tsx';

type Shop = { id: string; name: string; city: string };

const schema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  sort: z.enum(['name', 'city']).default('name'),
  order: z.enum(['asc', 'desc']).default('asc'),
  city: z.string().optional(),
});

const columns: DataTableColumn<Shop, 'name' | 'city'>[] = [
  { id: 'name', header: 'Nome', sortField: 'name', firstOrder: 'asc', cell: (shop) => shop.name },
  { id: 'city', header: 'Città', sortField: 'city', cell: (shop) => shop.city },
];

function ShopList({ onBulk }: { onBulk?: (ids: string[]) => void }) {
  const { params, update, isFiltered } = useListParams(schema);
  const query = useQuery({
    queryKey: ['shops', params],
    queryFn: () => apiClient.get<DataTablePage<Shop>>('/shops', { params: toApiQuery(params), isSilent: true }),
    retry: false,
  });
  return (
    <>
      <ExportButton path="/shops" params={params} />
      <DataTable
        caption="Negozi"
        columns={columns}
        query={query}
        params={params}
        onChange={update}
        getRowId={(shop) => shop.id}
        emptyText="Nessun negozio"
        isFiltered={isFiltered}
        {...(onBulk
          ? { selection: { getRowLabel: (shop: Shop) => shop.name, actions: (ids: string[]) => <Button onClick={() => onBulk(ids)}>Archivia</Button> } }
          : {})}
      />
    </>
  );
}

const shops: Shop[] = [
  { id: 'a', name: 'Bar Sport', city: 'Milano' },
  { id: 'b', name: 'Caffè Roma', city: 'Roma' },
];

function answer(items = shops, total = items.length) {
  const seen: URLSearchParams[] = [];
  server.use(
    http.get('/api/shops', ({ request }) => {
      const params = new URL(request.url).searchParams;
      seen.push(params);
      return HttpResponse.json({ items, total, page: Number(params.get('page')), pageSize: Number(params.get('pageSize')) });
    }),
  );
  return seen;
}

describe('DataTable with list parameters', () => {
  it('sorts through the headers, marks the sorted one with aria-sort and keeps it in the URL', async () => {
    const user = userEvent.setup();
    const seen = answer(shops, 35);
    const { router } = renderWithProviders(<ShopList />, { route: '/shops?page=2', user: { role: 'admin' } });
    await screen.findByText('Bar Sport');
    expect(screen.getByRole('columnheader', { name: /Nome/ })).toHaveAttribute('aria-sort', 'ascending');
    expect(screen.getByRole('columnheader', { name: /Città/ })).toHaveAttribute('aria-sort', 'none');
    expect(screen.getByText('11–20 di 35')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Ordina per Città' }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=city&order=desc'));
    await waitFor(() => expect(seen.at(-1)?.get('sort')).toBe('city'));
    expect(screen.getByRole('columnheader', { name: /Città/ })).toHaveAttribute('aria-sort', 'descending');

    await user.click(screen.getByLabelText('Per pagina', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: '50', hidden: true }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=city&order=desc&pageSize=50'));
  });

  it('shows the empty text, and an error with a retry that loads the list again', async () => {
    const user = userEvent.setup();
    let calls = 0;
    server.use(
      http.get('/api/shops', () => {
        calls += 1;
        if (calls === 1) return HttpResponse.json({ error: { code: 'internal', message: 'x', requestId: 'r' } }, { status: 500 });
        return HttpResponse.json({ items: [], total: 0, page: 1, pageSize: 10 });
      }),
    );
    renderWithProviders(<ShopList />, { route: '/shops', user: { role: 'admin' } });
    expect(await screen.findByText("Impossibile caricare l'elenco")).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Riprova' }));
    expect(await screen.findByText('Nessun negozio')).toBeInTheDocument();
  });

  it('says nothing matches when a filter is on', async () => {
    answer([]);
    renderWithProviders(<ShopList />, { route: '/shops?city=Bari', user: { role: 'admin' } });
    expect(await screen.findByText('Nessun elemento corrisponde alla ricerca o ai filtri.')).toBeInTheDocument();
  });

  it('selects rows one by one or the whole page and hands the ids to a bulk action', async () => {
    const user = userEvent.setup();
    const onBulk = vi.fn();
    answer();
    renderWithProviders(<ShopList onBulk={onBulk} />, { route: '/shops', user: { role: 'admin' } });
    await user.click(await screen.findByRole('checkbox', { name: 'Seleziona Caffè Roma' }));
    expect(screen.getByText('1 riga selezionata')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Archivia' }));
    expect(onBulk).toHaveBeenLastCalledWith(['b']);

    await user.click(screen.getByRole('checkbox', { name: 'Seleziona tutte le righe della pagina' }));
    expect(screen.getByText('2 righe selezionate')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Archivia' }));
    expect(onBulk).toHaveBeenLastCalledWith(['a', 'b']);
    await user.click(screen.getByRole('button', { name: 'Annulla la selezione' }));
    expect(screen.queryByText(/selezionat/)).not.toBeInTheDocument();
  });

  it('exports the list with its filters and sort (not its page) and saves the file under the server’s name', async () => {
    const user = userEvent.setup();
    answer();
    let exportQuery: string | null = null;
    server.use(
      http.get('/api/shops/export.csv', ({ request }) => {
        exportQuery = new URL(request.url).search;
        return new HttpResponse('\uFEFFNome;Città\r\n', { headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="negozi.csv"' } });
      }),
    );
    const createObjectURL = vi.fn(() => 'blob:negozi');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const clicks: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    renderWithProviders(<ShopList />, { route: '/shops?city=Milano&page=3&sort=city', user: { role: 'admin' } });
    await screen.findByText('Bar Sport');
    await user.click(screen.getByRole('button', { name: 'Esporta CSV' }));
    await waitFor(() => expect(clicks).toEqual(['negozi.csv']));
    expect(exportQuery).toBe('?sort=city&order=asc&city=Milano');
    expect(createObjectURL).toHaveBeenCalledTimes(1);
    click.mockRestore();
    expect(within(document.body).getByRole('button', { name: 'Esporta CSV' })).toBeEnabled();
  });
});

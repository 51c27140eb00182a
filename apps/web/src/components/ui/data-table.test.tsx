import { Button, Table } from '@mantine/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
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
  it('gives its plain data rows and cells what Mantine’s Table.Tr and Table.Td would give them under the same table', async () => {
    answer();
    renderWithProviders(
      <>
        <ShopList />
        <Table striped highlightOnHover verticalSpacing="sm" data-testid="mantine-reference">
          <Table.Tbody>
            <Table.Tr>
              <Table.Td>Mantine</Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </>,
      { route: '/shops', user: { role: 'admin' } },
    );
    const ours = (await screen.findByText('Bar Sport')).closest('td')!;
    const reference = within(screen.getByTestId('mantine-reference')).getByText('Mantine');
    const attributes = (element: Element) => Object.fromEntries([...element.attributes].filter(({ name }) => name !== 'style').map(({ name, value }) => [name, value]));
    expect(attributes(ours)).toEqual(attributes(reference));
    expect(attributes(ours.parentElement!)).toEqual(attributes(reference.parentElement!));
  });

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

    await user.selectOptions(screen.getByRole('combobox', { name: 'Per pagina' }), '50');
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

/** The two shops as one answered page, with the columns under test (and a row selection). */
function renderShops(columns: DataTableColumn<Shop, 'name' | 'city'>[], selection?: { getRowLabel: (shop: Shop) => string; actions: () => null }) {
  renderWithProviders(
    <DataTable
      caption="Negozi"
      columns={columns}
      query={{ data: { items: shops, total: shops.length, page: 1, pageSize: 10 }, isError: false, isFetching: false }}
      params={{ page: 1, pageSize: 10, sort: 'name', order: 'asc' }}
      onChange={() => undefined}
      getRowId={(shop) => shop.id}
      emptyText="Nessun negozio"
      {...(selection ? { selection } : {})}
    />,
  );
}

describe('DataTable first render', () => {
  it('renders its rows once when it mounts with them: nothing it sets in an effect renders the table again', async () => {
    const cellRenders: string[] = [];
    const countedColumns: DataTableColumn<Shop, 'name' | 'city'>[] = [
      {
        id: 'name',
        header: 'Nome',
        sortField: 'name',
        cell: (shop) => {
          cellRenders.push(shop.id);
          return shop.name;
        },
      },
    ];
    renderShops(countedColumns, { getRowLabel: (shop) => shop.name, actions: () => null });
    expect(await screen.findByText('Caffè Roma')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(cellRenders).toEqual(['a', 'b']);
  });

  it('never breaks a whole column (header and cells) over two lines, and leaves the others free to wrap', async () => {
    const wholeCity: DataTableColumn<Shop, 'name' | 'city'>[] = [
      { id: 'name', header: 'Nome', isName: true, cell: (shop) => shop.name },
      { id: 'city', header: 'Città di iscrizione', sortField: 'city', isWhole: true, cell: (shop) => `${shop.city} (MI)` },
      { id: 'note', header: 'Nota', cell: () => 'una nota lunga' },
    ];
    renderShops(wholeCity);
    expect((await screen.findByText('Milano (MI)')).closest('td')).toHaveStyle({ whiteSpace: 'nowrap' });
    expect(screen.getByRole('columnheader', { name: /Città di iscrizione/ })).toHaveStyle({ whiteSpace: 'nowrap' });
    expect(screen.getAllByText('una nota lunga')[0]!.closest('td')).not.toHaveStyle({ whiteSpace: 'nowrap' });
    expect(screen.getByRole('columnheader', { name: 'Nota' })).not.toHaveStyle({ whiteSpace: 'nowrap' });
  });
});

describe('DataTable wider than its screen', () => {
  /** jsdom lays nothing out: the scroll container reports a 900 px table in a 390 px phone. */
  function phoneWidths() {
    const isContainer = (element: Element) => element.classList.contains('mantine-TableScrollContainer-scrollContainer');
    const scrollWidth = vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(function (this: HTMLElement) {
      return isContainer(this) ? 900 : 0;
    });
    const clientWidth = vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (this: HTMLElement) {
      return isContainer(this) ? 390 : 0;
    });
    // As a browser's observer: a first report for each observed element, after the layout.
    const stub = window.ResizeObserver;
    window.ResizeObserver = class {
      constructor(private readonly report: ResizeObserverCallback) {}
      observe(): void {
        queueMicrotask(() => this.report([], this as unknown as ResizeObserver));
      }
      unobserve(): void {}
      disconnect(): void {}
    } as unknown as typeof ResizeObserver;
    return () => {
      scrollWidth.mockRestore();
      clientWidth.mockRestore();
      window.ResizeObserver = stub;
    };
  }

  it('says the table scrolls and shades the edge where columns are out of sight, then the other edge once scrolled', async () => {
    const restore = phoneWidths();
    try {
      renderShops(columns);
      await screen.findByText('Caffè Roma');
      expect(await screen.findByText('Scorri la tabella di lato per vedere tutte le colonne.')).toBeVisible();
      const container = screen.getByRole('table').closest('.mantine-TableScrollContainer-scrollContainer') as HTMLElement;
      const edges = container.parentElement!;
      expect(edges).toHaveAttribute('data-more-end');
      expect(edges).not.toHaveAttribute('data-more-start');

      container.scrollLeft = 510;
      fireEvent.scroll(container);
      await waitFor(() => expect(edges).not.toHaveAttribute('data-more-end'));
      expect(edges).toHaveAttribute('data-more-start');
    } finally {
      restore();
    }
  });

  it('says nothing when the table fits', async () => {
    renderShops(columns);
    await screen.findByText('Caffè Roma');
    expect(screen.queryByText('Scorri la tabella di lato per vedere tutte le colonne.')).not.toBeInTheDocument();
    expect(screen.getByRole('table').closest('[data-more-end], [data-more-start]')).toBeNull();
  });
});

/**
 * The selection belongs to the rows on screen (commit 0092ce0): a background refetch of the same rows
 * keeps it — clearing it on every new answer took the bulk buttons away under the user's pointer —,
 * rows that left the page drop out of it, and another page, sort or filter starts empty.
 */
describe('DataTable row selection across answers', () => {
  /** The rows the server answers now: a test changes them between fetches. */
  function answerRows(initial: Shop[], total = initial.length) {
    const state = { rows: initial, total, calls: 0 };
    server.use(
      http.get('/api/shops', ({ request }) => {
        const params = new URL(request.url).searchParams;
        state.calls += 1;
        return HttpResponse.json({ items: state.rows, total: state.total, page: Number(params.get('page')), pageSize: Number(params.get('pageSize')) });
      }),
    );
    return state;
  }

  /** The list with a "refresh" that refetches the same query, as a background refetch or an invalidation does. */
  function RefreshingList({ onBulk }: { onBulk: (ids: string[]) => void }) {
    const { params, update, isFiltered } = useListParams(schema);
    const query = useQuery({
      queryKey: ['shops', params],
      queryFn: () => apiClient.get<DataTablePage<Shop>>('/shops', { params: toApiQuery(params), isSilent: true }),
      retry: false,
    });
    return (
      <>
        <Button onClick={() => void query.refetch()}>Aggiorna</Button>
        <DataTable
          caption="Negozi"
          columns={columns}
          query={query}
          params={params}
          onChange={update}
          getRowId={(shop) => shop.id}
          emptyText="Nessun negozio"
          isFiltered={isFiltered}
          selection={{ getRowLabel: (shop) => shop.name, actions: (ids) => <Button onClick={() => onBulk(ids)}>Archivia</Button> }}
        />
      </>
    );
  }

  const checkbox = (name: string) => screen.getByRole('checkbox', { name: `Seleziona ${name}` });

  it('keeps the selection and the bulk action when a refetch answers the same rows', async () => {
    const user = userEvent.setup();
    const onBulk = vi.fn();
    const backend = answerRows(shops);
    renderWithProviders(<RefreshingList onBulk={onBulk} />, { route: '/shops', user: { role: 'admin' } });
    await user.click(await screen.findByRole('checkbox', { name: 'Seleziona Caffè Roma' }));
    expect(screen.getByText('1 riga selezionata')).toBeInTheDocument();

    // The same rows, one of them changed meanwhile by someone else: a new answer, not a new list.
    backend.rows = [shops[0]!, { ...shops[1]!, city: 'Frascati' }];
    const callsBefore = backend.calls;
    await user.click(screen.getByRole('button', { name: 'Aggiorna' }));
    expect(await screen.findByText('Frascati')).toBeInTheDocument();
    expect(backend.calls).toBe(callsBefore + 1);

    expect(checkbox('Caffè Roma')).toBeChecked();
    expect(checkbox('Bar Sport')).not.toBeChecked();
    expect(screen.getByText('1 riga selezionata')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Archivia' }));
    expect(onBulk).toHaveBeenLastCalledWith(['b']);
  });

  it('drops a row that left the page from the selection and keeps the others; it does not come back selected', async () => {
    const user = userEvent.setup();
    const onBulk = vi.fn();
    const backend = answerRows(shops);
    renderWithProviders(<RefreshingList onBulk={onBulk} />, { route: '/shops', user: { role: 'admin' } });
    await user.click(await screen.findByRole('checkbox', { name: 'Seleziona tutte le righe della pagina' }));
    expect(screen.getByText('2 righe selezionate')).toBeInTheDocument();

    // Caffè Roma was archived elsewhere: the refetch answers Bar Sport and a newcomer.
    const newcomer: Shop = { id: 'c', name: 'Pizzeria Napoli', city: 'Napoli' };
    backend.rows = [shops[0]!, newcomer];
    await user.click(screen.getByRole('button', { name: 'Aggiorna' }));
    expect(await screen.findByText('Pizzeria Napoli')).toBeInTheDocument();
    expect(screen.queryByText('Caffè Roma')).not.toBeInTheDocument();

    expect(screen.getByText('1 riga selezionata')).toBeInTheDocument();
    expect(checkbox('Bar Sport')).toBeChecked();
    expect(checkbox('Pizzeria Napoli')).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Seleziona tutte le righe della pagina' })).toHaveAttribute('data-indeterminate', 'true');
    await user.click(screen.getByRole('button', { name: 'Archivia' }));
    expect(onBulk).toHaveBeenLastCalledWith(['a']);

    // The row is back on the next answer: it was dropped from the selection, so it comes back unselected.
    backend.rows = [...shops, newcomer];
    await user.click(screen.getByRole('button', { name: 'Aggiorna' }));
    expect(await screen.findByText('Caffè Roma')).toBeInTheDocument();
    expect(checkbox('Caffè Roma')).not.toBeChecked();
    expect(screen.getByText('1 riga selezionata')).toBeInTheDocument();
  });

  it('starts empty on another page, another sort and another filter, even when the same rows come back', async () => {
    const user = userEvent.setup();
    // 35 rows in pages of 10; the server answers the same two rows whatever is asked.
    answerRows(shops, 35);
    const { router } = renderWithProviders(<RefreshingList onBulk={vi.fn()} />, { route: '/shops', user: { role: 'admin' } });
    const selectBarSport = async () => {
      await waitFor(() => expect(checkbox('Bar Sport')).toBeEnabled());
      await user.click(checkbox('Bar Sport'));
      expect(screen.getByText('1 riga selezionata')).toBeInTheDocument();
    };
    // Once the new answer is on screen (the rows are back), nothing is selected and no bulk action shows.
    const expectEmpty = () =>
      waitFor(() => {
        expect(checkbox('Bar Sport')).not.toBeChecked();
        expect(screen.queryByText(/selezionat/)).not.toBeInTheDocument();
        expect(screen.queryByRole('button', { name: 'Archivia' })).not.toBeInTheDocument();
      });
    await screen.findByText('Bar Sport');

    await selectBarSport();
    await user.click(screen.getByRole('button', { name: 'Pagina 2' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    await expectEmpty();

    await selectBarSport();
    await user.click(screen.getByRole('button', { name: 'Ordina per Città' }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=city&order=desc'));
    await expectEmpty();

    await selectBarSport();
    await router.navigate('/shops?sort=city&order=desc&city=Milano');
    await expectEmpty();
  });
});

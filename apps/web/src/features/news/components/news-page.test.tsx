import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/test-utils.tsx';
import { newsPage, newsPost } from '../testing/news-fixtures.ts';
import { NewsPage } from './news-page.tsx';

const editor = { uid: 'u-editor', role: 'editor' as const, displayName: 'Eddie Editor', email: 'editor@demo.test' };

/** Records the query string of every list call so a test can read what the page asked for. */
function answerList(items = [newsPost()], total = items.length) {
  const seen: URLSearchParams[] = [];
  server.use(
    http.get('/api/admin/news', ({ request }) => {
      const params = new URL(request.url).searchParams;
      seen.push(params);
      return HttpResponse.json(newsPage(items, { total, page: Number(params.get('page') ?? 1), pageSize: Number(params.get('pageSize') ?? 25) }));
    }),
  );
  return seen;
}

describe('NewsPage list', () => {
  it('reads search, status, sort, order and page from the URL and asks the API for exactly those', async () => {
    const seen = answerList([newsPost()], 60);
    renderWithProviders(<NewsPage />, { route: '/news?q=colazione&status=draft&sort=title&order=asc&page=2', user: editor });

    expect(await screen.findByRole('link', { name: 'Colazione a metà prezzo' })).toBeInTheDocument();
    const last = seen.at(-1)!;
    expect(Object.fromEntries(last)).toEqual({ q: 'colazione', status: 'draft', sort: 'title', order: 'asc', page: '2', pageSize: '25' });
    expect(screen.getByRole('searchbox', { name: 'Cerca' })).toHaveValue('colazione');
    expect(screen.getByRole('combobox', { name: 'Stato' })).toHaveDisplayValue('Bozza');
    expect(screen.getByRole('columnheader', { name: /Titolo/ })).toHaveAttribute('aria-sort', 'ascending');
    expect(screen.getByText('26–50 di 60')).toBeInTheDocument();
  });

  it('writes the status filter and the sort to the URL and starts again from page 1', async () => {
    const user = userEvent.setup();
    answerList([newsPost()], 60);
    const { router } = renderWithProviders(<NewsPage />, { route: '/news?page=2', user: editor });
    await screen.findByRole('link', { name: 'Colazione a metà prezzo' });

    await user.selectOptions(screen.getByRole('combobox', { name: 'Stato' }), 'Pubblicato');
    await waitFor(() => expect(router.state.location.search).toBe('?status=published'));

    await user.click(screen.getByRole('button', { name: 'Ordina per Titolo' }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=published&sort=title&order=asc'));
    await user.click(screen.getByRole('button', { name: 'Ordina per Titolo' }));
    // Descending is the default, so it is left out of the URL.
    await waitFor(() => expect(router.state.location.search).toBe('?status=published&sort=title'));

    await user.click(screen.getByRole('button', { name: 'Pagina 3' }));
    await waitFor(() => expect(router.state.location.search).toContain('page=3'));

    // Back goes through the history of the list's states.
    await router.navigate(-1);
    await waitFor(() => expect(router.state.location.search).toBe('?status=published&sort=title'));
  });

  it('puts the search in the URL once typing pauses, not on every keystroke', async () => {
    const user = userEvent.setup();
    const seen = answerList();
    const { router } = renderWithProviders(<NewsPage />, { route: '/news', user: editor });
    await screen.findByRole('link', { name: 'Colazione a metà prezzo' });
    const callsBefore = seen.length;

    await user.type(screen.getByRole('searchbox', { name: 'Cerca' }), 'pizza');
    expect(router.state.location.search).toBe('');
    await waitFor(() => expect(router.state.location.search).toBe('?q=pizza'));
    await waitFor(() => expect(seen.at(-1)?.get('q')).toBe('pizza'));
    // One more list call for the settled text, not one per letter.
    expect(seen.length - callsBefore).toBe(1);
  });

  it('tells the user when nothing matches and when there are no posts at all', async () => {
    answerList([]);
    const first = renderWithProviders(<NewsPage />, { route: '/news?status=archived', user: editor });
    expect(await screen.findByText('Nessun post corrisponde alla ricerca o al filtro.')).toBeInTheDocument();
    first.unmount();

    renderWithProviders(<NewsPage />, { route: '/news', user: editor, language: 'en' });
    expect(await screen.findByText('No posts yet. Write the first one with “New post”.')).toBeInTheDocument();
  });

  it('shows skeleton rows while the list loads and status badges once it is there', async () => {
    answerList([newsPost({ id: 1, title: 'Uno', status: 'scheduled', publishAt: '2026-12-01T08:00:00.000Z' }), newsPost({ id: 2, title: 'Due', status: 'published', pinned: true })]);
    renderWithProviders(<NewsPage />, { route: '/news', user: editor });
    expect(screen.getAllByTestId('row-skeleton').length).toBeGreaterThan(0);
    await screen.findByRole('link', { name: 'Uno' });
    const table = screen.getByRole('table', { name: 'Post delle news' });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]!).getByText('Programmato')).toBeInTheDocument();
    // Dates in the user's zone and language: 08:00 UTC is 09:00 in Rome.
    expect(within(rows[1]!).getByText('01/12/2026, 09:00')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Pubblicato')).toBeInTheDocument();
    expect(within(rows[2]!).getByRole('img', { name: 'In evidenza' })).toBeInTheDocument();
  });

  it('opens the editor drawer through the URL and the back button closes it', async () => {
    const user = userEvent.setup();
    answerList();
    server.use(http.get('/api/admin/news/7', () => HttpResponse.json(newsPost())));
    const { router } = renderWithProviders(<NewsPage />, { route: '/news?status=draft', user: editor });

    await user.click(await screen.findByRole('link', { name: 'Colazione a metà prezzo' }));
    expect(router.state.location.search).toBe('?status=draft&post=7');
    const drawer = await screen.findByRole('dialog', { name: 'Modifica post' });
    expect(await within(drawer).findByRole('textbox', { name: /Titolo/ })).toHaveValue('Colazione a metà prezzo');

    await router.navigate(-1);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Modifica post' })).not.toBeInTheDocument());
    expect(router.state.location.search).toBe('?status=draft');
  });
  it('exports the list as CSV with its search, status and sort (not its page), and offers a new post to a writer', async () => {
    const user = userEvent.setup();
    answerList([newsPost()], 60);
    let exportQuery: string | null = null;
    server.use(
      http.get('/api/admin/news/export.csv', ({ request }) => {
        exportQuery = new URL(request.url).search;
        return new HttpResponse('\uFEFFTitolo;Stato\r\n', { headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="news.csv"' } });
      }),
    );
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:news'), revokeObjectURL: vi.fn() });
    const saved: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const { router } = renderWithProviders(<NewsPage />, { route: '/news?q=colazione&status=draft&sort=title&page=2', user: editor });
    await screen.findByRole('link', { name: 'Colazione a metà prezzo' });

    await user.click(screen.getByRole('button', { name: 'Esporta CSV' }));
    await waitFor(() => expect(saved).toEqual(['news.csv']));
    expect(Object.fromEntries(new URLSearchParams(exportQuery!))).toEqual({ q: 'colazione', status: 'draft', sort: 'title', order: 'desc' });
    click.mockRestore();

    // "Nuovo post" opens the editor as a pushed history entry: its close goes back to the list as it was.
    await user.click(screen.getByRole('link', { name: 'Nuovo post' }));
    expect(await screen.findByRole('dialog', { name: 'Nuovo post' })).toBeInTheDocument();
    expect(new URLSearchParams(router.state.location.search).get('post')).toBe('new');
    expect(router.state.location.state).toEqual({ isEditorPushed: true });
  });
});

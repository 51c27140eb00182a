import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { server } from '../../../testing/msw-server.ts';
import { queryClientProbe } from '../../../testing/query-client-probe.tsx';
import { renderWithProviders } from '../../../testing/test-utils.tsx';
import { campaignKeys } from '../api/get-campaigns.ts';
import { campaign, campaignPage } from '../testing/campaign-fixtures.ts';
import { CampaignsPage } from './campaigns-page.tsx';

const admin = { role: 'admin' as const };
const renderRichText = () => null;

const sent = campaign({
  id: '22222222-2222-4222-8222-222222222222',
  name: 'Saldi di gennaio',
  status: 'sent',
  sentAt: '2026-11-03T10:00:00.000Z',
  counts: { recipients: 120, queued: 0, sent: 117, failed: 1, skipped: 2, unknown: 0, unsubscribed: 3 },
});

/** Records the query string of every list call so a test can read what the page asked for. */
function answerList(items = [campaign(), sent], total = items.length) {
  const seen: Record<string, string>[] = [];
  server.use(
    http.get('/api/admin/campaigns', ({ request }) => {
      const params = new URL(request.url).searchParams;
      seen.push(Object.fromEntries(params));
      return HttpResponse.json(campaignPage(items, { total, page: Number(params.get('page') ?? 1) }));
    }),
  );
  return seen;
}

const renderPage = (route: string, language: 'it' | 'en' = 'it') =>
  renderWithProviders(<CampaignsPage programOptions={[]} merchantOptions={[]} renderRichText={renderRichText} />, { route, user: admin, language });

describe('CampaignsPage list', () => {
  it('reads search, status, sort, order and page from the address and asks the API for exactly those', async () => {
    const seen = answerList([sent], 60);
    renderPage('/campaigns?q=saldi&status=sent&sort=recipients&order=asc&page=2');

    expect(await screen.findByRole('link', { name: 'Saldi di gennaio' })).toBeInTheDocument();
    expect(seen.at(-1)).toEqual({ q: 'saldi', status: 'sent', sort: 'recipients', order: 'asc', page: '2', pageSize: '25' });
    expect(screen.getByRole('searchbox', { name: 'Cerca' })).toHaveValue('saldi');
    expect(screen.getByRole('combobox', { name: 'Stato' })).toHaveDisplayValue('Inviata');
    expect(screen.getByRole('columnheader', { name: /Destinatari/ })).toHaveAttribute('aria-sort', 'ascending');
    const row = screen.getByRole('row', { name: /Saldi di gennaio/ });
    expect(within(row).getByText('120')).toBeInTheDocument();
    expect(within(row).getByText('117')).toBeInTheDocument();
  });

  it('writes the status filter and the sort to the address, back to page 1, and asks again', async () => {
    const user = userEvent.setup();
    const seen = answerList([campaign(), sent], 60);
    const { router } = renderPage('/campaigns?page=2');
    await screen.findByRole('link', { name: 'Saldi di gennaio' });

    await user.selectOptions(screen.getByRole('combobox', { name: 'Stato' }), 'Programmata');
    await waitFor(() => expect(router.state.location.search).toBe('?status=scheduled'));
    await waitFor(() => expect(seen.at(-1)).toMatchObject({ status: 'scheduled', page: '1' }));

    await user.click(screen.getByRole('button', { name: 'Ordina per Inviate' }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=scheduled&sort=sent'));
    await waitFor(() => expect(seen.at(-1)).toMatchObject({ status: 'scheduled', sort: 'sent', order: 'desc' }));

    await user.selectOptions(screen.getByRole('combobox', { name: 'Stato' }), 'Tutti gli stati');
    await waitFor(() => expect(router.state.location.search).toBe('?sort=sent'));
    expect(seen.at(-1)).not.toHaveProperty('status');
  });

  it('says when nothing matches the filter, and exports with the same search, filter and sort (not the page)', async () => {
    const user = userEvent.setup();
    answerList([]);
    let exportQuery: string | null = null;
    server.use(
      http.get('/api/admin/campaigns/export.csv', ({ request }) => {
        exportQuery = new URL(request.url).search;
        return new HttpResponse('\uFEFFNome;Stato\r\n', { headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="campagne.csv"' } });
      }),
    );
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:campaigns'), revokeObjectURL: vi.fn() });
    const saved: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    renderPage('/campaigns?q=natale&status=cancelled&sort=name&order=asc&page=3');
    expect(await screen.findByText('Nessuna campagna corrisponde alla ricerca o al filtro.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Esporta CSV' }));
    await waitFor(() => expect(saved).toEqual(['campagne.csv']));
    expect(Object.fromEntries(new URLSearchParams(exportQuery!))).toEqual({ q: 'natale', status: 'cancelled', sort: 'name', order: 'asc' });
    click.mockRestore();
  });

  it('speaks English: headers, filter and the status badges', async () => {
    answerList([campaign(), sent]);
    renderPage('/campaigns', 'en');
    expect(await screen.findByRole('link', { name: 'Saldi di gennaio' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Campaigns', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveDisplayValue('All statuses');
    expect(within(screen.getByRole('row', { name: /Saldi di gennaio/ })).getByText('Sent', { selector: ':not(th)' })).toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: /Caffè di novembre/ })).getByText('Draft')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /New campaign/ })).toBeInTheDocument();
  });

  it.each([
    ['an id that is no campaign', '00000000-0000-4000-8000-0000000000aa', 404, { code: 'not_found', message: 'Campagna richiesta non trovata' }],
    ['an address that holds no id', 'abc', 400, { code: 'validation', message: 'Id non è valido', fields: [{ field: 'id', message: 'Id non è valido' }] }],
  ])('says in words that there is no such campaign, for %s, in a drawer titled "Campagna"', async (_case, id, status, error) => {
    answerList();
    server.use(http.get(`/api/admin/campaigns/${id}`, () => HttpResponse.json({ error: { ...error, requestId: 'r' } }, { status })));
    renderPage(`/campaigns?campaign=${id}`);
    const drawer = await screen.findByRole('dialog', { name: 'Campagna' });
    expect(await within(drawer).findByRole('alert')).toHaveTextContent("Campagna non trovataNessuna campagna a questo indirizzo: il link è sbagliato o la campagna non c'è più.");
    expect(within(drawer).queryByText(error.message)).toBeNull();
  });

  it('says that the server failed, not that the campaign is missing, when its read fails with a 5xx', async () => {
    const id = '00000000-0000-4000-8000-0000000000aa';
    answerList();
    server.use(http.get(`/api/admin/campaigns/${id}`, () => HttpResponse.json({ error: { code: 'internal', message: 'Errore interno', requestId: 'r' } }, { status: 500 })));
    renderPage(`/campaigns?campaign=${id}`);
    const drawer = await screen.findByRole('dialog', { name: 'Campagna' });
    // A 5xx is tried again (lib/query-client.ts) before it shows.
    expect(await within(drawer).findByRole('alert', {}, { timeout: 10_000 })).toHaveTextContent('Si è verificato un errore sul server. Riprova più tardi.');
    expect(within(drawer).queryByText(/non trovata/)).toBeNull();
  });
});

describe('CampaignsPage editor, when a refetch fails', () => {
  const draft = campaign();
  const audience = () => http.get('/api/admin/campaigns/audience', () => HttpResponse.json({ count: 0, sample: [] }));

  it.each([
    ['the network drops', () => HttpResponse.error(), 'Impossibile caricare i dati più recenti', 'Il server non è raggiungibile.'],
    [
      'someone deleted the campaign (404)',
      () => HttpResponse.json({ error: { code: 'not_found', message: 'Campagna richiesta non trovata', requestId: 'r' } }, { status: 404 }),
      'Questo elemento non esiste più',
      'le modifiche non si possono più salvare',
    ],
  ])('keeps the campaign and the name being typed when %s, and says so beside it', async (_case, failure, title, text) => {
    const user = userEvent.setup();
    answerList();
    let isFailing = false;
    server.use(audience(), http.get(`/api/admin/campaigns/${draft.id}`, () => (isFailing ? failure() : HttpResponse.json(draft))));
    const probe = queryClientProbe();
    renderWithProviders(
      <>
        <CampaignsPage programOptions={[]} merchantOptions={[]} renderRichText={renderRichText} />
        <probe.Probe />
      </>,
      { route: `/campaigns?campaign=${draft.id}`, user: admin },
    );
    const drawer = await screen.findByRole('dialog', { name: 'Campagna' });
    const name = await within(drawer).findByRole('textbox', { name: /Nome/ });
    await user.clear(name);
    await user.type(name, 'Caffè di dicembre');

    isFailing = true;
    // The network is tried again (lib/query-client.ts) before the failure shows.
    await probe.refetch(campaignKeys.campaign(draft.id));

    const notice = await within(drawer).findByRole('status', {}, { timeout: 10_000 });
    expect(notice).toHaveTextContent(title);
    expect(notice).toHaveTextContent(text);
    expect(within(drawer).getByRole('textbox', { name: /Nome/ })).toHaveValue('Caffè di dicembre');
    expect(within(drawer).queryByText(/Campagna non trovata/)).toBeNull();
  });

  it('leaves the notice once a retry loads the campaign again', async () => {
    const user = userEvent.setup();
    answerList();
    let isFailing = false;
    server.use(
      audience(),
      http.get(`/api/admin/campaigns/${draft.id}`, () =>
        isFailing ? HttpResponse.json({ error: { code: 'rate_limited', message: 'Troppe richieste', requestId: 'r' } }, { status: 429 }) : HttpResponse.json(draft),
      ),
    );
    const probe = queryClientProbe();
    renderWithProviders(
      <>
        <CampaignsPage programOptions={[]} merchantOptions={[]} renderRichText={renderRichText} />
        <probe.Probe />
      </>,
      { route: `/campaigns?campaign=${draft.id}`, user: admin },
    );
    const drawer = await screen.findByRole('dialog', { name: 'Campagna' });
    await within(drawer).findByRole('textbox', { name: /Nome/ });
    isFailing = true;
    await probe.refetch(campaignKeys.campaign(draft.id));
    const notice = await within(drawer).findByRole('status');
    isFailing = false;
    await user.click(within(notice).getByRole('button', { name: 'Riprova' }));
    await waitFor(() => expect(within(drawer).queryByRole('status')).toBeNull());
    expect(within(drawer).getByRole('textbox', { name: /Nome/ })).toHaveValue(draft.name);
  });
});

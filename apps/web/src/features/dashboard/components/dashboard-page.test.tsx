import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/test-utils.tsx';
import { dashboardAnswer } from '../testing/dashboard-fixtures.ts';
import { DashboardPage } from './dashboard-page.tsx';

const admin = { role: 'admin' as const };

/** The answer latest-changes.test.tsx reads too (testing/dashboard-fixtures.ts). */
const answer = dashboardAnswer();

/** Answers the dashboard's figures and keeps the query of each request, oldest first. */
function recordDashboardQueries(): string[] {
  const asked: string[] = [];
  server.use(
    http.get('/api/admin/dashboard', ({ request }) => {
      asked.push(new URL(request.url).search);
      return HttpResponse.json(answer);
    }),
  );
  return asked;
}

describe('DashboardPage', () => {
  it('asks the API for the period, program and merchant in the URL, and changes the URL with the presets', async () => {
    const user = userEvent.setup();
    const asked = recordDashboardQueries();
    const program = '00000000-0000-4000-8000-0000000000aa';
    renderWithProviders(<DashboardPage programOptions={[{ value: program, label: 'Circuito' }]} />, {
      route: `/dashboard?from=2026-01-01&to=2026-01-31&programId=${program}`,
      user: admin,
    });
    await screen.findByTestId('period-figures');
    expect(asked[0]).toBe(`?from=2026-01-01&to=2026-01-31&programId=${program}`);
    // With a program the customer figures are its members: named so, beside the figures that stay as they are.
    expect(within(screen.getByTestId('figure-customersNew')).getByText('Nuovi iscritti')).toBeInTheDocument();
    expect(within(screen.getByTestId('figure-customersTotal')).getByText('Iscritti')).toBeInTheDocument();
    expect(within(screen.getByTestId('figure-customersActive')).getByRole('link', { name: "Apri l'elenco: Iscritti attivi" })).toBeInTheDocument();
    expect(within(screen.getByTestId('figure-purchases')).getByText('Acquisti')).toBeInTheDocument();
    expect(await screen.findByRole('textbox', { name: 'Dal' })).toHaveValue('01/01/2026');
    await user.click(screen.getByText('7 giorni'));
    await vi.waitFor(() => expect(asked).toHaveLength(2));
    const params = new URLSearchParams(asked[1]);
    expect(params.get('programId')).toBe(program);
    const days = (Date.parse(params.get('to')!) - Date.parse(params.get('from')!)) / 86_400_000;
    expect(days).toBe(6);
  });

  it('keeps an end typed before the start, says why on "Al", and keeps the figures of the last period', async () => {
    const user = userEvent.setup();
    const asked = recordDashboardQueries();
    const { router } = renderWithProviders(<DashboardPage />, { route: '/dashboard?from=2026-01-10&to=2026-01-31', user: admin });
    await screen.findByTestId('period-figures');
    const last = await screen.findByRole('textbox', { name: 'Al' });
    await user.clear(last);
    await user.type(last, '5/1/2026');
    await user.tab();
    expect(last).toHaveValue('05/01/2026');
    expect(screen.getByText('Al: la data non può venire prima di Dal')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?from=2026-01-10&to=2026-01-31');
    // An earlier start puts the period right: both days go to the URL, and the text goes.
    const first = screen.getByRole('textbox', { name: 'Dal' });
    await user.clear(first);
    await user.type(first, '1/1/2026');
    await vi.waitFor(() => expect(router.state.location.search).toBe('?from=2026-01-01&to=2026-01-05'));
    expect(screen.queryByText('Al: la data non può venire prima di Dal')).toBeNull();
    await vi.waitFor(() => expect(asked.at(-1)).toBe('?from=2026-01-01&to=2026-01-05'));
  });

  it('picks a program with ArrowDown and Enter, as every Select does', async () => {
    const user = userEvent.setup();
    const asked = recordDashboardQueries();
    const program = '00000000-0000-4000-8000-0000000000aa';
    renderWithProviders(<DashboardPage programOptions={[{ value: program, label: 'Circuito' }]} />, { route: '/dashboard?from=2026-01-01&to=2026-01-31', user: admin });
    await screen.findByTestId('period-figures');
    const field = screen.getByRole('combobox', { name: 'Programma' });
    field.focus();
    // Opened on the chosen option ("Tutti i programmi"); ArrowDown moves on to the program.
    await user.keyboard('{ArrowDown}');
    expect(await screen.findByRole('option', { name: 'Tutti i programmi', hidden: true })).toHaveAttribute('data-combobox-selected');
    await user.keyboard('{ArrowDown}{Enter}');
    await vi.waitFor(() => expect(new URLSearchParams(asked.at(-1)).get('programId')).toBe(program));
  });

  it('renders the figures of the API answer, formatted for the language', async () => {
    server.use(http.get('/api/admin/dashboard', () => HttpResponse.json(answer)));
    renderWithProviders(<DashboardPage />, { route: '/dashboard', user: admin });

    expect(screen.getByTestId('dashboard-skeleton')).toBeInTheDocument();
    const published = await screen.findByTestId('posts-published');
    expect(within(published).getByText('1.234')).toBeInTheDocument();
    expect(within(screen.getByTestId('posts-draft')).getByText('3')).toBeInTheDocument();
    expect(within(screen.getByTestId('posts-scheduled')).getByText('2')).toBeInTheDocument();
    expect(within(screen.getByTestId('posts-archived')).getByText('0')).toBeInTheDocument();
    expect(screen.getByText('1.239 in tutto')).toBeInTheDocument();

    // The period's figures, with Italian grouping, each leading to its list with the same filters.
    expect(within(screen.getByTestId('figure-customersTotal')).getByText('3.012')).toBeInTheDocument();
    expect(within(screen.getByTestId('figure-customersNew')).getByText('Nuovi clienti')).toBeInTheDocument();
    expect(within(screen.getByTestId('figure-customersTotal')).getByRole('link', { name: 'Apri l\'elenco: Clienti' })).toHaveAttribute(
      'href',
      '/customers?joinedTo=2026-11-22T22%3A59%3A59.999Z&erased=false',
    );
    expect(within(screen.getByTestId('figure-activeMerchants')).getByText('24')).toBeInTheDocument();
    expect(within(screen.getByTestId('figure-pointsIssued')).getByText('125.400')).toBeInTheDocument();
    // The period's business days as the server cut them in Rome, whatever the browser's time zone.
    expect(within(screen.getByTestId('figure-pointsIssued')).getByRole('link')).toHaveAttribute(
      'href',
      '/ledger?kind=earn&from=2026-10-23T22%3A00%3A00.000Z&to=2026-11-22T22%3A59%3A59.999Z',
    );
    expect(within(screen.getByTestId('figure-customersActive')).getByRole('link')).toHaveAttribute(
      'href',
      '/customers?activeFrom=2026-10-23T22%3A00%3A00.000Z&activeTo=2026-11-22T22%3A59%3A59.999Z',
    );
    expect(within(screen.getByTestId('figure-customersActive')).getByText('con almeno un movimento proprio nel periodo')).toBeInTheDocument();
    expect(within(screen.getByTestId('figure-pointsOutstanding')).getByRole('link')).toHaveAttribute('href', '/ledger?to=2026-11-22T22%3A59%3A59.999Z');
    // The proofs waiting now: Approvazioni's queue.
    expect(within(screen.getByTestId('figure-pendingApprovals')).getByRole('link', { name: "Apri l'elenco: Approvazioni in attesa" })).toHaveAttribute('href', '/approvals?status=pending');
    expect(within(screen.getByTestId('figure-pointsRedeemed')).getByText('48.250')).toBeInTheDocument();
    expect(within(screen.getByTestId('figure-pointsOutstanding')).getByText('1.234.567')).toBeInTheDocument();
    expect(within(screen.getByTestId('figure-purchases')).getByText('5.210')).toBeInTheDocument();
    expect(within(screen.getByTestId('ranked-merchants')).getByRole('link', { name: 'Bar Centrale' })).toHaveAttribute(
      'href',
      expect.stringContaining('merchantId=00000000-0000-4000-8000-000000000001'),
    );
    // A reward opens its page and says its program: two programs' rewards may share a name.
    const reward = within(screen.getByTestId('ranked-rewards')).getByRole('link', { name: 'Caffè omaggio' });
    expect(reward).toHaveAttribute('href', '/rewards/00000000-0000-4000-8000-000000000002');
    expect(within(reward.closest('td')!).getByText('Tessera Bar Centrale')).toBeInTheDocument();
    expect(within(screen.getByTestId('ranked-tiers')).getByText('Nessun livello')).toBeInTheDocument();
    expect(within(screen.getByTestId('privacy-deadlines')).getByText('mancano 2 giorni')).toBeInTheDocument();
    expect(within(screen.getByTestId('posts-draft')).getByRole('link', { name: 'Mostra i post: Bozze' })).toHaveAttribute('href', '/news?status=draft');

    const next = screen.getByRole('region', { name: 'Prossimi post programmati' });
    expect(within(next).getByRole('link', { name: 'Saldi di primavera' })).toHaveAttribute('href', '/news?post=12');
    expect(within(next).getByText('01/12/2026, 09:00 · di Eddie Editor')).toBeInTheDocument();

    const changes = screen.getByRole('region', { name: 'Ultime modifiche' });
    const rows = within(changes).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('21/11/2026, 16:04');
    expect(rows[1]).toHaveTextContent('admin@demo.test');
    // The post by its title (the answer's `record`), not its number.
    expect(within(rows[1]!).getByRole('link', { name: 'post “Saldi di primavera”' })).toHaveAttribute('href', '/news?post=12');
    expect(rows[2]).toHaveTextContent('Sistema');
    expect(rows[2]).toHaveTextContent('Ha modificato un account del personale utente n. u-9');
  });

  it('says which figures a merchant does not narrow, and counts active customers at that merchant', async () => {
    const merchantId = '00000000-0000-4000-8000-000000000001';
    server.use(http.get('/api/admin/dashboard', () => HttpResponse.json({ ...answer, period: { ...answer.period, merchantId } })));
    renderWithProviders(<DashboardPage />, { route: `/dashboard?merchantId=${merchantId}`, user: admin });
    await screen.findByTestId('period-figures');
    // Customers registered, balances and tiers belong to no merchant: each says so rather than read as the merchant's.
    for (const id of ['customersTotal', 'customersNew', 'pointsOutstanding']) {
      expect(screen.getByTestId(`figure-${id}-scope`)).toHaveTextContent('per tutti gli esercenti');
    }
    expect(screen.getByTestId('ranked-tiers-scope')).toHaveTextContent('per tutti gli esercenti');
    for (const id of ['customersActive', 'pointsIssued', 'purchases', 'activeMerchants']) {
      expect(screen.queryByTestId(`figure-${id}-scope`)).not.toBeInTheDocument();
    }
    // Active customers are those who moved there, which Clienti cannot list: no link.
    const active = screen.getByTestId('figure-customersActive');
    expect(within(active).getByText("con almeno un movimento proprio presso l'esercente nel periodo")).toBeInTheDocument();
    expect(within(active).queryByRole('link')).not.toBeInTheDocument();
  });

  it('shows no merchant note without a merchant chosen', async () => {
    server.use(http.get('/api/admin/dashboard', () => HttpResponse.json(answer)));
    renderWithProviders(<DashboardPage />, { route: '/dashboard', user: admin });
    await screen.findByTestId('period-figures');
    expect(screen.queryByText('per tutti gli esercenti')).not.toBeInTheDocument();
  });

  it('adds up the period\'s points, reversals and adjustments included, and opens Movimenti whose points are that sum', async () => {
    server.use(http.get('/api/admin/dashboard', () => HttpResponse.json(answer)));
    renderWithProviders(<DashboardPage />, { route: '/dashboard', user: admin });
    const balance = await screen.findByTestId('points-balance');
    expect(balance).toHaveTextContent('Variazione dei punti nel periodo: +75.600 = 125.400 emessi − 48.250 riscattati − 1.500 scaduti − 20 rettificati − 30 stornati');
    expect(within(balance).getByRole('link', { name: "Apri l'elenco: Movimenti del periodo" })).toHaveAttribute(
      'href',
      '/ledger?from=2026-10-23T22%3A00%3A00.000Z&to=2026-11-22T22%3A59%3A59.999Z',
    );
  });

  it('adds up the period\'s points in English too', async () => {
    server.use(http.get('/api/admin/dashboard', () => HttpResponse.json({ ...answer, period: { ...answer.period, pointsAdjusted: 107, pointsReversed: 0, pointsNetChange: 75_757 } })));
    renderWithProviders(<DashboardPage />, { route: '/dashboard', user: admin, language: 'en' });
    expect(await screen.findByTestId('points-balance')).toHaveTextContent(
      'Change in points over the period: +75,757 = 125,400 issued − 48,250 redeemed − 1,500 expired + 107 adjusted + 0 reversed',
    );
  });

  it('shows empty lists in English when nothing is scheduled or changed', async () => {
    server.use(
      http.get('/api/admin/dashboard', () =>
        HttpResponse.json({
          ...answer,
          postsByStatus: { draft: 0, scheduled: 0, published: 0, archived: 0 },
          period: { ...answer.period, topMerchants: [], privacyDeadlines: { count: 0, items: [] } },
          nextScheduled: [],
          latestChanges: [],
        }),
      ),
    );
    renderWithProviders(<DashboardPage />, { route: '/dashboard', user: admin, language: 'en' });
    expect(await screen.findByText('No post is scheduled.')).toBeInTheDocument();
    expect(screen.getByText('Nothing has changed yet.')).toBeInTheDocument();
    expect(screen.getByText('0 in all')).toBeInTheDocument();
    expect(screen.getByText('No request due in the next 7 days.')).toBeInTheDocument();
    expect(within(screen.getByTestId('ranked-merchants')).getByText('No data in the period.')).toBeInTheDocument();
  });

  it('tells admins which stored figures the nightly check found wrong, since when, and the command that rebuilds them', async () => {
    server.use(
      http.get('/api/admin/dashboard', () =>
        HttpResponse.json({
          ...answer,
          integrity: [
            { figure: 'dashboardRollups', firstSeenAt: '2026-11-20T03:00:00.000Z', lastSeenAt: '2026-11-22T03:00:00.000Z', problems: 12, isRebuildable: true, examples: [] },
            { figure: 'balances', firstSeenAt: '2026-11-22T03:00:00.000Z', lastSeenAt: '2026-11-22T03:00:00.000Z', problems: 1, isRebuildable: false, examples: [] },
          ],
        }),
      ),
    );
    renderWithProviders(<DashboardPage />, { route: '/dashboard', user: admin });
    const notice = await screen.findByTestId('integrity-notice');
    expect(within(notice).getByText('Integrità dei dati')).toBeInTheDocument();
    expect(within(notice).getByText('Riepiloghi della dashboard: 12 differenze, dal 20/11/2026, 04:00')).toBeInTheDocument();
    expect(within(notice).getByText('Saldi dei membri: 1 differenza, dal 22/11/2026, 04:00')).toBeInTheDocument();
    expect(within(notice).getByText('npm run ledger:rebuild')).toBeInTheDocument();
    expect(within(notice).getByText('npm run ledger:verify')).toBeInTheDocument();
  });

  it('shows no integrity notice when the latest check found everything right', async () => {
    server.use(http.get('/api/admin/dashboard', () => HttpResponse.json(answer)));
    renderWithProviders(<DashboardPage />, { route: '/dashboard', user: admin, language: 'en' });
    await screen.findByTestId('period-figures');
    expect(screen.queryByTestId('integrity-notice')).toBeNull();
    // A status names its posts after a colon, as in Italian: "Show the Drafts posts" read badly.
    expect(within(screen.getByTestId('posts-draft')).getByRole('link', { name: 'Show posts: Drafts' })).toHaveAttribute('href', '/news?status=draft');
    expect(within(screen.getByTestId('posts-draft')).getByLabelText(/^Drafts: \d+% of the posts$/)).toBeInTheDocument();
  });

  it('shows an error with a retry when the figures cannot be loaded', async () => {
    const user = userEvent.setup();
    let calls = 0;
    server.use(
      http.get('/api/admin/dashboard', () => {
        calls += 1;
        return calls === 1
          ? HttpResponse.json({ error: { code: 'not_found', message: 'No', requestId: 'r' } }, { status: 404 })
          : HttpResponse.json(answer);
      }),
    );
    renderWithProviders(<DashboardPage />, { route: '/dashboard', user: admin });
    const alert = (await screen.findByText('Impossibile caricare la dashboard')).closest<HTMLElement>('[role="alert"]');
    expect(alert).not.toBeNull();
    await user.click(within(alert!).getByRole('button', { name: 'Riprova' }));
    expect(await screen.findByTestId('posts-published')).toBeInTheDocument();
  });
});

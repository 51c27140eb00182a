import type { Dashboard } from '@sf/contract/dashboard';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/test-utils.tsx';
import { DashboardPage } from './dashboard-page.tsx';

const admin = { role: 'admin' as const };

const answer: Dashboard = {
  postsByStatus: { draft: 3, scheduled: 2, published: 1234, archived: 0 },
  loyalty: { customersTotal: 3012, customersNew: 41, activeMerchants: 24, pointsIssued: 125_400, pointsRedeemed: 48_250, pointsOutstanding: 1_234_567, periodDays: 30 },
  period: {
    from: '2026-10-24',
    to: '2026-11-22',
    programId: null,
    merchantId: null,
    customersTotal: 3012,
    customersNew: 41,
    customersActive: 870,
    activeMerchants: 24,
    pointsIssued: 125_400,
    pointsRedeemed: 48_250,
    pointsExpired: 1_500,
    pointsAdjusted: -20,
    pointsOutstanding: 1_234_567,
    stampsIssued: 640,
    stampsRedeemed: 90,
    redemptions: 311,
    purchases: 5_210,
    trend: [
      { day: '2026-11-21', pointsIssued: 4_000, pointsRedeemed: 1_200, pointsExpired: 0, stampsIssued: 20, purchases: 170 },
      { day: '2026-11-22', pointsIssued: 3_500, pointsRedeemed: 900, pointsExpired: 100, stampsIssued: 25, purchases: 150 },
    ],
    topMerchants: [{ merchantId: '00000000-0000-4000-8000-000000000001', name: 'Bar Centrale', pointsIssued: 40_000, purchases: 1_600 }],
    tierMix: [
      { tier: null, members: 100 },
      { tier: 'Oro', members: 12 },
    ],
    topRewards: [{ rewardId: '00000000-0000-4000-8000-000000000002', name: 'Caffè omaggio', vouchers: 57 }],
    pendingApprovals: 4,
    privacyDeadlines: { count: 1, items: [{ id: '00000000-0000-4000-8000-000000000003', kind: 'erasure', dueAt: '2026-11-25T10:00:00.000Z', daysLeft: 2 }] },
  },
  nextScheduled: [
    { id: 12, title: 'Saldi di primavera', publishAt: '2026-12-01T08:00:00.000Z', author: { id: 'u-editor', displayName: 'Eddie Editor' } },
  ],
  latestChanges: [
    { id: 90, at: '2026-11-21T15:04:00.000Z', actorId: 'u-admin', actorEmail: 'admin@demo.test', action: 'news.publish', entityType: 'news_post', entityId: '12', requestId: 'r1' },
    { id: 89, at: '2026-11-21T14:00:00.000Z', actorId: null, actorEmail: null, action: 'staff.update', entityType: 'user', entityId: 'u-9', requestId: null },
  ],
};

describe('DashboardPage', () => {
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

    // The loyalty figures of the API, with Italian grouping, each leading to its list.
    const customers = screen.getByTestId('loyalty-customers');
    expect(within(customers).getByText('3.012')).toBeInTheDocument();
    expect(within(customers).getByText('41 nuovi negli ultimi 30 giorni')).toBeInTheDocument();
    expect(within(customers).getByRole('link', { name: 'Apri: Clienti' })).toHaveAttribute('href', '/customers');
    expect(within(screen.getByTestId('loyalty-merchants')).getByText('24')).toBeInTheDocument();
    expect(within(screen.getByTestId('loyalty-issued')).getByText('125.400')).toBeInTheDocument();
    expect(within(screen.getByTestId('loyalty-redeemed')).getByText('48.250')).toBeInTheDocument();
    expect(within(screen.getByTestId('loyalty-outstanding')).getByText('1.234.567')).toBeInTheDocument();
    expect(within(screen.getByTestId('posts-draft')).getByRole('link', { name: 'Mostra i post: Bozze' })).toHaveAttribute('href', '/news?status=draft');

    const next = screen.getByRole('region', { name: 'Prossimi post programmati' });
    expect(within(next).getByRole('link', { name: 'Saldi di primavera' })).toHaveAttribute('href', '/news?post=12');
    expect(within(next).getByText('01/12/2026, 09:00 · di Eddie Editor')).toBeInTheDocument();

    const changes = screen.getByRole('region', { name: 'Ultime modifiche' });
    const rows = within(changes).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('21/11/2026, 16:04');
    expect(rows[1]).toHaveTextContent('admin@demo.test');
    expect(within(rows[1]!).getByRole('link', { name: 'post n. 12' })).toHaveAttribute('href', '/news?post=12');
    expect(rows[2]).toHaveTextContent('Sistema');
    expect(rows[2]).toHaveTextContent('Ha modificato un account del personale utente n. u-9');
  });

  it('shows empty lists in English when nothing is scheduled or changed', async () => {
    server.use(
      http.get('/api/admin/dashboard', () =>
        HttpResponse.json({ postsByStatus: { draft: 0, scheduled: 0, published: 0, archived: 0 }, loyalty: { ...answer.loyalty, customersNew: 1 }, nextScheduled: [], latestChanges: [] }),
      ),
    );
    renderWithProviders(<DashboardPage />, { route: '/dashboard', user: admin, language: 'en' });
    expect(await screen.findByText('No post is scheduled.')).toBeInTheDocument();
    expect(screen.getByText('Nothing has changed yet.')).toBeInTheDocument();
    expect(screen.getByText('0 in all')).toBeInTheDocument();
    expect(screen.getByText('1 new in the last 30 days')).toBeInTheDocument();
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

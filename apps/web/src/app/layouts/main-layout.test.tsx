import { Drawer, TextInput } from '@mantine/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { lazy, Suspense } from 'react';
import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { LANGUAGE_STORAGE_KEY, SESSION_STORAGE_KEY } from '@sf/contract/app-info';
import { server } from '../../testing/msw-server.ts';
import { useDrawerParam } from '../../hooks/use-drawer-param.ts';
import { useRecordTitle } from '../../lib/document-title.ts';
import { renderRoutes, testUser } from '../../testing/test-utils.tsx';
import { screenHandle } from '../screens.ts';
import { Component as MainLayout } from './main-layout.tsx';

function CustomerPage() {
  useRecordTitle('Anna Rossi');
  return <p>customer page</p>;
}

const routes = [
  {
    element: <MainLayout />,
    children: [
      { path: '/dashboard', handle: screenHandle('dashboard'), element: <p>dashboard screen</p> },
      { path: '/news', handle: screenHandle('news'), element: <p>news screen</p> },
      { path: '/customers/:id', handle: screenHandle('customers'), element: <CustomerPage /> },
    ],
  },
  { path: '/auth/login', element: <p>login screen</p> },
];

describe('main layout', () => {
  // An admin's menu asks for the count of accounts waiting for approval (its Staff entry's badge).
  beforeEach(() => {
    server.use(http.get('/api/admin/staff', () => HttpResponse.json({ items: [], total: 0, page: 1, pageSize: 1 })));
  });

  it('shows an admin the S14 entries whose screens exist, built from the screen registry', async () => {
    renderRoutes(routes, { route: '/dashboard', user: { role: 'admin' }, language: 'en' });
    const nav = await screen.findByRole('navigation', { name: 'Main menu' });
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'News' })).toHaveAttribute('href', '/news');
    expect(within(nav).getByRole('link', { name: 'Create New Post' })).toHaveAttribute('href', '/news?post=new');
    expect(within(nav).getByText('Master data')).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Merchants' })).toHaveAttribute('href', '/merchants');
    // Pages holds the Audit screen now.
    expect(within(nav).getByText('Pages')).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Audit' })).toHaveAttribute('href', '/audit');
    expect(screen.getByRole('link', { name: 'Skip to main content' })).toHaveAttribute('href', '#main-content');
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main-content');
  });

  it('draws the menu in the same render as the screen, not a frame after it (issue 32)', () => {
    renderRoutes(routes, { route: '/dashboard', user: { role: 'admin' } });
    expect(screen.getByText('dashboard screen')).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Menu principale' });
    expect(within(nav).getByRole('link', { name: 'Clienti' })).toHaveAttribute('href', '/customers');
    expect(screen.getByRole('button', { name: 'Azioni' })).toBeInTheDocument();
  });

  it("names the screen in the browser's tab as its menu entry does, and a record's page by the record first (WCAG 2.4.2)", async () => {
    const user = userEvent.setup();
    renderRoutes(routes, { route: '/customers/c1', user: { role: 'admin' } });
    expect(await screen.findByText('customer page')).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Anna Rossi · Clienti · Social Fidelity'));
    // Leaving the record's page takes its name out of the tab.
    await user.click(within(screen.getByRole('navigation', { name: 'Menu principale' })).getByRole('link', { name: 'News' }));
    expect(await screen.findByText('news screen')).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('News · Social Fidelity'));
    await user.click(within(screen.getByRole('navigation', { name: 'Menu principale' })).getByRole('link', { name: 'Dashboard' }));
    await waitFor(() => expect(document.title).toBe('Dashboard · Social Fidelity'));
  });

  it('moves the current-page mark to the link followed, and only to it (the links are memoised)', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, { route: '/dashboard', user: { role: 'admin' }, language: 'en' });
    const nav = await screen.findByRole('navigation', { name: 'Main menu' });
    await user.click(within(nav).getByRole('link', { name: 'News' }));
    expect(await screen.findByText('news screen')).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'News' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
    expect(within(nav).getAllByRole('link').filter((link) => link.getAttribute('aria-current') === 'page')).toHaveLength(1);
  });

  it('shows an editor only News and Create New Post, in Italian by default', async () => {
    renderRoutes(routes, { route: '/news', user: { role: 'editor', displayName: 'Edo Editor' } });
    const nav = await screen.findByRole('navigation', { name: 'Menu principale' });
    expect(within(nav).queryByRole('link', { name: 'Dashboard' })).not.toBeInTheDocument();
    expect(within(nav).queryByText('Anagrafiche')).not.toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Esercenti' })).not.toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'News' })).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Crea nuovo post' })).toBeInTheDocument();
    // The role in the header is the staff list's word for it.
    expect(screen.getByRole('button', { name: /Edo Editor/ })).toHaveTextContent('Redattore');
  });

  it('switches the language from the user menu and stores it under "language" (S13)', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, { route: '/news', user: { role: 'editor', displayName: 'Edo Editor' }, language: 'en' });
    await user.click(await screen.findByRole('button', { name: /Edo Editor/ }));
    expect(await screen.findByText('Version v8.0.34')).toBeInTheDocument();
    const italian = (await screen.findByText('Italiano')).closest('button');
    expect(italian).toHaveAttribute('role', 'menuitem');
    await user.click(italian as HTMLElement);
    expect(await screen.findByRole('navigation', { name: 'Menu principale' })).toBeInTheDocument();
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('it');
  });

  it('opens the own profile in a dialog and saves it with PATCH /api/admin/me', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const me = testUser({ role: 'editor', displayName: 'Edo Editor', firstName: 'Edo', language: 'en' });
    let patch: Record<string, unknown> | null = null;
    server.use(
      http.get('/api/admin/me', () => HttpResponse.json(me)),
      http.patch('/api/admin/me', async ({ request }) => {
        patch = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json({ ...me, ...patch, displayName: 'Edoardo Editor' });
      }),
    );
    const user = userEvent.setup();
    renderRoutes(routes, { route: '/news', user: me, language: 'en' });
    await user.click(await screen.findByRole('button', { name: /Edo Editor/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'My profile' }));
    const dialog = await screen.findByRole('dialog', { name: 'My profile' });
    const firstName = await within(dialog).findByRole('textbox', { name: 'First name' });
    expect(firstName).toHaveValue('Edo');
    await user.clear(firstName);
    await user.type(firstName, 'Edoardo');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'My profile' })).not.toBeInTheDocument());
    expect(patch).toMatchObject({ firstName: 'Edoardo', language: 'en', timeZone: 'Europe/Rome' });
    expect(await screen.findByRole('button', { name: /Edoardo Editor/ })).toBeInTheDocument();
  });

  it('signs out: revokes the refresh token, clears the stored session and goes to /auth/login', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    let revoked: unknown = null;
    server.use(
      http.post('/api/auth/logout', async ({ request }) => {
        revoked = await request.json();
        return HttpResponse.json({ ok: true });
      }),
    );
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, { route: '/dashboard', user: { role: 'admin', displayName: 'Ada Admin' }, language: 'en' });
    await user.click(await screen.findByRole('button', { name: /Ada Admin/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
    expect(await screen.findByText('login screen')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/login');
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(revoked).toEqual({ refreshToken: 'refresh-1' });
  });
});

function CustomersPage() {
  // The page's drawer is addressed by `?customer=`, as the real Clienti's.
  useDrawerParam('customer');
  return (
    <>
      <h1>Clienti</h1>
      <input aria-label="Cerca" />
    </>
  );
}

function NewCustomerDrawer() {
  const drawer = useDrawerParam('customer');
  return (
    <Drawer opened={drawer.target === 'new'} onClose={drawer.close} title="Nuovo cliente">
      <TextInput label="Nome" data-autofocus />
    </Drawer>
  );
}

// Its code, the drawer's parameter with it, loads when the page first draws (as the real form does).
const LazyNewCustomerDrawer = lazy(() => Promise.resolve({ default: NewCustomerDrawer }));

function CustomersPageWithLazyDrawer() {
  return (
    <>
      <h1>Clienti</h1>
      <Suspense fallback={null}>
        <LazyNewCustomerDrawer />
      </Suspense>
    </>
  );
}

describe('the focus after moving to another page', () => {
  beforeEach(() => {
    server.use(http.get('/api/admin/staff', () => HttpResponse.json({ items: [], total: 0, page: 1, pageSize: 1 })));
  });

  const pages = [
    {
      element: <MainLayout />,
      children: [
        { path: '/dashboard', handle: screenHandle('dashboard'), element: <h1>Dashboard</h1> },
        { path: '/customers', handle: screenHandle('customers'), element: <CustomersPage /> },
        { path: '/customers/:id', handle: screenHandle('customers'), element: <h1>Anna Rossi</h1> },
      ],
    },
  ];

  it('leaves the focus to the drawer that a move to another page opens, though nothing of that page has drawn before', async () => {
    const user = userEvent.setup();
    const withLazyDrawer = [
      {
        element: <MainLayout />,
        children: [
          { path: '/dashboard', handle: screenHandle('dashboard'), element: <h1>Dashboard</h1> },
          { path: '/customers', handle: screenHandle('customers'), element: <CustomersPageWithLazyDrawer /> },
        ],
      },
    ];
    renderRoutes(withLazyDrawer, { route: '/dashboard', user: { role: 'admin' } });
    await user.click(await screen.findByRole('button', { name: 'Azioni' }));
    // What the focus passes through: a heading focused before the drawer's field would be what Esc on the
    // drawer gives the focus back to (lib/dialog-focus.ts), instead of Azioni.
    const focused: Element[] = [];
    const track = (event: FocusEvent) => focused.push(event.target as Element);
    document.addEventListener('focusin', track);
    onTestFinished(() => document.removeEventListener('focusin', track));
    await user.click(await screen.findByRole('menuitem', { name: 'Nuovo cliente' }));
    const drawer = await screen.findByRole('dialog', { name: 'Nuovo cliente' });
    await waitFor(() => expect(within(drawer).getByRole('textbox', { name: 'Nome' })).toHaveFocus());
    expect(focused).not.toContain(screen.getByRole('heading', { name: 'Clienti' }));
  });

  it('takes a search parameter for a drawer only on the screen that declares it, whatever the tab showed before', async () => {
    const { router } = renderRoutes(pages, { route: '/customers', user: { role: 'admin' } });
    expect(await screen.findByRole('heading', { name: 'Clienti' })).toBeInTheDocument();
    // Clienti's drawer parameter, on a screen whose address means something else by it.
    await router.navigate('/dashboard?customer=c1');
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Dashboard' })).toHaveFocus());
  });

  it("goes to the new page's heading, so the next Tab reaches its first control; not on the first load, nor when only the query changes", async () => {
    const user = userEvent.setup();
    const { router } = renderRoutes(pages, { route: '/dashboard', user: { role: 'admin' } });
    const nav = await screen.findByRole('navigation', { name: 'Menu principale' });
    // The first load leaves the focus where the browser puts it.
    expect(screen.getByRole('heading', { name: 'Dashboard' })).not.toHaveFocus();
    within(nav).getByRole('link', { name: 'Clienti' }).focus();
    await user.keyboard('{Enter}');
    const heading = await screen.findByRole('heading', { name: 'Clienti' });
    await waitFor(() => expect(heading).toHaveFocus());
    // Reachable by script, not a Tab stop of its own.
    expect(heading).toHaveAttribute('tabindex', '-1');
    await user.tab();
    expect(screen.getByRole('textbox', { name: 'Cerca' })).toHaveFocus();
    // Another query on the same page (a filter, a drawer) leaves the focus where it is.
    await router.navigate('/customers?customer=new');
    expect(screen.getByRole('textbox', { name: 'Cerca' })).toHaveFocus();
    // A record opened from the list: its heading, not the page's body.
    await router.navigate('/customers/c1');
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Anna Rossi' })).toHaveFocus());
    // Another page opening on its drawer (Azioni → Nuovo cliente) leaves the focus to the drawer.
    const actions = screen.getByRole('button', { name: 'Azioni' });
    actions.focus();
    await router.navigate('/customers?customer=new');
    expect(await screen.findByRole('heading', { name: 'Clienti' })).toBeInTheDocument();
    expect(actions).toHaveFocus();
  });
});

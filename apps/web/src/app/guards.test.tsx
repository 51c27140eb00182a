import { act, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { Outlet, type RouteObject } from 'react-router';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { SESSION_STORAGE_KEY } from '@sf/contract/app-info';
import { toastModule } from '../lib/notify.ts';
import { sessionStore, writeStoredSession } from '../lib/session.ts';
import { restoreSession } from '../lib/user-by-token.ts';
import { server } from '../testing/msw-server.ts';
import { fakeIdToken, renderRoutes, testUser } from '../testing/test-utils.tsx';
import { HomeRedirect, RequireAuth, UnknownPath } from './guards.tsx';
import { RootLayout } from './root-layout.tsx';
import { screenHandle } from './screens.ts';

/** The app's route shape (router.tsx) with stand-in screens, so the guard is tested on its own. */
const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: 'auth/login', element: <p>login screen</p> },
      { path: 'error/404', element: <p>not found screen</p> },
      {
        element: <RequireAuth />,
        children: [
          {
            element: <Outlet />,
            children: [
              { index: true, element: <HomeRedirect /> },
              { path: 'dashboard', handle: screenHandle('dashboard'), element: <p>dashboard screen</p> },
              { path: 'news', handle: screenHandle('news'), element: <p>news screen</p> },
              { path: 'customers', handle: screenHandle('customers'), element: <p>customers screen</p> },
            ],
          },
        ],
      },
      { path: '*', element: <UnknownPath /> },
    ],
  },
];

describe('route guard (S8, S9)', () => {
  it("refuses a screen whose route handle names a permission the role lacks, and never loops at home", async () => {
    const guarded: RouteObject[] = [
      { path: 'error/404', element: <p>not found screen</p> },
      {
        element: <RequireAuth />,
        children: [{ path: 'news', handle: { permission: 'staff:manage' }, element: <p>news screen</p> }],
      },
    ];
    const { router } = renderRoutes(guarded, { route: '/news', user: { role: 'editor' } });
    expect(await screen.findByText('not found screen')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/error/404');
  });

  it('sends nobody to /auth/login with where they were going, and clears the stored session', async () => {
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ authToken: 'stale', refreshToken: 'r', expiresIn: 'not a date' }));
    const { router } = renderRoutes(routes, { route: '/dashboard?range=7d' });
    expect(await screen.findByText('login screen')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/login');
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe('/dashboard?range=7d');
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('redirects an editor to /news from anywhere, keeping the search parameters on /news', async () => {
    for (const path of ['/dashboard', '/', '/staff/42', '/anything/else']) {
      const { router, unmount } = renderRoutes(routes, { route: path, user: { role: 'editor' } });
      expect(await screen.findByText('news screen')).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/news');
      unmount();
    }
    const { router } = renderRoutes(routes, { route: '/news?post=42&status=draft', user: { role: 'editor' } });
    expect(await screen.findByText('news screen')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?post=42&status=draft');
  });

  it("tells an editor sent away from an admins' screen why, once, and says nothing for News, \"/\" or an unknown path", async () => {
    const { notifications } = await toastModule();
    const show = vi.spyOn(notifications, 'show');
    onTestFinished(() => show.mockRestore());
    for (const path of ['/news', '/', '/anything/else']) {
      const { unmount } = renderRoutes(routes, { route: path, user: { role: 'editor' } });
      expect(await screen.findByText('news screen')).toBeInTheDocument();
      unmount();
    }
    // Toasts are raised a microtask later (notify.ts): give a stray one the chance to appear.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(show).not.toHaveBeenCalled();

    const { router } = renderRoutes(routes, { route: '/customers?page=2', user: { role: 'editor' }, isStrict: true });
    expect(await screen.findByText('news screen')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/news');
    expect(await screen.findByText('La sezione richiesta è riservata agli amministratori: ecco le News.')).toBeInTheDocument();
    expect(show).toHaveBeenCalledTimes(1);
  });

  it('lets an admin go anywhere, with / leading to the dashboard', async () => {
    const first = renderRoutes(routes, { route: '/', user: { role: 'admin' } });
    expect(await screen.findByText('dashboard screen')).toBeInTheDocument();
    first.unmount();
    const { router } = renderRoutes(routes, { route: '/news?page=2', user: { role: 'admin' } });
    expect(await screen.findByText('news screen')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?page=2');
  });

  it('sends an unknown path to /error/404', async () => {
    const { router } = renderRoutes(routes, { route: '/no/such/page', user: { role: 'admin' } });
    expect(await screen.findByText('not found screen')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/error/404');
  });

  it('applies a role changed by a token refresh at once: a demoted admin lands on /news', async () => {
    const { router } = renderRoutes(routes, { route: '/dashboard', user: { role: 'admin' } });
    expect(await screen.findByText('dashboard screen')).toBeInTheDocument();
    act(() => sessionStore.applyRefresh({ authToken: 'new', refreshToken: 'r2' }, { role: 'editor' }));
    expect(await screen.findByText('news screen')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/news');
  });

  it('signs out and goes to /auth/login when a refresh fails mid-session', async () => {
    const { router } = renderRoutes(routes, { route: '/news', user: { role: 'editor' } });
    expect(await screen.findByText('news screen')).toBeInTheDocument();
    act(() => sessionStore.signOut('expired'));
    expect(await screen.findByText('login screen')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/login');
  });
});

describe('start-up (S4)', () => {
  it('shows a splash while the stored token is checked, then the app — never the login page', async () => {
    const user = testUser({ role: 'admin' });
    const token = fakeIdToken({ sub: user.uid, role: 'admin' });
    let seen: { query: string | null; header: string | null; contentType: string | null } | null = null;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.get('/api/admin/user-by-token', async ({ request }) => {
        seen = {
          query: new URL(request.url).searchParams.get('token'),
          header: request.headers.get('X-Auth-Token'),
          contentType: request.headers.get('Content-Type'),
        };
        await gate;
        return HttpResponse.json({ payload: user });
      }),
    );
    writeStoredSession({ authToken: token, refreshToken: 'r' });
    const restoring = restoreSession();
    const { router } = renderRoutes(routes, { route: '/dashboard', isSessionKept: true });
    expect(await screen.findByRole('status')).toHaveTextContent('Verifica della sessione in corso');
    expect(screen.queryByText('login screen')).not.toBeInTheDocument();
    expect(screen.queryByText('dashboard screen')).not.toBeInTheDocument();
    release();
    await act(() => restoring);
    expect(await screen.findByText('dashboard screen')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(seen).toEqual({ query: token, header: token, contentType: 'application/json' });
  });

  it('signs out when the answer has no payload', async () => {
    server.use(http.get('/api/admin/user-by-token', () => HttpResponse.json({})));
    writeStoredSession({ authToken: fakeIdToken({ role: 'admin' }), refreshToken: 'r' });
    await restoreSession();
    expect(sessionStore.getState().status).toBe('signed-out');
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('treats an expired stored session as absent without asking the API', async () => {
    writeStoredSession({ authToken: 'old', refreshToken: 'r' }, Date.now() - 864_000_001);
    await restoreSession();
    expect(sessionStore.getState().status).toBe('signed-out');
  });
});

import { screen, render, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { customer } from '../features/customers/testing/customer-fixtures.ts';
import { CustomersPage } from '../features/customers/components/customers-page.tsx';
import { changeLanguage } from '../lib/i18n.ts';
import { createQueryClient, queryClient as appQueryClient } from '../lib/query-client.ts';
import { sessionStore, writeStoredSession } from '../lib/session.ts';
import { server } from '../testing/msw-server.ts';
import { fakeIdToken, testUser } from '../testing/test-utils.tsx';
import { AppDataProviders } from './data-providers.tsx';
import { apiQueryFor, prefetchList } from './list-prefetch.ts';
import { PREFETCHED_SCREENS, prefetchScreenList, sendEarlyListRequest } from './prefetch-routes.ts';
import { SCREENS } from './screens.ts';
import { AppProviders } from './provider.tsx';

const SEARCH = '?q=bianchi&status=active&marketingConsent=false&page=2&sort=city&order=desc&pageSize=oops';

/** A stored session whose token carries `role`, the session store left as `main.tsx` leaves it during S4. */
function storeSession(role: 'admin' | 'editor') {
  const tokens = { authToken: fakeIdToken({ sub: 'u-1', role, email: 'a@demo.test' }), refreshToken: 'refresh-1' };
  writeStoredSession(tokens);
  sessionStore.setChecking();
  return tokens;
}

/** The customers' list answer, counting the requests and keeping their query strings. */
function customersApi(options: { delayUntil?: Promise<void> } = {}) {
  const seen: Record<string, string>[] = [];
  server.use(
    http.get('/api/admin/customers', async ({ request }) => {
      seen.push(Object.fromEntries(new URL(request.url).searchParams));
      await options.delayUntil;
      return HttpResponse.json({ items: [customer()], total: 1, page: 2, pageSize: 25 });
    }),
  );
  return seen;
}

function renderCustomers(client: ReturnType<typeof createQueryClient>, route: string) {
  const router = createMemoryRouter([{ path: '*', element: <CustomersPage programOptions={[]} hrefFor={(id) => `/customers/${id}`} /> }], { initialEntries: [route] });
  return render(
    <AppProviders>
      <AppDataProviders queryClient={client}>
        <RouterProvider router={router} />
      </AppDataProviders>
    </AppProviders>,
  );
}

afterEach(() => sessionStore.signOut());

describe('the deep link prefetch of a list', () => {
  it('sends, for an address, the request the screen sends, under the screen’s key, and the screen reuses it', async () => {
    void changeLanguage('it');
    const tokens = storeSession('admin');
    let answer!: () => void;
    const seen = customersApi({ delayUntil: new Promise<void>((resolve) => (answer = resolve)) });
    const client = createQueryClient();
    const declaration = await PREFETCHED_SCREENS['/customers']!.list();

    const key = prefetchList(declaration, new URLSearchParams(SEARCH), client);
    await waitFor(() => expect(seen).toHaveLength(1));
    // A hand-edited page size falls back to its default, as the screen reads it.
    expect(seen[0]).toEqual({ q: 'bianchi', status: 'active', marketingConsent: 'false', page: '2', pageSize: '25', sort: 'city', order: 'desc' });
    expect(key).toEqual(['customers', 'list', apiQueryFor(declaration, new URLSearchParams(SEARCH))]);

    // S4 confirms the session while the request is in flight; the screen then renders and finds it.
    sessionStore.signIn(testUser({ role: 'admin' }), tokens, { isNew: false });
    renderCustomers(client, `/customers${SEARCH}`);
    answer();
    expect(await screen.findByRole('link', { name: 'Bianchi Giulia' })).toBeInTheDocument();
    expect(seen).toHaveLength(1);
    expect(client.getQueryData(key!)).toMatchObject({ total: 1 });
  });

  it('drops the prefetched page when S4 refuses the stored session, so that nothing of it can be shown', async () => {
    storeSession('admin');
    const seen = customersApi();
    const client = createQueryClient();
    const key = prefetchList(await PREFETCHED_SCREENS['/customers']!.list(), new URLSearchParams(''), client);
    await waitFor(() => expect(client.getQueryData(key!)).toMatchObject({ total: 1 }));
    expect(seen).toHaveLength(1);

    sessionStore.signOut();
    expect(client.getQueryState(key!)).toBeUndefined();
  });

  it('drops it when S4 answers with a role that may not see the list, even before the answer arrives', async () => {
    const tokens = storeSession('admin');
    let answer!: () => void;
    customersApi({ delayUntil: new Promise<void>((resolve) => (answer = resolve)) });
    const client = createQueryClient();
    const key = prefetchList(await PREFETCHED_SCREENS['/customers']!.list(), new URLSearchParams(''), client);
    expect(client.getQueryState(key!)).toBeDefined();

    sessionStore.signIn(testUser({ role: 'editor' }), tokens, { isNew: false });
    answer();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(client.getQueryState(key!)).toBeUndefined();
  });

  it('asks for nothing when the stored token’s role may not see the list, or S4 has already refused the session', async () => {
    const seen = customersApi();
    const client = createQueryClient();
    const declaration = await PREFETCHED_SCREENS['/customers']!.list();

    storeSession('editor');
    expect(prefetchList(declaration, new URLSearchParams(''), client)).toBeNull();

    const tokens = storeSession('admin');
    sessionStore.signOut();
    writeStoredSession(tokens);
    expect(prefetchList(declaration, new URLSearchParams(''), client)).toBeNull();

    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toHaveLength(0);
    expect(client.getQueryCache().getAll()).toHaveLength(0);
  });
});

describe('the entry’s early request of a deep link’s list', () => {
  const customers = () => PREFETCHED_SCREENS['/customers']!;

  it('is the screen’s one request when the screen reads the address’s parameters as they were sent', async () => {
    const tokens = storeSession('admin');
    let answer!: () => void;
    const seen = customersApi({ delayUntil: new Promise<void>((resolve) => (answer = resolve)) });
    const client = createQueryClient();
    const search = '?q=bianchi&status=active&page=2&sort=city&order=desc';

    // Sent before the contract's schemas have loaded: the address's parameters, as they are.
    const early = sendEarlyListRequest(customers(), search);
    await waitFor(() => expect(seen).toHaveLength(1));
    expect(seen[0]).toEqual({ q: 'bianchi', status: 'active', page: '2', sort: 'city', order: 'desc' });

    const key = prefetchList(await customers().list(), new URLSearchParams(search), client, early);
    sessionStore.signIn(testUser({ role: 'admin' }), tokens, { isNew: false });
    renderCustomers(client, `/customers${search}`);
    answer();
    expect(await screen.findByRole('link', { name: 'Bianchi Giulia' })).toBeInTheDocument();
    expect(seen).toHaveLength(1);
    expect(client.getQueryData(key!)).toMatchObject({ total: 1 });
  });

  it('is cancelled, and the screen’s own request sent, when the screen reads a parameter otherwise', async () => {
    storeSession('admin');
    let answer!: () => void;
    const seen = customersApi({ delayUntil: new Promise<void>((resolve) => (answer = resolve)) });
    const client = createQueryClient();
    const early = sendEarlyListRequest(customers(), SEARCH)!;
    let isCancelled = false;
    const cancel = early.cancel;
    early.cancel = () => {
      isCancelled = true;
      cancel();
    };

    const key = prefetchList(await customers().list(), new URLSearchParams(SEARCH), client, early);
    answer();
    await waitFor(() => expect(client.getQueryData(key!)).toMatchObject({ total: 1 }));
    expect(isCancelled).toBe(true);
    // The early one carried `pageSize=oops`; the screen's carries the default it reads instead.
    expect(seen.map((query) => query['pageSize'])).toEqual(['oops', '25']);
  });

  it('is not sent for a token whose role may not see the list, nor for a parameter given twice', async () => {
    const seen = customersApi();
    storeSession('editor');
    expect(sendEarlyListRequest(customers(), '')).toBeNull();
    storeSession('admin');
    expect(sendEarlyListRequest(customers(), '?status=active&status=blocked')).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toHaveLength(0);
  });

  it('is cancelled when S4 has refused the session by the time the screen’s code arrives', async () => {
    const tokens = storeSession('admin');
    customersApi({ delayUntil: new Promise<void>(() => undefined) });
    const early = sendEarlyListRequest(customers(), '')!;
    let isCancelled = false;
    early.cancel = () => {
      isCancelled = true;
    };
    sessionStore.signOut();
    writeStoredSession(tokens);
    expect(prefetchList(await customers().list(), new URLSearchParams(''), createQueryClient(), early)).toBeNull();
    expect(isCancelled).toBe(true);
  });
});

describe('the router’s loader of every list screen', () => {
  it('asks for the page the screen will ask for, under the screen’s key', async () => {
    const tokens = storeSession('admin');
    sessionStore.signIn(testUser({ role: 'admin' }), tokens, { isNew: false });
    const seen: string[] = [];
    server.use(
      http.get('/api/admin/*', ({ request }) => {
        const url = new URL(request.url);
        seen.push(`${url.pathname}${url.search}`);
        return HttpResponse.json({ items: [], total: 0, page: 1, pageSize: 25 });
      }),
    );
    const paths = Object.keys(PREFETCHED_SCREENS);
    // Every list of the registry: a list screen without a prefetch would wait for its code to render.
    const notLists: string[] = [SCREENS.dashboard.path];
    expect(paths.sort()).toEqual(
      Object.values(SCREENS)
        .map((entry) => entry.path)
        .filter((path) => !notLists.includes(path))
        .sort(),
    );
    for (const path of paths) {
      const entry = PREFETCHED_SCREENS[path]!;
      appQueryClient.clear();
      seen.length = 0;
      await prefetchScreenList({ pathname: path, search: '?page=2' });
      const declaration = await entry.list();
      const key = declaration.queryKey(apiQueryFor(declaration, new URLSearchParams('?page=2')));
      await waitFor(() => expect(appQueryClient.getQueryState(key)?.status, path).toBe('success'));
      expect(seen, path).toHaveLength(1);
      expect(seen[0], path).toMatch(new RegExp(`^/api${entry.apiPath}\\?(.*&)?page=2(&|$)`));
    }
  });
});

import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { server } from '../testing/msw-server.ts';
import { preloadAfterSignIn } from './preload.ts';
import { PREFETCHED_SCREENS } from './prefetch-routes.ts';

describe('what signing in leads to, fetched while the user types (issue 32)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("loads Clienti's code (its route module and its list's declaration) beside the target screen's, and not its data", async () => {
    const clienti = PREFETCHED_SCREENS['/customers']!;
    const route = vi.spyOn(clienti, 'route');
    const list = vi.spyOn(clienti, 'list');
    const asked: string[] = [];
    server.use(
      http.get('/api/admin/customers', ({ request }) => {
        asked.push(request.url);
        return HttpResponse.json({ items: [], total: 0, page: 1, pageSize: 25 });
      }),
    );
    await preloadAfterSignIn('/dashboard');
    expect(route).toHaveBeenCalledOnce();
    expect(list).toHaveBeenCalledOnce();
    // The declaration is the list's schema and key: no request goes out until the screen is opened.
    await expect(list.mock.results[0]!.value).resolves.toMatchObject({ screen: 'customers' });
    expect(asked).toEqual([]);
  });
});

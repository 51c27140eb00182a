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

  it("then builds the date and number formats in the page's language, so that the screen after signing in does not load the browser's date data", async () => {
    // A fresh module registry: the formatters are cached per language and zone for the page's life.
    vi.resetModules();
    const { preloadAfterSignIn: preload } = await import('./preload.ts');
    const dateFormats = vi.spyOn(Intl, 'DateTimeFormat');
    const numberFormats = vi.spyOn(Intl, 'NumberFormat');
    await preload('/dashboard');
    expect(dateFormats).toHaveBeenCalledWith('it-IT', expect.objectContaining({ year: 'numeric' }));
    expect(numberFormats).toHaveBeenCalledWith('it-IT', expect.anything());
  });
});

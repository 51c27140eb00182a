import { apiClient } from '../lib/api-client.ts';
import { prefetchCatalogueFiles } from '../lib/catalogue-files.ts';
import { decodeJwtClaims } from '../lib/jwt.ts';
import { readStoredSession } from '../lib/session.ts';
import type { ListPrefetch } from './list-prefetch.ts';
import { mayOpenScreen, type ScreenId } from './screens.ts';

type PrefetchedScreen = {
  /** The screen (for the permission) and its list's API path: the entry asks for the page with these alone. */
  screen: ScreenId;
  apiPath: string;
  /** The screen's route module (the router's `lazy` for that path imports the same file). */
  route: () => Promise<unknown>;
  /** Its list's declaration: the contract's schema and the data hook's key and request. */
  list: () => Promise<ListPrefetch>;
};

/**
 * The screens a deep link starts at once (`main.tsx`, beside the S4 check and the app's own code), by
 * path: their code and texts (the signed-in layout, its catalogues and the route module, which the
 * router would only ask for once the app has loaded and run) and their list's page, requested as the screen will request it.
 * Only dynamic imports of the screens' code here: this file is in the sign-in page's chunk.
 */
export const PREFETCHED_SCREENS: Readonly<Record<string, PrefetchedScreen>> = {
  '/customers': {
    screen: 'customers',
    apiPath: '/admin/customers',
    route: () => import('./routes/customers.tsx'),
    list: () =>
      Promise.all([import('@sf/contract/customers-list'), import('../features/customers/api/get-customers.ts')]).then(([contract, customers]) => ({
        screen: 'customers',
        schema: contract.listCustomersQuerySchema,
        queryKey: customers.customerKeys.list,
        fetchPage: (apiQuery, signal) => customers.getCustomers(apiQuery, signal, { isSilent: true }),
      })),
  },
};

/** A list's page asked for by the entry, with the address's own parameters, before the contract's schemas have loaded. */
export type EarlyListRequest = {
  /** The parameters as sent: the address's, empty ones left out. */
  params: Record<string, string>;
  answer: Promise<unknown>;
  cancel: () => void;
};

/**
 * Sends the list's request as the address reads (`?page=2&sort=city`), without the contract's zod
 * schemas, which come with the signed-in kit ~100–150 ms later: the API reads those parameters through
 * the same schema and defaults as the screen. `prefetchList` keeps the answer only if the screen reads
 * every parameter as sent (then both ask for the same page); otherwise it cancels and asks itself.
 * Nothing for a token whose role may not see the screen (the same check as `prefetchList`'s), nor for
 * an address with a parameter given twice.
 */
export function sendEarlyListRequest(screen: PrefetchedScreen, search: string): EarlyListRequest | null {
  const stored = readStoredSession();
  const role = stored ? decodeJwtClaims(stored.authToken)?.['role'] : null;
  if (!mayOpenScreen(role, screen.screen)) return null;
  const entries = [...new URLSearchParams(search)].filter(([, value]) => value !== '');
  const params = Object.fromEntries(entries);
  if (Object.keys(params).length !== entries.length) return null;
  const controller = new AbortController();
  const answer = apiClient.get(screen.apiPath, { params, signal: controller.signal, isSilent: true });
  // Kept or dropped by prefetchList; a failure here is only a reason to ask again.
  answer.catch(() => undefined);
  return { params, answer, cancel: () => controller.abort() };
}

/**
 * For a deep link to one of those screens: starts loading its code, and its list's request (once
 * that is sent, or known not to be, the promise resolves; it never rejects: the screen asks anyway).
 */
export function startScreenPrefetch(location: { pathname: string; search: string }): Promise<void> {
  const screen = PREFETCHED_SCREENS[location.pathname.replace(/\/+$/, '') || '/'];
  if (!screen) return Promise.resolve();
  const early = sendEarlyListRequest(screen, location.search);
  void import('./layouts/main-layout.tsx').catch(() => undefined);
  // The signed-in area's texts, which the router's lazy layout route waits for as well: their files now,
  // beside i18next's code (which registers them), not after it.
  prefetchCatalogueFiles();
  void import('../lib/i18n.ts').then((i18n) => i18n.loadCatalogues()).catch(() => undefined);
  void screen.route().catch(() => undefined);
  return Promise.all([screen.list(), import('./list-prefetch.ts')])
    .then(([declaration, { prefetchList }]) => void prefetchList(declaration, new URLSearchParams(location.search), undefined, early))
    .catch(() => {
      early?.cancel();
    });
}

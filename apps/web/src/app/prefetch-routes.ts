import type { ListPrefetch } from './list-prefetch.ts';

type PrefetchedScreen = {
  /** The screen's route module (the router's `lazy` for that path imports the same file). */
  route: () => Promise<unknown>;
  /** Its list's declaration: the contract's schema and the data hook's key and request. */
  list: () => Promise<ListPrefetch>;
};

/**
 * The screens a deep link starts at once (`main.tsx`, beside the S4 check and the app's own code), by
 * path: their code and texts (the signed-in layout, its catalogues and the route module, which the
 * router would only ask for once the app has loaded and run) and their list's page, requested as the screen will request it.
 * Only dynamic imports here: this file is in the sign-in page's chunk.
 */
export const PREFETCHED_SCREENS: Readonly<Record<string, PrefetchedScreen>> = {
  '/customers': {
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

/**
 * For a deep link to one of those screens: starts loading its code, and its list's request (once
 * that is sent, or known not to be, the promise resolves; it never rejects: the screen asks anyway).
 */
export function startScreenPrefetch(location: { pathname: string; search: string }): Promise<void> {
  const screen = PREFETCHED_SCREENS[location.pathname.replace(/\/+$/, '') || '/'];
  if (!screen) return Promise.resolve();
  void import('./layouts/main-layout.tsx').catch(() => undefined);
  // The signed-in area's texts, which the router's lazy layout route waits for as well.
  void import('../lib/i18n.ts').then((i18n) => i18n.loadCatalogues()).catch(() => undefined);
  void screen.route().catch(() => undefined);
  return Promise.all([screen.list(), import('./list-prefetch.ts')])
    .then(([declaration, { prefetchList }]) => void prefetchList(declaration, new URLSearchParams(location.search)))
    .catch(() => undefined);
}

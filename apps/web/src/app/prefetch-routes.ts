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
  /** Its list's declaration: the contract's schema and the data hook's key; the page is a GET of `apiPath`. */
  list: () => Promise<ListPrefetch>;
};

/** What a list's data module declares (`listDeclaration` in the feature's `api/` file). */
type ListDeclaration = { schema: ListPrefetch['schema']; queryKey: ListPrefetch['queryKey'] };

/**
 * A list screen of the registry: its data hook asks for `GET apiPath` with the API query its address
 * reads (`useList`), under `queryKey`; the prefetch asks for the same page under the same key, silently
 * (a failure is the screen's to report when it asks again).
 */
function listScreen(screen: ScreenId, apiPath: string, route: () => Promise<unknown>, declaration: () => Promise<ListDeclaration>): PrefetchedScreen {
  return {
    screen,
    apiPath,
    route,
    list: () =>
      declaration().then(({ schema, queryKey }) => ({
        screen,
        schema,
        queryKey,
        fetchPage: (apiQuery, signal) => apiClient.get(apiPath, { params: apiQuery, signal, isSilent: true }),
      })),
  };
}

/**
 * Every list screen of the registry (`screens.ts`), by path. An address of one of them starts its code
 * and its page together: a deep link from the entry (`main.tsx`, beside the S4 check and the app's own
 * code), an in-app move from the router's loader (`router.tsx`, beside the route's lazy module). Without
 * it the page's request waits for the screen's code to arrive and render first. Only dynamic imports of
 * the screens' code here: this file is in the sign-in page's chunk.
 */
export const PREFETCHED_SCREENS: Readonly<Record<string, PrefetchedScreen>> = {
  '/news': listScreen('news', '/admin/news', () => import('./routes/news.tsx'), () => import('../features/news/api/get-news-posts.ts').then((api) => api.listDeclaration)),
  '/customers': listScreen('customers', '/admin/customers', () => import('./routes/customers.tsx'), () => import('../features/customers/api/get-customers.ts').then((api) => api.listDeclaration)),
  '/merchants': listScreen('merchants', '/admin/merchants', () => import('./routes/merchants.tsx'), () => import('../features/merchants/api/get-merchants.ts').then((api) => api.listDeclaration)),
  '/programs': listScreen('programs', '/admin/programs', () => import('./routes/programs.tsx'), () => import('../features/programs/api/get-programs.ts').then((api) => api.listDeclaration)),
  '/ledger': listScreen('ledger', '/admin/ledger', () => import('./routes/ledger.tsx'), () => import('../features/ledger/api/get-ledger.ts').then((api) => api.listDeclaration)),
  '/staff': listScreen('staff', '/admin/staff', () => import('./routes/staff.tsx'), () => import('../features/staff/api/staff.ts').then((api) => api.listDeclaration)),
  '/rewards': listScreen('rewards', '/admin/rewards', () => import('./routes/rewards.tsx'), () => import('../features/rewards/api/get-rewards.ts').then((api) => api.listDeclaration)),
  '/approvals': listScreen('approvals', '/admin/social-proofs', () => import('./routes/approvals.tsx'), () => import('../features/social-proofs/api/social-proofs.ts').then((api) => api.listDeclaration)),
  '/privacy-requests': listScreen('privacyRequests', '/admin/privacy-requests', () => import('./routes/privacy-requests.tsx'), () => import('../features/privacy/api/get-privacy-requests.ts').then((api) => api.listDeclaration)),
  '/campaigns': listScreen('campaigns', '/admin/campaigns', () => import('./routes/campaigns.tsx'), () => import('../features/campaigns/api/get-campaigns.ts').then((api) => api.listDeclaration)),
  '/imports': listScreen('imports', '/admin/imports', () => import('./routes/imports.tsx'), () => import('../features/imports/api/get-imports.ts').then((api) => api.listDeclaration)),
  '/audit': listScreen('audit', '/admin/audit', () => import('./routes/audit.tsx'), () => import('../features/audit/api/get-audit.ts').then((api) => api.listDeclaration)),
  '/api-keys': listScreen('apiKeys', '/admin/api-keys', () => import('./routes/api-keys.tsx'), () => import('../features/api-keys/api/api-keys.ts').then((api) => api.listDeclaration)),
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

/**
 * The router's loader for a list screen (`router.tsx`): on an in-app move, the list's page is asked for
 * as soon as its declaration's code has arrived, beside the route's own lazy module, instead of once the
 * screen has loaded and rendered. Resolves once the request is in the query cache (never waiting for its
 * answer), so the screen always finds it; never rejects: on a failure the screen asks, as it would without
 * this. On a deep link the entry has already asked: the page is in the cache and nothing more is sent.
 */
export async function prefetchScreenList(location: { pathname: string; search: string }): Promise<void> {
  const screen = PREFETCHED_SCREENS[location.pathname.replace(/\/+$/, '') || '/'];
  if (!screen) return;
  try {
    const [declaration, { prefetchList }] = await Promise.all([screen.list(), import('./list-prefetch.ts')]);
    prefetchList(declaration, new URLSearchParams(location.search));
  } catch {
    // The screen asks for its page itself.
  }
}

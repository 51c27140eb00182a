import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { z } from 'zod';
import { parseListParams, toApiQuery, type ListQuerySchema } from '../hooks/use-list-params.ts';
import { decodeJwtClaims } from '../lib/jwt.ts';
import { queryClient as appQueryClient } from '../lib/query-client.ts';
import { readStoredSession, sessionStore } from '../lib/session.ts';
import type { EarlyListRequest } from './prefetch-routes.ts';
import { mayOpenScreen, type ScreenId } from './screens.ts';

/**
 * What a list screen declares so that a deep link to it can ask for its page before the app has
 * loaded: its screen (for the permission), the contract's query schema its URL is read through, and
 * its data hook's key and request for the API query that URL gives (the request sent silently: if it
 * fails, the screen asks again and reports that failure).
 */
export type ListPrefetch = {
  screen: ScreenId;
  schema: ListQuerySchema;
  queryKey: (apiQuery: Record<string, string>) => QueryKey;
  fetchPage: (apiQuery: Record<string, string>, signal: AbortSignal) => Promise<unknown>;
};

/** The API query the screen will send for this address: read exactly as `useList` reads it. */
export function apiQueryFor(declaration: Pick<ListPrefetch, 'schema'>, search: URLSearchParams): Record<string, string> {
  return toApiQuery(parseListParams(declaration.schema, search) as Record<string, unknown>);
}

/**
 * Starts the list's request with the stored token while the S4 check (`restoreSession`) and the app's
 * code are still on their way, and puts it in the query cache under the screen's key: the screen,
 * once rendered, reuses the answer or the request in flight. Nothing is shown by this: the rows appear
 * only when the screen renders, i.e. once S4 has signed the user in and the guard let the role in.
 * If S4 refuses the session (or the role may not see the list), the prefetched query is cancelled and
 * removed, so that no later session finds it. Returns the key it fetched under, or null when it did not
 * (no stored session, a role without the screen's permission, a session already refused).
 */
export function prefetchList(
  declaration: ListPrefetch,
  search: URLSearchParams,
  client: QueryClient = appQueryClient,
  early: EarlyListRequest | null = null,
): QueryKey | null {
  const isAllowed = (role: unknown) => mayOpenScreen(role, declaration.screen);
  const stored = readStoredSession();
  const session = sessionStore.getState();
  // The token's role claim until S4 confirms it: a role the API would refuse gets no request at all.
  const role = session.status === 'signed-in' ? session.user.role : stored ? decodeJwtClaims(stored.authToken)?.['role'] : null;
  if (!stored || session.status === 'signed-out' || !isAllowed(role)) {
    early?.cancel();
    return null;
  }
  const apiQuery = apiQueryFor(declaration, search);
  const queryKey = declaration.queryKey(apiQuery);
  // The entry's request is kept if the screen reads its parameters as they were sent (the same page) and
  // nothing is cached under the key yet; otherwise it is cancelled.
  const isCached = client.getQueryState(queryKey) !== undefined;
  const kept = early && !isCached && isReadAsSent(declaration, early.params) ? early : null;
  if (early && !kept) early.cancel();
  if (isCached) return queryKey;
  void client.prefetchQuery({
    queryKey,
    queryFn: ({ signal }) => {
      if (!kept) return declaration.fetchPage(apiQuery, signal);
      signal.addEventListener('abort', kept.cancel);
      // A failed early request (an expired token refreshed meanwhile, a lost connection) is asked again.
      return kept.answer.catch(() => declaration.fetchPage(apiQuery, signal));
    },
  });

  const dropUnlessConfirmed = (): boolean => {
    const state = sessionStore.getState();
    if (state.status === 'checking') return false;
    if (state.status === 'signed-out' || !isAllowed(state.user.role)) {
      void client.cancelQueries({ queryKey, exact: true });
      client.removeQueries({ queryKey, exact: true });
    }
    return true;
  };
  if (!dropUnlessConfirmed()) {
    const unsubscribe = sessionStore.subscribe(() => {
      if (dropUnlessConfirmed()) unsubscribe();
    });
  }
  return queryKey;
}

/**
 * True when the screen reads each parameter sent as it was sent: a parameter of its schema, which the
 * schema accepts. The API reads the same schema with the same defaults, so its answer is the page the
 * screen would ask for. A value the screen would replace by its default (a hand-edited `pageSize=oops`),
 * or a parameter the list does not know, makes the screen ask itself.
 */
function isReadAsSent(declaration: Pick<ListPrefetch, 'schema'>, params: Record<string, string>): boolean {
  const fields = new Map(Object.entries(declaration.schema.shape) as [string, z.ZodType][]);
  return Object.entries(params).every(([key, value]) => fields.get(key)?.safeParse(value).success === true);
}

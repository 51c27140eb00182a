import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { can, isStaffRole } from '@sf/contract/roles';
import { parseListParams, toApiQuery, type ListQuerySchema } from '../hooks/use-list-params.ts';
import { decodeJwtClaims } from '../lib/jwt.ts';
import { queryClient as appQueryClient } from '../lib/query-client.ts';
import { readStoredSession, sessionStore } from '../lib/session.ts';
import { SCREENS, type ScreenId } from './screens.ts';

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
export function prefetchList(declaration: ListPrefetch, search: URLSearchParams, client: QueryClient = appQueryClient): QueryKey | null {
  const permission = SCREENS[declaration.screen].permission;
  const isAllowed = (role: unknown) => isStaffRole(role) && can(role, permission);
  const stored = readStoredSession();
  const session = sessionStore.getState();
  if (!stored || session.status === 'signed-out') return null;
  // The token's role claim (what S4 will confirm): a role the API would refuse gets no request at all.
  if (!isAllowed(session.status === 'signed-in' ? session.user.role : decodeJwtClaims(stored.authToken)?.['role'])) return null;
  const apiQuery = apiQueryFor(declaration, search);
  const queryKey = declaration.queryKey(apiQuery);
  if (client.getQueryState(queryKey)) return queryKey;
  void client.prefetchQuery({ queryKey, queryFn: ({ signal }) => declaration.fetchPage(apiQuery, signal) });

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

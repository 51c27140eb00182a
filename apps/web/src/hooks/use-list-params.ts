import { useCallback, useEffect, useMemo } from 'react';
import { useLocation, useSearchParams, type Location, type NavigateOptions } from 'react-router';
import type { z } from 'zod';

/** A list's query schema from the contract (e.g. `listNewsQuerySchema`): one zod object of optional or defaulted fields. */
export type ListQuerySchema = z.ZodObject<z.ZodRawShape>;

export type ListParams<S extends ListQuerySchema> = z.output<S>;

export type ListUpdateOptions = { isReplace?: boolean };

/** Page and page size: a change to anything else starts again from page 1. */
const PAGING_KEYS = new Set(['page', 'pageSize']);

/**
 * Reads the list state from the URL through the contract's schema, field by field: a hand-edited or
 * stale value falls back to that field's default instead of breaking the whole list. The API checks
 * the same schema, so what the screen asks for is what the server accepts.
 */
export function parseListParams<S extends ListQuerySchema>(schema: S, search: URLSearchParams): ListParams<S> {
  const result: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape) as [string, z.ZodType][]) {
    const raw = search.get(key);
    const parsed = field.safeParse(raw === null || raw === '' ? undefined : raw);
    const value = parsed.success ? parsed.data : field.safeParse(undefined).data;
    if (value !== undefined && value !== '') result[key] = value;
  }
  return result as ListParams<S>;
}

export function listDefaults<S extends ListQuerySchema>(schema: S): ListParams<S> {
  return parseListParams(schema, new URLSearchParams());
}

/** Writes only what differs from the defaults (a shared link stays short) and leaves other parameters alone. */
export function writeListParams<S extends ListQuerySchema>(schema: S, search: URLSearchParams, params: Partial<ListParams<S>>): URLSearchParams {
  const defaults = listDefaults(schema) as Record<string, unknown>;
  const next = new URLSearchParams(search);
  for (const key of Object.keys(schema.shape)) {
    const value = (params as Record<string, unknown>)[key];
    if (value === undefined || value === null || value === '' || value === defaults[key]) next.delete(key);
    else next.set(key, String(value));
  }
  return next;
}

/** The query string values to send to the API: every field that has a value, defaults included. */
export function toApiQuery(params: Record<string, unknown>, options: { isPagingLeftOut?: boolean } = {}): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    if (options.isPagingLeftOut && PAGING_KEYS.has(key)) continue;
    if (value !== undefined && value !== null && value !== '') query[key] = String(value);
  }
  return query;
}

/** What was written over each rendered address and is not rendered yet: the next write builds on it. */
const writtenOver = new WeakMap<Location, URLSearchParams>();

/**
 * The one way to change the address's search parameters. react-router's `setSearchParams`, even with
 * an updater, starts from the parameters of the last render: two writes before the next render (two
 * filters on one event, a filter and a drawer, two handlers) kept only the last. This one starts from
 * what an earlier write over the same rendered address asked for, whichever component made it; a new
 * address (the writes rendered, Back, a link) starts from itself again.
 */
export function useSearchParamsWriter() {
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  return useCallback(
    (change: (params: URLSearchParams) => URLSearchParams, options?: NavigateOptions) => {
      const next = change(new URLSearchParams(writtenOver.get(location) ?? searchParams));
      writtenOver.set(location, next);
      setSearchParams(next, options);
    },
    [location, searchParams, setSearchParams],
  );
}

/**
 * The list's page, page size, sort, order, search and filters live in the URL: reload, back/forward
 * and shared links keep them. `update` merges a patch; any change but paging goes back to page 1.
 */
export function useListParams<S extends ListQuerySchema>(schema: S) {
  const [searchParams] = useSearchParams();
  const writeSearch = useSearchParamsWriter();
  const params = useMemo(() => parseListParams(schema, searchParams), [schema, searchParams]);
  const defaults = useMemo(() => listDefaults(schema), [schema]);

  const update = useCallback(
    (patch: Partial<ListParams<S>>, options: ListUpdateOptions = {}) => {
      writeSearch(
        (previous) => {
          const current = parseListParams(schema, previous) as Record<string, unknown>;
          // Page 7 of another filter, sort or page size means nothing: only a page change keeps a page.
          const merged: Record<string, unknown> = { ...current, ...patch, page: (patch as Record<string, unknown>).page };
          return writeListParams(schema, previous, merged as Partial<ListParams<S>>);
        },
        { replace: options.isReplace ?? false },
      );
    },
    [schema, writeSearch],
  );

  /** True when a search or filter (anything but paging and sorting) differs from the defaults. */
  const isFiltered = useMemo(
    () =>
      Object.entries(params as Record<string, unknown>).some(
        ([key, value]) => !PAGING_KEYS.has(key) && key !== 'sort' && key !== 'order' && value !== (defaults as Record<string, unknown>)[key],
      ),
    [params, defaults],
  );

  return { params, update, isFiltered };
}

/** What a list's data hook answers (a TanStack query over the list's page). */
export type ListQueryResult<T> = {
  data?: { items: T[]; total: number; page: number; pageSize: number } | undefined;
  isError: boolean;
  isFetching: boolean;
  refetch?: () => unknown;
};

export type ListState<S extends ListQuerySchema, T> = ReturnType<typeof useListParams<S>> & { query: ListQueryResult<T> };

/**
 * A list's URL state and its page: `useList(listCustomersQuerySchema, useCustomers)` reads the
 * parameters through the contract's schema and asks the API for the page they describe.
 */
export function useList<S extends ListQuerySchema, T>(schema: S, useData: (query: Record<string, string>) => ListQueryResult<T>): ListState<S, T> {
  const state = useListParams(schema);
  const query = useData(toApiQuery(state.params as Record<string, unknown>));
  // A page past the last one (a bookmark, Back after rows went away) showed "no customers yet" under
  // "24.951–3.000 di 3.000": the list moves to its last page instead, in place of the address.
  const { update } = state;
  const page = (state.params as { page?: number }).page ?? 1;
  const answer = query.data;
  const lastPage = answer && answer.total > 0 && answer.items.length === 0 ? Math.ceil(answer.total / answer.pageSize) : null;
  useEffect(() => {
    if (lastPage !== null && page > lastPage) update({ page: lastPage } as unknown as Partial<ListParams<S>>, { isReplace: true });
  }, [lastPage, page, update]);
  return { ...state, query };
}

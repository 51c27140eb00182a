import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { useSearchParamsWriter } from './use-list-params.ts';

/**
 * A drawer or dialog addressed by one search parameter (`?merchant=new`, `?merchant=<id>`), like the
 * News editor: a link opens it, reload keeps it, back closes it. Its screen declares `name` among its
 * `drawers` (app/screens.ts), so that a move to the page that opens it leaves the focus to it.
 */
export function useDrawerParam(name: string) {
  const [searchParams] = useSearchParams();
  const writeSearch = useSearchParamsWriter();
  const target = searchParams.get(name);

  const hrefFor = useCallback(
    (value: string) => {
      const next = new URLSearchParams(searchParams);
      next.set(name, value);
      return `?${next.toString()}`;
    },
    [name, searchParams],
  );

  const open = useCallback(
    (value: string, options: { isReplace?: boolean } = {}) =>
      writeSearch(
        (next) => {
          next.set(name, value);
          return next;
        },
        { replace: options.isReplace ?? false },
      ),
    [name, writeSearch],
  );

  const close = useCallback(
    () =>
      writeSearch((next) => {
        next.delete(name);
        return next;
      }),
    [name, writeSearch],
  );

  return { target, hrefFor, open, close };
}

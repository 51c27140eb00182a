import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A drawer or dialog addressed by one search parameter (`?merchant=new`, `?merchant=<id>`), like the
 * News editor: a link opens it, reload keeps it, back closes it. Its screen declares `name` among its
 * `drawers` (app/screens.ts), so that a move to the page that opens it leaves the focus to it.
 */
export function useDrawerParam(name: string) {
  const [searchParams, setSearchParams] = useSearchParams();
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
      setSearchParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          next.set(name, value);
          return next;
        },
        { replace: options.isReplace ?? false },
      ),
    [name, setSearchParams],
  );

  const close = useCallback(
    () =>
      setSearchParams((previous) => {
        const next = new URLSearchParams(previous);
        next.delete(name);
        return next;
      }),
    [name, setSearchParams],
  );

  return { target, hrefFor, open, close };
}

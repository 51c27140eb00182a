import { useCallback, useLayoutEffect } from 'react';
import { useSearchParams } from 'react-router';

/** The search parameters that address a drawer or a dialog, as the pages shown so far declared them. */
const drawerParams = new Set<string>();

/**
 * Declares `name` as the address of a drawer or dialog of the page. The shell reads it (`opensDrawer`) to
 * leave the focus to that drawer when a move to another page opens one (`?customer=new` from Azioni).
 * A layout effect: it runs before the shell's effect of the same render.
 */
export function useDrawerAddress(name: string): void {
  useLayoutEffect(() => {
    drawerParams.add(name);
  }, [name]);
}

/** True when the address's query (`?customer=new&…`) opens a drawer or a dialog of its page. */
export function opensDrawer(search: string): boolean {
  const params = new URLSearchParams(search);
  return [...drawerParams].some((name) => params.has(name));
}

/**
 * A drawer or dialog addressed by one search parameter (`?merchant=new`, `?merchant=<id>`), like the
 * News editor: a link opens it, reload keeps it, back closes it.
 */
export function useDrawerParam(name: string) {
  useDrawerAddress(name);
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

import { useId as useReactId } from 'react';

/**
 * Mantine's `useId`, without its second render. Mantine's own starts from React's id, then sets a random
 * one in a layout effect: every input, popover, menu and modal of a screen rendered twice, the second
 * time synchronously inside the first commit (~25 ms of a list's deep link in a profile; decision 010). A client-rendered app needs no second id: React's ids are unique in the document (one counter
 * for every root) and stable across renders. The build and the web tests put this module in place of
 * Mantine's (`scripts/mantine-use-id-plugin.ts`); the same first id as Mantine's, so nothing else changes.
 */
export function useId(staticId?: string): string {
  const reactId = useReactId();
  if (typeof staticId === 'string') return staticId;
  return `mantine-${reactId.replace(/:/g, '')}`;
}

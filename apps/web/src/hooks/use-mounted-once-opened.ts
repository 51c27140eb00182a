import { useState } from 'react';

/**
 * True from the first time `isOpen` is true, and from then on: a closed dialog or drawer is left out
 * of the page until it is first opened, and stays mounted afterwards so that its closing transition
 * still plays. Mantine mounts a closed Modal's hooks anyway (ids set in an effect, a portal), which a
 * list's first render paid for every dialog of the screen (decision 010).
 */
export function useMountedOnceOpened(isOpen: boolean): boolean {
  const [hasOpened, setHasOpened] = useState(isOpen);
  // Set during render, React's pattern for state derived from props: no extra commit.
  if (isOpen && !hasOpened) setHasOpened(true);
  return hasOpened || isOpen;
}

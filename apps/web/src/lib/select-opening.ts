import { flushSync } from 'react-dom';

/**
 * A Select's `onDropdownOpen` (the theme's default): draws the opening at once. A closed Select keeps no
 * options in the page (`keepMounted: false`, decision 010), and Mantine's ArrowDown highlights an option
 * right after opening, in the same key handler: with nothing drawn yet it highlighted nothing, and the
 * Enter after it picked nothing. This runs between the two. A Select that sets its own `onDropdownOpen`
 * calls this too.
 */
export function drawSelectOpening(): void {
  flushSync(() => undefined);
}

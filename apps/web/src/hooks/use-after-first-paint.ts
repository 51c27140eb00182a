import { startTransition, useEffect, useState } from 'react';

let hasAppPainted = false;

/**
 * False until the browser has painted the signed-in app once, then true (for the page's lifetime).
 *
 * The shell's secondary parts (the menu's links, the header's menus) wait for it: a deep link's first
 * render then holds the screen's content and paints sooner, and the rest follows a frame later in a
 * transition (decision 010, seventh pass). Later mounts (another sign-in in the same page) get true at once.
 */
export function useAfterFirstPaint(): boolean {
  const [isAfter, setIsAfter] = useState(hasAppPainted);
  useEffect(() => {
    if (isAfter) return;
    // The animation frame comes before the paint; the timeout it sets runs after it.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        hasAppPainted = true;
        startTransition(() => setIsAfter(true));
      }, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [isAfter]);
  return isAfter;
}

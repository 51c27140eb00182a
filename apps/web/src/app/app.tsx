import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import type { Root } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProviders } from './provider.tsx';
import { createAppRouter } from './router.tsx';
import { retryFailedChunks } from '../lib/chunk-retry.ts';
import { returnFocusFromDialogs } from '../lib/dialog-focus.ts';

export { preloadAfterSignIn, preloadPath } from './preload.ts';

/** The document-wide listeners of `lib/dialog-focus.ts`, once per page. */
let isDialogFocusInstalled = false;

/**
 * The whole app (router, i18next, every screen as a lazy route), rendered at the current address.
 * `main.tsx` loads it at once, except on a first visit to the sign-in page, which shows
 * `first-screen.tsx` and loads this when the user leaves it (decision 010).
 */
export async function renderApp(root: Root): Promise<void> {
  const router = createAppRouter();
  if (!isDialogFocusInstalled) {
    isDialogFocusInstalled = true;
    returnFocusFromDialogs();
    retryFailedChunks();
  }
  await routeModulesLoaded(router);
  // At once, not at React's next turn: the first screen must not stay on show under the new address.
  flushSync(() =>
    root.render(
      <StrictMode>
        <AppProviders>
          <RouterProvider router={router} />
        </AppProviders>
      </StrictMode>,
    ),
  );
}

/**
 * The first render waits for the address's lazy route modules (a deep link has had them on their way
 * since the entry ran; a link from the first screen preloaded them): then the screen renders in that one
 * synchronous pass. Rendered before, the app drew an empty router and then the screen again as a
 * transition, in 5 ms slices (~8 ms more for a list's deep link, paired A/B; decision 010).
 */
function routeModulesLoaded(router: ReturnType<typeof createAppRouter>): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

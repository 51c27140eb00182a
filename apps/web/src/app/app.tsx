import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import type { Root } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProviders } from './provider.tsx';
import { createAppRouter } from './router.tsx';

export { preloadPath } from './preload.ts';

/**
 * The whole app (router, i18next, every screen as a lazy route), rendered at the current address.
 * `main.tsx` loads it at once, except on a first visit to the sign-in page, which shows
 * `first-screen.tsx` and loads this when the user leaves it (decision 010).
 */
export function renderApp(root: Root): void {
  const router = createAppRouter();
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

import { matchRoutes } from 'react-router';
import { warmUpFormatters } from '../lib/formatters.ts';
import { currentLanguage } from '../lib/texts.ts';
import { PREFETCHED_SCREENS } from './prefetch-routes.ts';
import { appRoutes } from './router.tsx';
import { SCREENS } from './screens.ts';

/**
 * Loads the lazy route modules of `path` (the signed-in layout and its texts, the screen) ahead of a
 * navigation there, e.g. while the sign-in request runs; the router then finds them loaded. Failures
 * are left to the navigation itself, which shows the route's error page.
 */
export async function preloadPath(path: string): Promise<void> {
  const matches = matchRoutes(appRoutes, path) ?? [];
  await Promise.all(matches.map(({ route }) => (typeof route.lazy === 'function' ? Promise.resolve(route.lazy()).catch(() => undefined) : undefined)));
}

/**
 * What signing in leads to, fetched while the user types (`first-screen.tsx`'s warm-up): the target
 * screen's modules, and the code (not the data) of Clienti, the menu's most used screen — its route
 * module and its list's declaration, which the route's loader imports. Fetched after signing in instead,
 * they queued behind the landing screen's requests on a busy server, and the first click on Clienti
 * waited for them (issue 32). Then the locale's date and number data, which the browser loads with a tab's
 * first date format (`warmUpFormatters`): in the browser's zone, as the user's is not known yet; the
 * data serves every zone.
 */
export async function preloadAfterSignIn(target: string): Promise<void> {
  const clienti = PREFETCHED_SCREENS[SCREENS.customers.path];
  await Promise.all([
    preloadPath(target),
    clienti ? Promise.all([clienti.route(), clienti.list(), import('./list-prefetch.ts')]).catch(() => undefined) : undefined,
  ]);
  warmUpFormatters(currentLanguage());
}

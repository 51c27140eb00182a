import { matchRoutes } from 'react-router';
import { appRoutes } from './router.tsx';

/**
 * Loads the lazy route modules of `path` (the signed-in layout and its texts, the screen) ahead of a
 * navigation there, e.g. while the sign-in request runs; the router then finds them loaded. Failures
 * are left to the navigation itself, which shows the route's error page.
 */
export async function preloadPath(path: string): Promise<void> {
  const matches = matchRoutes(appRoutes, path) ?? [];
  await Promise.all(matches.map(({ route }) => (typeof route.lazy === 'function' ? Promise.resolve(route.lazy()).catch(() => undefined) : undefined)));
}

import './app/first-screen-styles.ts';
import { createRoot } from 'react-dom/client';
import type * as App from './app/app.tsx';
import { FirstScreen } from './app/first-screen.tsx';
import { startScreenPrefetch } from './app/prefetch-routes.ts';
import { warmUpFormatters } from './lib/formatters.ts';
import { readStoredSession, sessionStore } from './lib/session.ts';
import { currentLanguage } from './lib/texts.ts';
import { followSessionOfOtherTabs, restoreSession } from './lib/user-by-token.ts';

// S4 starts at once: the check of a stored session runs while the app's code loads.
const hasStoredSession = readStoredSession() !== null;
void restoreSession().then(() => {
  // The signed-in screens format in the user's language and zone: built while the screen's code is on its way.
  const session = sessionStore.getState();
  if (session.status === 'signed-in') warmUpFormatters(currentLanguage(), session.user.timeZone);
});
// A sign-out or a sign-in in another tab is followed here at once.
followSessionOfOtherTabs();

// A deep link to a list screen loads its code and asks for its page now too, beside S4 (the rows show
// only once S4 has confirmed the session and the guard let the role in; decision 010). The app renders
// once that request is out, so that the app's start does not hold it back.
const prefetching = hasStoredSession ? startScreenPrefetch(window.location) : Promise.resolve();

const root = createRoot(document.getElementById('root')!);
let loadingApp: Promise<typeof App> | null = null;
const loadApp = () => (loadingApp ??= import('./app/app.tsx'));

/**
 * The whole app at `to` (the current address when none is given). The address changes with the screen,
 * not before it: a link followed from the first screen used to show its new address over the old form
 * for as long as the app took to load, and what was typed meanwhile went into the old form (a browser
 * journey filled the sign-in page's e-mail field and then sent an empty forgot-password form).
 */
function enterApp(to?: string, options: { replace?: boolean } = {}): void {
  void Promise.all([loadApp(), prefetching]).then(async ([app]) => {
    if (to) {
      await app.preloadPath(to);
      window.history[options.replace ? 'replaceState' : 'pushState'](null, '', to);
    }
    await app.renderApp(root);
  });
}

// A first visit to the sign-in page shows it without the router, i18next and the other screens
// (decision 010); anything else (a deep link, a stored session) loads the app at once.
if (/^\/auth\/login\/?$/.test(window.location.pathname) && !hasStoredSession) {
  root.render(<FirstScreen enterApp={enterApp} warmUp={(target) => void loadApp().then((app) => app.preloadAfterSignIn(target))} />);
} else {
  enterApp();
}

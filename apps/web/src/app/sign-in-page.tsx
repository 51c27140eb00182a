import { Notice } from '../components/ui/notice.tsx';
import { LoginForm } from '../features/auth/components/login-form.tsx';
import { preloadFormFailureTexts } from '../features/auth/components/use-form-failure.ts';
import { useTexts } from '../lib/texts.ts';
import { homeAfterSignIn, safeRedirectTarget } from './homes.ts';

/**
 * `/auth/login`'s content, without react-router or i18next (decision 010): rendered by the router's
 * route (routes/auth/login.tsx) and by the first screen (first-screen.tsx), which opens before the
 * rest of the app has loaded. After signing in it goes back to where the user was going (S9
 * `?redirect=`), or to their home.
 */
export function SignInPage({
  search,
  onSignedIn,
  warmUp,
}: {
  /** The page's query string (`?redirect=…`, `?reset=done`). */
  search: URLSearchParams;
  onSignedIn: (target: string) => void;
  /**
   * Fetches what comes after signing in (the app, the signed-in layout, the target screen, their
   * texts): started when the user first focuses a field and again as a submit begins, so the target
   * screen finds them loaded instead of waiting for them after the answer.
   */
  warmUp: (target: string) => void;
}) {
  const { t } = useTexts('auth');
  const redirect = safeRedirectTarget(search.get('redirect'));
  const prefetch = () => {
    void preloadFormFailureTexts().catch(() => undefined);
    // An editor's home is /news, an admin's /dashboard: before the answer the target is a guess.
    warmUp(homeAfterSignIn(null, redirect));
  };
  return (
    <LoginForm
      onSignedIn={(role) => onSignedIn(homeAfterSignIn(role, redirect))}
      onFirstFocus={prefetch}
      onSubmitStart={prefetch}
      notice={search.get('reset') === 'done' ? <Notice tone="success">{t('login.passwordChanged')}</Notice> : null}
    />
  );
}

import { StrictMode, useMemo } from 'react';
import { InAppNavigation } from '../components/ui/in-app-link.tsx';
import { AuthLayout } from './layouts/auth-layout.tsx';
import { SignInPage } from './sign-in-page.tsx';
import { UiProviders } from './ui-provider.tsx';

/**
 * A first visit to `/auth/login` without a stored session: the sign-in page alone, with the UI kit but
 * without the router, i18next and the other screens (decision 010). `enterApp` loads the app at an
 * address: after signing in, or when a link of the page is followed. Focusing a field starts loading
 * it (`warmUp`), so signing in does not wait for it.
 */
export function FirstScreen({
  enterApp,
  warmUp,
}: {
  enterApp: (to: string, options?: { replace?: boolean }) => void;
  warmUp: (target: string) => void;
}) {
  const search = useMemo(() => new URLSearchParams(window.location.search), []);
  return (
    <StrictMode>
      <UiProviders>
        <InAppNavigation value={(to) => enterApp(to)}>
          <AuthLayout>
            <SignInPage search={search} onSignedIn={(target) => enterApp(target, { replace: true })} warmUp={warmUp} />
          </AuthLayout>
        </InAppNavigation>
      </UiProviders>
    </StrictMode>
  );
}

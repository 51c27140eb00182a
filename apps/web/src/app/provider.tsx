import { lazy, Suspense, useSyncExternalStore, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../lib/i18n.ts';
import { hasToastBeenRaised, onFirstToast } from '../lib/notify.ts';
import { colorSchemeManager, cssVariablesResolver, theme } from './theme.ts';

// The toast container (with its transition and scroll-lock code and its styles, ~17 KiB on the wire)
// loads with the first toast, not with the page; the toast waits in the notifications store meanwhile
// and shows once the container has mounted (decision 010).
const Notifications = lazy(() => import('./toast-container.tsx').then((m) => ({ default: m.Notifications })));

/** S16: every toast top-right, gone after 5000 ms. */
export const TOAST_AUTO_CLOSE_MS = 5000;

/**
 * What every screen needs, the sign-in page included: translations, the UI kit and toasts (a
 * "session expired" toast lands on the login page). Kept small on purpose — see data-providers.tsx.
 */
export function AppProviders({ children }: { children: ReactNode }) {
  const isToastWanted = useSyncExternalStore(onFirstToast, hasToastBeenRaised);
  return (
    <I18nextProvider i18n={i18n}>
      <MantineProvider theme={theme} colorSchemeManager={colorSchemeManager} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
        {isToastWanted && (
          <Suspense fallback={null}>
            <Notifications position="top-right" autoClose={TOAST_AUTO_CLOSE_MS} />
          </Suspense>
        )}
        {children}
      </MantineProvider>
    </I18nextProvider>
  );
}

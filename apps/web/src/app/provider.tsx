import { lazy, Suspense, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../lib/i18n.ts';
import { colorSchemeManager, cssVariablesResolver, theme } from './theme.ts';

// The toast container (with its transition and scroll-lock code, ~10 kB gzip) loads just after the first
// paint; a toast raised before that waits in the notifications store and shows once it has mounted.
const Notifications = lazy(() => import('@mantine/notifications').then((m) => ({ default: m.Notifications })));

/** S16: every toast top-right, gone after 5000 ms. */
export const TOAST_AUTO_CLOSE_MS = 5000;

/**
 * What every screen needs, the sign-in page included: translations, the UI kit and toasts (a
 * "session expired" toast lands on the login page). Kept small on purpose — see data-providers.tsx.
 */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <MantineProvider theme={theme} colorSchemeManager={colorSchemeManager} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
        <Suspense fallback={null}>
          <Notifications position="top-right" autoClose={TOAST_AUTO_CLOSE_MS} />
        </Suspense>
        {children}
      </MantineProvider>
    </I18nextProvider>
  );
}

import { lazy, Suspense, useSyncExternalStore, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { hasToastBeenRaised, onFirstToast } from '../lib/notify.ts';
import { colorSchemeManager, cssVariablesResolver, theme } from './theme.ts';

// The toast container (with its transition and scroll-lock code and its styles, ~17 KiB on the wire)
// loads with the first toast, not with the page; the toast waits in the notifications store meanwhile
// and shows once the container has mounted (decision 010).
const Notifications = lazy(() => import('./toast-container.tsx').then((m) => ({ default: m.Notifications })));

/** S16: every toast top-right, gone after 5000 ms. */
export const TOAST_AUTO_CLOSE_MS = 5000;

/**
 * The UI kit and toasts: what the sign-in page shown before the app has loaded needs (first-screen.tsx).
 * `env="test"` is for component tests: Mantine then draws a menu or a dialog at once, without its
 * transition's frames and timers, which on a loaded machine left a just-opened menu hidden past the
 * test's wait.
 */
export function UiProviders({ children, env = 'default' }: { children: ReactNode; env?: 'default' | 'test' }) {
  const isToastWanted = useSyncExternalStore(onFirstToast, hasToastBeenRaised);
  return (
    <MantineProvider theme={theme} colorSchemeManager={colorSchemeManager} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto" env={env}>
      {isToastWanted && (
        <Suspense fallback={null}>
          <Notifications position="top-right" autoClose={TOAST_AUTO_CLOSE_MS} />
        </Suspense>
      )}
      {children}
    </MantineProvider>
  );
}

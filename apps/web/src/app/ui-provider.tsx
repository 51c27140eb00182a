import { useSyncExternalStore, type ReactNode } from 'react';
import { MantineProvider, Stack } from '@mantine/core';
import { Notice } from '../components/ui/notice.tsx';
import { onToastState, TOAST_AUTO_CLOSE_MS, toastState, type StrandedToast } from '../lib/notify.ts';
import { colorSchemeManager, cssVariablesResolver, theme } from './theme.ts';

export { TOAST_AUTO_CLOSE_MS } from '../lib/notify.ts';

/**
 * The UI kit and toasts: what the sign-in page shown before the app has loaded needs (first-screen.tsx).
 * `env="test"` is for component tests: Mantine then draws a menu or a dialog at once, without its
 * transition's frames and timers, which on a loaded machine left a just-opened menu hidden past the
 * test's wait.
 */
export function UiProviders({ children, env = 'default' }: { children: ReactNode; env?: 'default' | 'test' }) {
  // The toast container's code arrives with the first toast (lib/notify.ts, decision 010).
  const { Container, stranded } = useSyncExternalStore(onToastState, toastState);
  return (
    <MantineProvider theme={theme} colorSchemeManager={colorSchemeManager} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto" env={env}>
      {Container && <Container position="top-right" autoClose={TOAST_AUTO_CLOSE_MS} />}
      {stranded.length > 0 && <StrandedToasts toasts={stranded} />}
      {children}
    </MantineProvider>
  );
}

/** Toasts whose code could not be downloaded, drawn with what the sign-in page already has. */
function StrandedToasts({ toasts }: { toasts: readonly StrandedToast[] }) {
  return (
    <Stack pos="fixed" top={16} right={16} w={440} maw="calc(100vw - 32px)" gap="xs" style={{ zIndex: 1000 }}>
      {toasts.map((toast) => (
        <Notice key={toast.id} tone={toast.color === 'red' ? 'error' : 'success'} title={toast.title}>
          {toast.message}
        </Notice>
      ))}
    </Stack>
  );
}

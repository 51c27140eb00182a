import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../lib/i18n.ts';
import { UiProviders } from './ui-provider.tsx';

export { TOAST_AUTO_CLOSE_MS } from './ui-provider.tsx';

/**
 * What every screen of the app needs: translations, the UI kit and toasts (a "session expired" toast
 * lands on the login page). Kept small on purpose — see data-providers.tsx.
 */
export function AppProviders({ children, env }: { children: ReactNode; env?: 'default' | 'test' }) {
  return (
    <I18nextProvider i18n={i18n}>
      <UiProviders env={env}>{children}</UiProviders>
    </I18nextProvider>
  );
}

/**
 * Toasts in one place so their look stays consistent (timing and position are set on the provider,
 * S16). The toast code is fetched as soon as this module runs but outside the sign-in page's first
 * load (~10 kB gzip, issue 3 budget); a toast raised meanwhile shows as soon as it has arrived.
 */
import { i18n } from './i18n.ts';

const loading = import('@mantine/notifications');

type ToastOptions = { color: string; message: string; title?: string };

function show(options: ToastOptions): void {
  // The close button is an icon: it needs a name for screen readers (axe "button-name").
  const closeButtonProps = { 'aria-label': i18n.t('common:close') };
  void loading.then(({ notifications }) => notifications.show({ ...options, closeButtonProps })).catch((error: unknown) => console.error('Toast failed', error, options.message));
}

export function notifyError(message: string, title?: string): void {
  show({ color: 'red', message, ...(title ? { title } : {}) });
}

export function notifySuccess(message: string, title?: string): void {
  show({ color: 'green', message, ...(title ? { title } : {}) });
}

/** The toasts' module, once loaded (tests wait for it before spying on `notifications.show`). */
export function toastModule() {
  return loading;
}

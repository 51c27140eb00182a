import type * as NotificationsModule from '@mantine/notifications';
/**
 * Toasts in one place so their look stays consistent (timing and position are set on the provider,
 * S16). The toast code is fetched with the first toast, not with the page (decision 010): the first
 * `show` loads the store and tells the provider to mount the container; the toast shows once both
 * have arrived.
 */
import { translate } from './texts.ts';

let loading: Promise<typeof NotificationsModule> | undefined;
const load = () => (loading ??= import('@mantine/notifications'));

let isToastRaised = false;
const firstToastListeners = new Set<() => void>();

/** For the provider (useSyncExternalStore): whether any toast has been raised yet. */
export function hasToastBeenRaised(): boolean {
  return isToastRaised;
}

export function onFirstToast(listener: () => void): () => void {
  firstToastListeners.add(listener);
  return () => firstToastListeners.delete(listener);
}

type ToastOptions = { color: string; message: string; title?: string };

function show(options: ToastOptions): void {
  if (!isToastRaised) {
    isToastRaised = true;
    for (const listener of firstToastListeners) listener();
  }
  // The close button is an icon: it needs a name for screen readers (axe "button-name").
  const closeButtonProps = { 'aria-label': translate('common:close') };
  void load().then(({ notifications }) => notifications.show({ ...options, closeButtonProps })).catch((error: unknown) => console.error('Toast failed', error, options.message));
}

export function notifyError(message: string, title?: string): void {
  show({ color: 'red', message, ...(title ? { title } : {}) });
}

export function notifySuccess(message: string, title?: string): void {
  show({ color: 'green', message, ...(title ? { title } : {}) });
}

/** Neither a failure nor a success: why the app did something the user did not ask for. */
export function notifyInfo(message: string, title?: string): void {
  show({ color: 'blue', message, ...(title ? { title } : {}) });
}

/** The toasts' module, once loaded (tests wait for it before spying on `notifications.show`). */
export function toastModule() {
  return load();
}

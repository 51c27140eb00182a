import type * as ToastCode from '../app/toast-container.tsx';
/**
 * Toasts in one place so their look stays consistent (S16). The toasts' code is fetched with the first
 * toast, not with the page (decision 010): the first `show` loads it and the provider mounts its
 * container once it has arrived. When that download fails (the server is down, and the first toast is
 * often the one saying so), the toast is drawn without it (`strandedToasts`), the failure is forgotten
 * and the next toast asks for the code again: a failed chunk never reaches React, which would unmount
 * the whole app and what was typed in it.
 */
import { translate } from './texts.ts';

/** S16: every toast top-right, gone after 5000 ms. */
export const TOAST_AUTO_CLOSE_MS = 5000;

type ToastOptions = { color: string; message: string; title?: string };
export type StrandedToast = ToastOptions & { id: number };

/** What the provider draws: the container once its code has arrived, and the toasts shown without it. */
export type ToastState = { Container?: typeof ToastCode.Notifications; stranded: readonly StrandedToast[] };

let state: ToastState = { stranded: [] };
const listeners = new Set<() => void>();
let isToastRaised = false;
let lastStrandedId = 0;

function update(next: ToastState): void {
  state = next;
  for (const listener of listeners) listener();
}

/** For the provider (useSyncExternalStore). */
export function toastState(): ToastState {
  return state;
}

export function onToastState(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether any toast has been raised yet (the tests' clean-up). */
export function hasToastBeenRaised(): boolean {
  return isToastRaised;
}

// In app/, not lib/: the build puts lib/ in the signed-in kit's chunk, and the toasts' code must stay a
// download of its own (vite.config.ts).
let loading: Promise<typeof ToastCode> | undefined;
const load = () =>
  (loading ??= import('../app/toast-container.tsx').catch((error: unknown) => {
    loading = undefined;
    throw error;
  }));

function show(options: ToastOptions): void {
  isToastRaised = true;
  // The close button is an icon: it needs a name for screen readers (axe "button-name").
  const closeButtonProps = { 'aria-label': translate('common:close') };
  void load().then(
    ({ Notifications, notifications }) => {
      if (!state.Container) update({ ...state, Container: Notifications });
      notifications.show({ ...options, closeButtonProps });
    },
    (error: unknown) => {
      console.error('Toast failed', error, options.message);
      const toast = { ...options, id: ++lastStrandedId };
      update({ ...state, stranded: [...state.stranded, toast] });
      setTimeout(() => update({ ...state, stranded: state.stranded.filter((shown) => shown !== toast) }), TOAST_AUTO_CLOSE_MS);
    },
  );
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

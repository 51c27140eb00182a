/**
 * Toasts in one place so their look stays consistent (timing and position are set on the provider,
 * S16). The toast code is fetched as soon as this module runs but outside the sign-in page's first
 * load (~10 kB gzip, issue 3 budget); a toast raised meanwhile shows as soon as it has arrived.
 */
const loading = import('@mantine/notifications');

type ToastOptions = { color: string; message: string; title?: string };

function show(options: ToastOptions): void {
  void loading.then(({ notifications }) => notifications.show(options)).catch((error: unknown) => console.error('Toast failed', error, options.message));
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

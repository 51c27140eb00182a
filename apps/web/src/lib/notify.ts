import { notifications } from '@mantine/notifications';

/** Toasts in one place so their look stays consistent (timing and position are set on the provider, S16). */
export function notifyError(message: string, title?: string): void {
  notifications.show({ color: 'red', message, ...(title ? { title } : {}) });
}

export function notifySuccess(message: string, title?: string): void {
  notifications.show({ color: 'green', message, ...(title ? { title } : {}) });
}

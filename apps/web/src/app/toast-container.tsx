// The toasts' code and styles, one download: the container with its transition and scroll-lock code,
// its store and its CSS (~17 KiB on the wire). Loaded with the first toast (lib/notify.ts), not with the
// page (decision 010).
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Notification.layer.css';
import '@mantine/notifications/styles.layer.css';

export { Notifications, notifications } from '@mantine/notifications';

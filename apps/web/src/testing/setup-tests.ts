import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { server } from './msw-server.ts';
import { loadCatalogues } from '../lib/i18n.ts';
import { hasToastBeenRaised } from '../lib/notify.ts';

// findBy…/waitFor give up after 1 s by default: on two cores busy with the API suites a menu that opens
// in 100 ms alone took longer (issue 12's load runs). They still return as soon as the element shows.
configure({ asyncUtilTimeout: 5_000 });

// The app loads the signed-in area's catalogues with its lazy route; components under test get them all.
await loadCatalogues();

// The page's title as index.html serves it: lib/document-title.ts keeps it as the app's name in the tab.
document.title = 'Social Fidelity';

// Mantine reads these browser APIs that jsdom lacks.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: vi.fn().mockImplementation((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  })),
});

class ResizeObserverStub {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
window.ResizeObserver = ResizeObserverStub as unknown as typeof ResizeObserver;
// Mantine's autosizing Textarea listens for web fonts loading (document.fonts), which jsdom lacks.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: { addEventListener: vi.fn(), removeEventListener: vi.fn(), ready: Promise.resolve() } });
}
window.HTMLElement.prototype.scrollIntoView = function scrollIntoView() {};
Object.defineProperty(window, 'scrollTo', { writable: true, value: vi.fn() });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(async () => {
  cleanup();
  // The toasts' store outlives a test: the next test of the file would find them again, and a sixth
  // toast waits in Mantine's queue until one of them closes (5 s).
  if (hasToastBeenRaised()) (await import('@mantine/notifications')).notifications.clean();
  server.resetHandlers();
  localStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
});
afterAll(() => server.close());

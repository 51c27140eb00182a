import { setupServer } from 'msw/node';

/**
 * The one msw server of the web tests, started in setup-tests with `onUnhandledRequest: 'error'`:
 * a test declares every call it expects with `server.use(http.get('/api/…', …))`.
 */
export const server = setupServer();

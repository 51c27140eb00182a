import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    root: import.meta.dirname,
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    environment: 'jsdom',
    setupFiles: ['./src/testing/setup-tests.ts'],
    // The web tests share two cores with both API suites: a dialog test that takes 1 s alone took over
    // the default 5 s with the rest of the suite beside it (issue 12's load runs). Waits still end as
    // soon as their condition holds; only a hung test takes this long.
    testTimeout: 20_000,
    // Isolation stays on (unlike the API projects): with `isolate: false` the session-expiry and toast
    // tests of api-client.test.ts and main-layout.test.tsx fail, because modules keep their state
    // from one file to the next.
  },
});

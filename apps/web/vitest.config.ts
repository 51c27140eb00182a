import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { mantineStableIds } from './scripts/mantine-use-id-plugin.ts';

export default defineProject({
  // The build's `useId` for Mantine (scripts/mantine-use-id-plugin.ts): Mantine is transformed by Vite here
  // (not loaded by Node as it is), so that the components under test give the ids the app gives.
  plugins: [mantineStableIds(), react()],
  test: {
    name: 'web',
    root: import.meta.dirname,
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    environment: 'jsdom',
    // A project read from its own file does not take the root's maxWorkers: without this it ran on
    // Vitest's default for two cores (one worker), one file at a time (186 s alone, 127 s with two).
    maxWorkers: 2,
    server: { deps: { inline: [/[\\/]@mantine[\\/]/] } },
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

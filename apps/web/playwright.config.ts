import { defineConfig } from '@playwright/test';

const isCi = Boolean(process.env.CI);

// Playwright empties its output folder when a run starts; two runs at once in one work tree (several
// developers or agents) would delete each other's traces mid-run. Each run gets its own folder; the
// workers inherit the runner's environment, so they resolve the same one.
process.env.SF_E2E_RUN_ID ??= `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`;

/**
 * Browser journeys against the real server: the global setup builds the web app once, then each worker
 * starts the API serving it on a fresh data directory with a local SMTP catcher (e2e/support), so
 * nothing has to be running beforehand and nothing is left running afterwards. Chromium comes from
 * Debian: no browser download.
 */
export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/support/global-setup.ts',
  // Two workers, each with its own server (a copy of one first-start data directory): a journey spends
  // most of its time waiting on the browser and the server: the whole run costs ~250 CPU-seconds, and one
  // worker took 398 s of wall time on two cores.
  workers: 2,
  fullyParallel: false,
  forbidOnly: true,
  // A retry in CI absorbs a slow first paint on a loaded runner; the report still lists it as flaky.
  retries: isCi ? 1 : 0,
  reporter: 'list',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  outputDir: `./test-results/${process.env.SF_E2E_RUN_ID}`,
  use: {
    locale: 'it-IT',
    timezoneId: 'Europe/Rome',
    // Recording a trace (a screencast and a DOM snapshot at every action, a zip at every test's end)
    // is paid by every journey, passed or not: the loyalty, news and wallet journeys one after another
    // took 90 s with `retain-on-failure` against 55 s without a trace (2.3 against 1.7 min with the
    // servers' start; the same again at a lower load: 47 against 33 s). In CI a trace is recorded on the
    // retry, so a failure that repeats comes with its trace, and the first failure keeps its screenshot.
    // Run by hand (no retry), a failure keeps its trace.
    trace: isCi ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    actionTimeout: 10_000,
    navigationTimeout: 20_000,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--headless',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});

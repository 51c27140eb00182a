/**
 * What the browser receives, measured on the REAL server (the API serving the built web app, as
 * `npm start` runs it) with Debian's Chromium:
 *
 * - the bytes on the wire for /auth/login (JS, CSS, total: transfer sizes, i.e. compressed), fresh
 *   cache, until the network is idle — what a first visit downloads, lazy chunks fetched on the way
 *   included. Over the enforced ceiling → exit 1 (CI runs this). The issue-8 targets are printed too;
 *   CI holds today's weight (a ceiling below the 100 KiB target), so that any growth fails (decision
 *   010). Then what focusing a field fetches (the app, prefetched for after signing in), not counted.
 * - with `--full` (`npm run bench:web`): the Lighthouse mobile performance score (median of 3), the
 *   median time from pressing "Accedi" on /auth/login to N rows of the list visible, and the median
 *   time of a deep link to the list while signed in. Reported against their budgets, never failing:
 *   they depend on the machine's load. Beside them, a person's morning path (issue 32): open /auth/login,
 *   focus the e-mail field, pause 1.5 s (typing), fill, submit, land on the home screen, click the main
 *   menu's link to the list, wait for its rows; submit → menu link visible (budget 150 ms) and submit →
 *   rows (300 ms), in a cold browser (a fresh in-memory context per run) and a returning one (the profile
 *   on disk, signed out). The anchors the issue compared with (plain Mantine 9 and react-admin 5.15 on an
 *   instant fake API; in the issue's run cold 119 / 214 ms to the menu and 233 / 433 ms to the rows,
 *   returning 123 / 220 and 257 / 456 ms) are rebuilt in `bench/anchors/` and, with `--anchors`, timed on
 *   the same journey in turns with ours (`bench-anchors.ts`). Ours waits for a real server (the sign-in's
 *   argon2id, the list's query), so the path's time is also printed less those two answers: the figure to set
 *   beside the anchors'. It is also split at the menu's click: menu visible → click (the harness waits for
 *   the page's frames before it clicks) and click → rows (the list's own time). The timings run in a
 *   browser profile on disk, as a returning user's browser: Chromium keeps V8's code cache there (an
 *   in-memory context keeps none, so each visit compiled the app again; `--browser-profile=memory` still
 *   measures that).
 *
 *   npm run size                       # build, bytes on the wire, budget check
 *   npm run bench:web                  # the same + Lighthouse + timings
 *   npm run bench:web -- --no-build --runs=7 --list-path=/news --rows=25
 *   npm run bench:web -- --dist=/tmp/other-build --lighthouse-runs=0 --waterfall
 *   npm run bench:web -- --no-build --lighthouse-runs=0 --runs=9 --against=/tmp/main-dist   # paired, in turns
 *   npm run bench:web -- --no-build --lighthouse-runs=0 --runs=9 --anchors   # beside the issue's anchors
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from '@playwright/test';
import { CSRF_COOKIE, CSRF_HEADER } from '@sf/contract/app-info';
import { startAppServer, type AppServer } from '../e2e/support/app-server.ts';
import { startAnchors, type Anchor } from './bench-anchors.ts';


const KIB = 1024;
const BUDGET = {
  // Issue 8's targets (met for the bytes since the first visit's sign-in page runs without react-router
  // and i18next; decision 010).
  js: 100 * KIB,
  css: 20 * KIB,
  // What CI enforces: today's weight plus a little room, so that any growth fails; lower it as the
  // page gets lighter, until it meets the target. 140 → 150 when the loyalty screens landed: the
  // components the sign-in page shares with them now come in more, smaller chunks, and the contract's
  // wording (every loyalty label) loads right after the first paint (145 KiB measured; decision 010).
  // 150 → 154 when rewards, staff, privacy, imports, audit and API keys landed together: 149.7 KiB in
  // 17 files instead of 14 (the session code and three Mantine helpers now in chunks of their own).
  // 154 → 92 when the first visit's sign-in page dropped react-router and i18next and its code became
  // one chunk (86.0 KiB in 2 files). 92 → 94 when the chunks became classic scripts loaded by SystemJS
  // (decision 010): its loader, in the start script, is 3.8 KiB on the wire (91.9 KiB in 3 files).
  jsCeiling: 94 * KIB,
  cssCeiling: 20 * KIB,
  lighthouse: 98,
  signInToListMs: 500,
  // Issue 32: a person's path (sign in, land, open the list from the menu), cold and returning browser.
  journeyMenuMs: 150,
  journeyRowsMs: 300,
  deepLinkMs: 350,
};
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const DEMO = { email: 'admin@demo.test', password: 'Demo-Password-2026' };

const { values: args } = parseArgs({
  options: {
    full: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    runs: { type: 'string', default: '5' },
    'lighthouse-runs': { type: 'string', default: '3' },
    // The list the sign-in lands on and the deep link opens: the news list until the customers list exists.
    'list-path': { type: 'string', default: '/customers' },
    rows: { type: 'string', default: '25' },
    // Data rows only: the loading skeleton's rows carry no link.
    'row-selector': { type: 'string', default: 'main table tbody tr:has(a)' },
    // Another build to serve (implies --no-build), e.g. one of another branch for a comparison at the same load.
    dist: { type: 'string' },
    // A second build (e.g. main's, before a change) served by a second server: the timings run on both, in
    // turns, and print the median of the paired differences. The way to judge a change on a shared machine.
    against: { type: 'string' },
    // The issue's anchors (bench/anchors: plain Mantine and react-admin on an instant in-memory API), built
    // and served here: the journey runs on them in turns with ours, so that both are measured at one load.
    anchors: { type: 'boolean', default: false },
    // Prints the last deep link's waterfall (resource timing: start → end of each request, in ms from navigation start).
    waterfall: { type: 'boolean', default: false },
    // The timings' browser: 'disk' (default) is a browser profile on disk, as a returning user's browser is,
    // with its HTTP cache and V8's code cache; 'memory' is a fresh in-memory context, where Chromium keeps
    // no code cache, so every visit compiles the app's JS again (~250 ms more for a deep link).
    'browser-profile': { type: 'string', default: 'disk' },
  },
});

const webRoot = path.resolve(import.meta.dirname, '..');
const dist = args.dist ? path.resolve(args.dist) : path.join(webRoot, 'dist');
const runs = Number(args.runs);
const rowsWanted = Number(args.rows);
const listPath = args['list-path'];
const rowSelector = args['row-selector'];

// As bench/support.ts prints it (that module brings the API's database code, which this script does not need).
const loadAverage = () => `load average ${os.loadavg().map((value) => value.toFixed(1)).join(' / ')}`;
const kib = (bytes: number) => `${(bytes / KIB).toFixed(1)} KiB`;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
};

/**
 * The median of the differences within pairs of runs (`a[i] − b[i]`), signed: what one side gains over the
 * other at the same load (`--against`, `--anchors`: the runs alternate).
 */
const pairedDifference = (a: number[], b: number[]) => median(a.map((value, index) => value - (b[index] ?? NaN)));
const signedMs = (ms: number) => `${ms > 0 ? '+' : ''}${ms.toFixed(0)} ms`;
const verdict = (isWithin: boolean) => (isWithin ? 'within budget' : 'OVER BUDGET');

type Transfer = { url: string; type: string; bytes: number; encoding: string };

/**
 * Every response of a fresh visit to `url`, with the bytes it took on the wire (headers included);
 * `afterFocus`: what the page fetched once a field got focus (the app it prefetches for after signing in).
 */
async function transfersOf(browser: Browser, url: string): Promise<{ transfers: Transfer[]; afterFocus: Transfer[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const requests = new Map<string, { url: string; type: string; encoding: string }>();
  const transfers: Transfer[] = [];
  cdp.on('Network.responseReceived', (event) => {
    const encoding = Object.entries(event.response.headers).find(([name]) => name.toLowerCase() === 'content-encoding')?.[1] ?? 'none';
    requests.set(event.requestId, { url: event.response.url, type: event.type ?? 'Other', encoding: String(encoding) });
  });
  cdp.on('Network.loadingFinished', (event) => {
    const request = requests.get(event.requestId);
    if (request) transfers.push({ ...request, bytes: event.encodedDataLength });
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.getByRole('button', { name: 'Accedi', exact: true }).waitFor();
  // Whatever the page fetches right after its first paint (preloads on idle) belongs to the visit too.
  await page.waitForLoadState('networkidle');
  const beforeFocus = transfers.length;
  await page.getByRole('textbox', { name: /^Email/ }).focus();
  // The page's 'networkidle' has fired already: wait until nothing new has arrived for 2 s (30 s at most).
  for (let seen = -1, waited = 0; seen !== transfers.length && waited < 30_000; waited += 2000) {
    seen = transfers.length;
    await page.waitForTimeout(2000);
  }
  await context.close();
  return { transfers: transfers.slice(0, beforeFocus), afterFocus: transfers.slice(beforeFocus) };
}

/** The demo has a dozen posts; the list must be able to show a full page. */
async function ensureListRows(server: AppServer, minimum: number) {
  const probe = await fetch(`${server.url}/api/healthz`);
  const csrf = /XSRF-TOKEN=([^;]+)/.exec(probe.headers.get('set-cookie') ?? '')?.[1] ?? '';
  const headers = { 'content-type': 'application/json', cookie: `${CSRF_COOKIE}=${csrf}`, [CSRF_HEADER]: csrf };
  const signIn = await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers, body: JSON.stringify(DEMO) });
  if (!signIn.ok) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
  const { idToken } = (await signIn.json()) as { idToken: string };
  // The forgery-protection token is bound to the session once there is one (issue 6): the sign-in
  // answer renews it, and guarded writes need the renewed one, as a browser would send it.
  const renewed = new RegExp(`${CSRF_COOKIE}=([^;]+)`).exec(signIn.headers.get('set-cookie') ?? '')?.[1] ?? csrf;
  const auth = { 'content-type': 'application/json', cookie: `${CSRF_COOKIE}=${renewed}`, [CSRF_HEADER]: renewed, 'x-auth-token': idToken };
  if (listPath !== '/news') return;
  const list = (await (await fetch(`${server.url}/api/admin/news?pageSize=1`, { headers: auth })).json()) as { total: number };
  for (let index = list.total; index < minimum + 5; index += 1) {
    const created = await fetch(`${server.url}/api/admin/news`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ title: `Notizia di misura ${index}`, summary: 'Per la misura della lista.', status: 'published' }),
    });
    if (!created.ok) throw new Error(`could not add a post: ${created.status} ${await created.text()}`);
  }
}

const rowsVisible = (page: Page) =>
  page.waitForFunction(
    ({ selector, wanted, path }) => {
      if (window.location.pathname !== path) return null;
      const rows = [...document.querySelectorAll(selector)].filter((row) => (row as HTMLElement).offsetParent !== null);
      return rows.length >= wanted ? performance.now() : null;
    },
    { selector: rowSelector, wanted: rowsWanted, path: listPath },
    { polling: 'raf', timeout: 30_000 },
  );

/** The main menu's link to the list, on screen: what a person clicks after landing. */
const menuLinkSelector = `nav a[href="${listPath}"]`;

/**
 * Both times from the submit; `cpu`: the page's main-thread CPU time over the same span (`ThreadTime`, see
 * `pageMetricMs`); `answers`: how long the path waited for our server, the sign-in request and the list's
 * page (each from sent to answered, as the page's resource timing has them). The issue's anchors ran on an
 * instant fake API: `rows − answers` is the part of the path they are compared on. `click`: when the click on
 * the menu reached the page, from the submit. Between `menu` and `click` the harness checks the link is
 * still and hit before it clicks, and those checks wait for the page's frames: a landing screen busy
 * drawing its figures delays them. `rows − click` is the list's own time (the anchors': `--anchors`).
 */
type Journey = { menu: number; click: number; rows: number; cpu: number; answers: number };

/**
 * One of Chromium's page metrics that count seconds (`Performance.getMetrics`), in ms so far:
 * `TaskDuration` (the main thread's busy time, its waits left out) or `ThreadTime` (its CPU time).
 * `ThreadTime` says how much work the page does, beside how long the person waits: a path whose main
 * thread works longer than its budget cannot meet it, whatever the network. It moves with the machine's
 * load less than the clock times, but it moves: the waits below poll the page at every frame, and a busy
 * machine shares its caches (9 paired runs at load 5–8 spread over ±50 ms).
 */
async function pageMetricMs(cdp: CDPSession, name: 'TaskDuration' | 'ThreadTime'): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return (metrics.find((metric) => metric.name === name)?.value ?? NaN) * 1000;
}

/** One build's server, its browser profile, and what its runs measured. */
type Side = {
  label: string;
  server: AppServer;
  context: BrowserContext;
  profileDir: string | null;
  signIn: number[];
  deepLink: number[];
  deepLinkBusy: number[];
  returning: Journey[];
  cold: Journey[];
};

/** An anchor's timings, in its own browser profile (the returning runs), beside ours. */
type AnchorSide = { label: string; target: JourneyTarget; context: BrowserContext; profileDir: string | null; returning: Journey[]; cold: Journey[] };

/** Where the journey runs: ours, or an anchor (its own sign-in address and menu, and no server to wait for). */
type JourneyTarget = { url: string; loginPath: string; menuSelector: string; answerPaths: string[] };
const ours = (url: string): JourneyTarget => ({ url, loginPath: '/auth/login', menuSelector: menuLinkSelector, answerPaths: ['/api/auth/login', `/api/admin${listPath}`] });

/**
 * A person's morning (issue 32): open /auth/login, focus the e-mail field, pause 1.5 s (typing), fill,
 * submit, land on the home screen (no `?redirect=`), wait for the main menu's link to the list, click it,
 * wait for its rows. Both times from the submit, inside the page (the app changes address in place).
 */
async function journey(context: BrowserContext, target: JourneyTarget): Promise<Journey> {
  const page = await context.newPage();
  await page.goto(`${target.url}${target.loginPath}`);
  const email = page.getByRole('textbox', { name: /^Email/ });
  await email.focus();
  await page.waitForTimeout(1500);
  await email.fill(DEMO.email);
  await page.getByLabel(/^Password/).and(page.locator('input')).fill(DEMO.password);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const cpuBefore = await pageMetricMs(cdp, 'ThreadTime');
  await page.getByRole('button', { name: 'Accedi', exact: true }).evaluate((button) => {
    const bench = window as unknown as { benchStart: number; benchClick: number };
    bench.benchStart = performance.now();
    (button as HTMLButtonElement).click();
    // The next click is the menu's (registered here, so that marking it costs the path no round trip).
    document.addEventListener('click', () => (bench.benchClick = performance.now()), { capture: true, once: true });
  });
  const menuAt = Number(
    await (
      await page.waitForFunction(
        (selector) => {
          const link = document.querySelector(selector) as HTMLElement | null;
          return link && link.offsetParent !== null ? performance.now() : null;
        },
        target.menuSelector,
        { polling: 'raf', timeout: 30_000 },
      )
    ).jsonValue(),
  );
  await page.locator(target.menuSelector).click();
  const rowsAt = Number(await (await rowsVisible(page)).jsonValue());
  const cpu = (await pageMetricMs(cdp, 'ThreadTime')) - cpuBefore;
  const { benchStart: startedAt, benchClick: clickAt } = await page.evaluate(() => {
    const { benchStart, benchClick } = window as unknown as { benchStart: number; benchClick: number };
    return { benchStart, benchClick };
  });
  const answers = await page.evaluate(
    (paths) =>
      (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((entry) => paths.includes(new URL(entry.name).pathname))
        .reduce((sum, entry) => sum + entry.responseEnd - entry.startTime, 0),
    target.answerPaths,
  );
  await page.close();
  return { menu: menuAt - startedAt, click: clickAt - startedAt, rows: rowsAt - startedAt, cpu, answers };
}

/** From the click on "Accedi" (fields filled) to the list's rows on screen, timed inside the page. */
async function signInToList(context: BrowserContext, baseUrl: string): Promise<number> {
  const page = await context.newPage();
  await page.goto(`${baseUrl}/auth/login?redirect=${encodeURIComponent(listPath)}`, { waitUntil: 'networkidle' });
  await page.getByRole('textbox', { name: /^Email/ }).fill(DEMO.email);
  await page.getByLabel(/^Password/).and(page.locator('input')).fill(DEMO.password);
  const submit = page.getByRole('button', { name: 'Accedi', exact: true });
  await submit.evaluate((button) => {
    (window as unknown as { benchStart: number }).benchStart = performance.now();
    (button as HTMLButtonElement).click();
  });
  const shownAt = Number(await (await rowsVisible(page)).jsonValue());
  if (!page.url().includes(listPath)) await page.waitForURL(`**${listPath}*`);
  const startedAt = await page.evaluate(() => (window as unknown as { benchStart: number }).benchStart);
  await page.close();
  return shownAt - startedAt;
}

type Timing = { name: string; start: number; end: number };
let lastWaterfall: Timing[] = [];

/**
 * Runs in every page of the timings' browser from its first moment (an init script, before the page's own
 * scripts): on the list's address, the frame in which the rows are first on screen, as the polling of
 * `rowsVisible` checks them, kept in `window.sfRowsShownAt`. The deep link reads it: Playwright's own
 * polling starts only once `goto` has returned, at the load event, and a page whose classic scripts
 * are still arriving has its rows on screen before that (decision 010).
 * The test is `rowsVisible`'s, written again as text: `rowsVisible` hands Playwright a function (a string
 * would be evaluated, which the app's CSP refuses), and an init script given a function would carry the
 * helpers tsx adds to named inner functions, which the page does not have.
 */
const rowsShownRecorder = () => `(() => {
  if (location.pathname !== ${JSON.stringify(listPath)}) return;
  const startedAt = performance.now();
  const check = () => {
    const rows = [...document.querySelectorAll(${JSON.stringify(rowSelector)})].filter((row) => row.offsetParent !== null);
    if (rows.length >= ${rowsWanted}) window.sfRowsShownAt = performance.now();
    else if (performance.now() - startedAt < 30000) requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`;

/**
 * Opening the list's address in a new tab while signed in: from navigation start to the rows on screen.
 * `busyTimes` gets the renderer's main thread busy time (Chromium's TaskDuration) of the visit: the page's
 * own work, without the waits for the network and the cache, until its rows were on screen and it had
 * loaded (read then: it includes the work of the frames after the rows, up to the load event). It moves
 * with the machine's load too (344 and 414 ms in two CI runs of nearly the same code): compare two builds
 * in the same run (`--against`).
 */
async function deepLink(context: BrowserContext, baseUrl: string, busyTimes: number[]): Promise<number> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.goto(`${baseUrl}${listPath}`);
  const shownAt = Number(await (await page.waitForFunction(() => (window as unknown as { sfRowsShownAt?: number }).sfRowsShownAt, null, { timeout: 30_000 })).jsonValue());
  busyTimes.push(await pageMetricMs(cdp, 'TaskDuration'));
  lastWaterfall = await page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((entry) => ({
      name: new URL(entry.name).pathname + new URL(entry.name).search,
      start: entry.startTime,
      end: entry.responseEnd,
    })),
  );
  await page.close();
  return shownAt;
}

function printWaterfall(shownAt: number) {
  console.log(`Last deep link's requests (ms from navigation start, start → end), rows visible at ${shownAt.toFixed(0)} ms:`);
  for (const { name, start, end } of [...lastWaterfall].sort((a, b) => a.start - b.start)) {
    console.log(`  ${start.toFixed(0).padStart(5)} → ${end.toFixed(0).padStart(5)}  ${name.length > 90 ? `${name.slice(0, 90)}…` : name}`);
  }
  console.log(`  ${lastWaterfall.length} requests`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function lighthouseScores(url: string, count: number): Promise<number[]> {
  const { default: lighthouse } = await import('lighthouse');
  const scores: number[] = [];
  for (let run = 0; run < count; run += 1) {
    // Lighthouse drives its own Chromium over the DevTools protocol: a fresh profile per run.
    const port = await freePort();
    const lighthouseBrowser = await chromium.launch({
      executablePath: process.env['CHROME_PATH'] ?? CHROMIUM,
      args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
    });
    try {
      const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
      const score = result?.lhr.categories['performance']?.score;
      const metric = (id: string) => `${id.split('-').map((word) => word[0]?.toUpperCase()).join('')} ${result?.lhr.audits[id]?.displayValue ?? '?'}`;
      const metrics = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'].map(metric).join(', ');
      if (typeof score !== 'number') throw new Error(`Lighthouse gave no score: ${JSON.stringify(result?.lhr.runtimeError ?? null)}`);
      scores.push(Math.round(score * 100));
      console.log(`  run ${run + 1}: ${Math.round(score * 100)} (${metrics})`);
    } finally {
      await lighthouseBrowser.close();
    }
  }
  return scores;
}

async function main(): Promise<number> {
  if (!args['no-build'] && !args.dist) {
    execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: webRoot, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  }
  // No mail is sent during the measure; the server only needs an address to parse.
  // The bytes alone (`npm run size`, CI) need no customers: without the loyalty demo the server's first
  // start takes seconds instead of half a minute. The timings open the demo's customers list.
  const withoutDemoLoyalty = args.full ? undefined : { DEMO_LOYALTY: 'false', DEMO_LEDGER_ENTRIES: '0' };
  const server = await startAppServer({ smtpUrl: 'smtp://127.0.0.1:9', webDist: dist, extraEnv: withoutDemoLoyalty });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  let isOver: boolean;
  try {
    const loginUrl = `${server.url}/auth/login`;
    const { transfers, afterFocus } = await transfersOf(browser, loginUrl);
    const sum = (type: string) => transfers.filter((item) => item.type === type).reduce((total, item) => total + item.bytes, 0);
    const js = sum('Script');
    const css = sum('Stylesheet');
    const total = transfers.reduce((all, item) => all + item.bytes, 0);
    console.log(`\nWhat a first visit to /auth/login receives (fresh cache, until the network is idle):`);
    for (const item of [...transfers].sort((a, b) => b.bytes - a.bytes)) {
      console.log(`  ${item.type.padEnd(10)} ${kib(item.bytes).padStart(10)}  ${item.encoding.padEnd(5)} ${new URL(item.url).pathname}`);
    }
    isOver = js > BUDGET.jsCeiling || css > BUDGET.cssCeiling;
    const line = (bytes: number, target: number, ceiling: number) =>
      `${kib(bytes)} (target ${kib(target)}: ${verdict(bytes <= target)}; CI ceiling ${kib(ceiling)}: ${bytes <= ceiling ? 'ok' : 'CROSSED'})`;
    console.log(`Login JS on the wire:  ${line(js, BUDGET.js, BUDGET.jsCeiling)}`);
    console.log(`Login CSS on the wire: ${line(css, BUDGET.css, BUDGET.cssCeiling)}`);
    console.log(`Login total on the wire: ${kib(total)} in ${transfers.length} responses`);
    const focusJs = afterFocus.filter((item) => item.type === 'Script').reduce((all, item) => all + item.bytes, 0);
    const focusAll = afterFocus.reduce((all, item) => all + item.bytes, 0);
    console.log(
      `Then, when a field gets focus (the app prefetched for after signing in, not counted above): ` +
        `${kib(focusJs)} of JS, ${kib(focusAll)} in all, ${afterFocus.length} responses`,
    );

    if (args.full) {
      await ensureListRows(server, rowsWanted);
      // With --against, a second server serves the other build, and every run is made on both, one after
      // the other in alternating order: the machine's load then weighs on both alike (decision 010).
      const baseline = args.against ? await startAppServer({ smtpUrl: 'smtp://127.0.0.1:9', webDist: path.resolve(args.against) }) : null;
      // Closed in `finally`: a persistent context is a browser process of its own, and one left open when
      // a timing step threw kept this script from ever exiting.
      const sides: Side[] = [];
      const anchorSides: AnchorSide[] = [];
      let anchors: Anchor[] = [];
      try {
        if (baseline) await ensureListRows(baseline, rowsWanted);
        const onDisk = args['browser-profile'] !== 'memory';
        const contextOptions = { locale: 'it-IT', timezoneId: 'Europe/Rome' };
        // A returning user's browser: a profile on disk of its own (or, with --browser-profile=memory, a context).
        const openReturningBrowser = async () => {
          const profileDir = onDisk ? mkdtempSync(path.join(os.tmpdir(), 'sf-bench-web-profile-')) : null;
          const context = profileDir
            ? await chromium.launchPersistentContext(profileDir, { ...contextOptions, executablePath: CHROMIUM, args: CHROMIUM_ARGS })
            : await browser.newContext(contextOptions);
          return { profileDir, context };
        };
        for (const [label, each] of [['this build', server], ...(baseline ? [['--against', baseline] as const] : [])] as const) {
          const { profileDir, context } = await openReturningBrowser();
          await context.addInitScript(rowsShownRecorder());
          sides.push({ label, server: each, context, profileDir, signIn: [], deepLink: [], deepLinkBusy: [], returning: [], cold: [] });
        }
        if (args.anchors) {
          if (listPath !== '/customers' || rowsWanted !== 25) throw new Error('the anchors have a customers list of 25 rows only: drop --list-path and --rows');
          anchors = await startAnchors();
          for (const anchor of anchors) {
            const { profileDir, context } = await openReturningBrowser();
            // One visit first, as ours has (its sign-in to the list), so that the returning runs find a cache.
            const page = await context.newPage();
            await page.goto(`${anchor.url}${anchor.loginPath}`, { waitUntil: 'networkidle' });
            await page.close();
            const target = { url: anchor.url, loginPath: anchor.loginPath, menuSelector: anchor.menuSelector, answerPaths: [] };
            anchorSides.push({ label: anchor.label, target, context, profileDir, returning: [], cold: [] });
          }
        }
        console.log(
          `\nTimings in ${onDisk ? "a browser profile on disk (HTTP cache and V8's code cache, as a returning user's browser)" : 'an in-memory browser context (no V8 code cache)'}` +
            `${baseline ? `, this build and ${args.against} (--against) in turns` : ''}:`,
        );
        // Each run starts signed out, so the page shows the form; the assets stay cached as for a returning user.
        const signOut = async ({ context, server: each }: Side) => {
          await context.clearCookies();
          const page = await context.newPage();
          await page.goto(`${each.url}/auth/login`);
          await page.evaluate(() => window.localStorage.clear());
          await page.close();
        };
        for (let run = 0; run < runs; run += 1) {
          for (const side of run % 2 ? [...sides].reverse() : sides) {
            await signOut(side);
            side.signIn.push(await signInToList(side.context, side.server.url));
            side.deepLink.push(await deepLink(side.context, side.server.url, side.deepLinkBusy));
            await signOut(side);
            side.returning.push(await journey(side.context, ours(side.server.url)));
            // A cold browser: a fresh in-memory context per run (no HTTP cache, no code cache).
            const cold = await browser.newContext(contextOptions);
            side.cold.push(await journey(cold, ours(side.server.url)));
            await cold.close();
          }
          for (const side of run % 2 ? [...anchorSides].reverse() : anchorSides) {
            side.returning.push(await journey(side.context, side.target));
            const cold = await browser.newContext(contextOptions);
            side.cold.push(await journey(cold, side.target));
            await cold.close();
          }
        }
        const list = `${rowsWanted} rows of ${listPath}`;
        for (const side of sides) {
          if (baseline) console.log(`${side.label}:`);
          const signInMedian = median(side.signIn);
          const deepLinkMedian = median(side.deepLink);
          console.log(`Sign-in → ${list} visible, ${runs} runs: ${side.signIn.map((ms) => ms.toFixed(0)).join(', ')} ms`);
          console.log(`  median ${signInMedian.toFixed(0)} ms (budget ${BUDGET.signInToListMs} ms, ${verdict(signInMedian <= BUDGET.signInToListMs)})`);
          console.log(`Deep link to ${listPath} while signed in → ${list} visible: ${side.deepLink.map((ms) => ms.toFixed(0)).join(', ')} ms`);
          console.log(`  median ${deepLinkMedian.toFixed(0)} ms (budget ${BUDGET.deepLinkMs} ms, ${verdict(deepLinkMedian <= BUDGET.deepLinkMs)})`);
          console.log(`  the page's main thread busy meanwhile: median ${median(side.deepLinkBusy).toFixed(0)} ms (the page's own work until the rows and the load event, without its waits)`);
          for (const [label, journeys] of [
            ['cold browser', side.cold],
            ['returning browser', side.returning],
          ] as const) {
            const menuMedian = median(journeys.map((item) => item.menu));
            const rowsMedian = median(journeys.map((item) => item.rows));
            console.log(`Journey, ${label} (login, focus, 1.5 s typing, submit, land, click the menu's ${listPath}), ${runs} runs:`);
            console.log(`  submit → menu link visible: ${journeys.map((item) => item.menu.toFixed(0)).join(', ')} ms; median ${menuMedian.toFixed(0)} ms (budget ${BUDGET.journeyMenuMs} ms, ${verdict(menuMedian <= BUDGET.journeyMenuMs)})`);
            console.log(`  submit → ${list} visible: ${journeys.map((item) => item.rows.toFixed(0)).join(', ')} ms; median ${rowsMedian.toFixed(0)} ms (budget ${BUDGET.journeyRowsMs} ms, ${verdict(rowsMedian <= BUDGET.journeyRowsMs)})`);
            console.log(
              `  menu visible → its click reaches the page: median ${median(journeys.map((item) => item.click - item.menu)).toFixed(0)} ms; ` +
                `click → rows: median ${median(journeys.map((item) => item.rows - item.click)).toFixed(0)} ms`,
            );
            console.log(`  the page's main-thread CPU from the submit to the rows: median ${median(journeys.map((item) => item.cpu)).toFixed(0)} ms`);
            console.log(
              `  of submit → rows, waiting for the server's answers (sign-in, the list's page): median ${median(journeys.map((item) => item.answers)).toFixed(0)} ms; ` +
                `the rest (what the anchors' instant fake API compares with): median ${median(journeys.map((item) => item.rows - item.answers)).toFixed(0)} ms`,
            );
          }
        }
        const mine = sides[0];
        for (const side of anchorSides) {
          console.log(`Anchor: ${side.label} (the same journey; an instant in-memory API, bench/anchors), ${runs} runs:`);
          for (const [label, journeys, oursToo] of [
            ['cold', side.cold, mine?.cold ?? []],
            ['returning', side.returning, mine?.returning ?? []],
          ] as const) {
            const of = (pick: (item: Journey) => number) => median(journeys.map(pick)).toFixed(0);
            // Ours less the anchor, run by run.
            const paired = (pick: (item: Journey) => number) => signedMs(pairedDifference(oursToo.map(pick), journeys.map(pick)));
            console.log(
              `  ${label}: submit → menu ${of((item) => item.menu)} ms, → rows ${of((item) => item.rows)} ms; menu → click ${of((item) => item.click - item.menu)} ms, click → rows ${of((item) => item.rows - item.click)} ms; ` +
                `ours − it: menu ${paired((item) => item.menu)}, rows ${paired((item) => item.rows)}, rows less our server's answers ${paired((item) => item.rows - item.answers)}, click → rows ${paired((item) => item.rows - item.click)}`,
            );
          }
        }
        const other = sides[1];
        if (mine && other) {
          const paired = (a: number[], b: number[]) => {
            const difference = pairedDifference(a, b);
            return `${signedMs(difference)} (${((difference / median(b)) * 100).toFixed(0)} %)`;
          };
          const menus = (journeys: Journey[]) => journeys.map((item) => item.menu);
          const rows = (journeys: Journey[]) => journeys.map((item) => item.rows);
          console.log(`This build − ${args.against}, median of the ${runs} paired differences (negative: this build is faster):`);
          console.log(`  sign-in → rows ${paired(mine.signIn, other.signIn)}; deep link ${paired(mine.deepLink, other.deepLink)}`);
          console.log(`  journey, cold: menu ${paired(menus(mine.cold), menus(other.cold))}, rows ${paired(rows(mine.cold), rows(other.cold))}`);
          console.log(`  journey, returning: menu ${paired(menus(mine.returning), menus(other.returning))}, rows ${paired(rows(mine.returning), rows(other.returning))}`);
          const clickToRows = (journeys: Journey[]) => journeys.map((item) => item.rows - item.click);
          console.log(`  journey, click → rows: cold ${paired(clickToRows(mine.cold), clickToRows(other.cold))}, returning ${paired(clickToRows(mine.returning), clickToRows(other.returning))}`);
          const cpus = (journeys: Journey[]) => journeys.map((item) => item.cpu);
          console.log(`  the page's main-thread CPU, submit → rows: cold ${paired(cpus(mine.cold), cpus(other.cold))}, returning ${paired(cpus(mine.returning), cpus(other.returning))}`);
        }
        console.log(`  (${loadAverage()} at the end of the timings)`);
        if (args.waterfall) printWaterfall(sides[0]?.deepLink.at(-1) ?? NaN);
      } finally {
        for (const side of [...sides, ...anchorSides]) {
          await side.context.close();
          if (side.profileDir) rmSync(side.profileDir, { recursive: true, force: true });
        }
        for (const anchor of anchors) await anchor.stop();
        await baseline?.stop();
      }

      console.log(`\nLighthouse mobile performance on /auth/login (simulated slow 4G, mid-range phone):`);
      try {
        const scores = await lighthouseScores(loginUrl, Number(args['lighthouse-runs']));
        const score = median(scores);
        if (scores.length === 0) console.log('  not run (--lighthouse-runs=0)');
        else console.log(`  median ${score} (budget ≥ ${BUDGET.lighthouse}, ${verdict(score >= BUDGET.lighthouse)})`);
      } catch (error) {
        console.log(`  Lighthouse did not run: ${error instanceof Error ? error.message : String(error)}`);
      }
      console.log('The timings and the score depend on the machine and its load: reported, not enforced.');
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  if (isOver) {
    console.error('\nThe sign-in page crossed its byte ceiling (docs/decisions/010-what-the-sign-in-page-carries.md).');
    return 1;
  }
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);

import os from 'node:os';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import pg from 'pg';
import { openClient, startServer } from '../apps/api/test/server-process.ts';
import { benchDatabase, numberArgument } from './support.ts';

/**
 * `npm run bench:export` — prints figures, asserts nothing. Starts a real PostgreSQL, loads about
 * 1,000,000 ledger entries (db:seed:large), starts the REAL server as its own process, downloads
 * `GET /api/admin/ledger/export.csv` over HTTP and samples the server process's resident memory
 * (VmRSS, every 50 ms) before and during the download, and at 10 %, 25 %, 50 %, 75 % and 100 % of the
 * rows received: a streamed export keeps it flat.
 * `--customers N --entries M` changes the size (default 100,000 / 1,000,000). `--heap-mb N` starts the
 * server with `--max-old-space-size=N`: an export that kept its rows would then fail for lack of heap,
 * a streamed one finishes (V8 otherwise lets garbage grow the heap while memory is plentiful).
 */
const CUSTOMERS = numberArgument('customers', 100_000);
const ENTRIES = numberArgument('entries', 1_000_000);
const HEAP_MB = numberArgument('heap-mb', 0);

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

const { url, stop } = await benchDatabase({ customers: CUSTOMERS, entries: ENTRIES, poolSize: 1 });
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sf-bench-export-'));
try {
  const counter = new pg.Client({ connectionString: url });
  await counter.connect();
  const expected = Number((await counter.query<{ n: string }>('select count(*) as n from ledger_entries')).rows[0]!.n);
  await counter.end();

  const app = await startServer({ dataDir, env: { DATABASE_URL: url, DEMO_LEDGER_ENTRIES: '0', ...(HEAP_MB > 0 ? { NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` } : {}) }, readyTimeoutMs: 300_000 });
  try {
    const pid = app.child.pid!;
    const client = await openClient(app.baseUrl);
    const signIn = await client.request('POST', '/api/auth/login', { body: { email: 'admin@demo.test', password: 'Demo-Password-2026' } });
    if (signIn.status !== 200) throw new Error(`sign-in: ${signIn.status} ${await signIn.text()}`);
    const { idToken } = (await signIn.json()) as { idToken: string };
    // Warm the process (routes compiled, pools open) with a small export first.
    await (await client.request('GET', '/api/admin/ledger/export.csv?kind=redeem&from=2099-01-01T00:00:00Z', { token: idToken })).arrayBuffer();
    const before = await rssMb(pid);

    let peak = before;
    const samples: number[] = [];
    const sampler = setInterval(() => {
      void rssMb(pid).then((mb) => {
        samples.push(mb);
        if (mb > peak) peak = mb;
      });
    }, 50);
    const started = Date.now();
    const response = await client.request('GET', '/api/admin/ledger/export.csv', { token: idToken, headers: { 'accept-encoding': 'identity' } });
    if (response.status !== 200 || !response.body) throw new Error(`export: ${response.status}`);
    let bytes = 0;
    let lines = 0;
    const marks = [0.1, 0.25, 0.5, 0.75, 1];
    const atMarks: string[] = [];
    const rssNow = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      for (const byte of chunk) if (byte === 0x0a) lines += 1;
      while (marks.length > 0 && lines - 1 >= marks[0]! * expected) {
        const mark = marks.shift()!;
        atMarks.push(`${mark * 100} %: ${rssNow().toFixed(0)} MB (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      }
    }
    const seconds = (Date.now() - started) / 1000;
    if (marks.length > 0) atMarks.push(`end (${(lines - 1).toLocaleString('en')} rows): ${rssNow().toFixed(0)} MB`);
    clearInterval(sampler);
    const rows = lines - 1;
    const sorted = [...samples].sort((a, b) => a - b);
    console.log(`\nGET /api/admin/ledger/export.csv over HTTP (server in its own process${HEAP_MB > 0 ? `, heap capped at ${HEAP_MB} MB` : ''})`);
    console.log(`  rows ${rows.toLocaleString('en')}, ${(bytes / 1024 / 1024).toFixed(1)} MB in ${seconds.toFixed(1)} s (${Math.round(rows / seconds).toLocaleString('en')} rows/s)`);
    console.log(
      `  server RSS: before ${before.toFixed(0)} MB, during p50 ${(sorted[Math.floor(sorted.length / 2)] ?? NaN).toFixed(0)} MB, ` +
        `peak ${peak.toFixed(0)} MB (${samples.length} samples) — growth ${(peak - before).toFixed(0)} MB for ${(bytes / 1024 / 1024).toFixed(0)} MB sent`,
    );
    console.log(`  server RSS by rows received (of ${expected.toLocaleString('en')}): ${atMarks.join(' · ')}`);
  } finally {
    await app.stop();
  }
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await stop();
  await rm(dataDir, { recursive: true, force: true });
}

import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { startServer } from '../apps/api/test/server-process.ts';
import { loadAverage, ms, numberArgument, percentile } from './support.ts';

/**
 * `npm run bench:server-start -- [--rounds 3]` — prints figures, asserts nothing. How long the REAL
 * server (`apps/api/test/server-process.ts`, as the tests start it) takes from spawn to a 200 on
 * /api/readyz on a fresh DATA_DIR (embedded PGlite: migrations + demo seed), with the demo data the
 * tests used to get (staff, news and the loyalty demo of ~3,000 customers, without its ledger), with
 * `DEMO_LOYALTY=false` (staff and news only: what the tests now get) and with `DEMO_DATA=false` (the
 * anchor: no seed at all). The kinds alternate within each round, so a change in the machine's load
 * touches all of them alike.
 */
const ROUNDS = numberArgument('rounds', 3);

const kinds = [
  { name: 'demo data with the loyalty demo (before)', env: { DEMO_LOYALTY: 'true' } },
  { name: 'DEMO_LOYALTY=false (staff + news)', env: { DEMO_LOYALTY: 'false' } },
  { name: 'DEMO_DATA=false (anchor: no seed)', env: { DEMO_DATA: 'false' } },
] as const;

async function startOnce(env: Record<string, string>): Promise<number> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sf-start-bench-'));
  try {
    const started = performance.now();
    const server = await startServer({ dataDir, env, readyTimeoutMs: 300_000 });
    const elapsed = performance.now() - started;
    await server.stop();
    return elapsed;
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

const times = new Map<string, number[]>(kinds.map((kind) => [kind.name, []]));
for (let round = 1; round <= ROUNDS; round += 1) {
  for (const kind of kinds) {
    const elapsed = await startOnce(kind.env);
    times.get(kind.name)!.push(elapsed);
    console.log(`round ${round}: ${kind.name}: ${ms(elapsed)} (${loadAverage()})`);
  }
}
const anchor = percentile(times.get(kinds[2].name)!, 50);
console.log(`\nmedian of ${ROUNDS} fresh starts each, ${loadAverage()}:`);
for (const kind of kinds) {
  const median = percentile(times.get(kind.name)!, 50);
  console.log(`  ${kind.name}: ${ms(median)} (${(median / anchor).toFixed(2)}× the anchor)`);
}

import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { seedDemoData } from '../apps/api/src/db/seed.ts';
import { seedLoyaltyDemo } from '../apps/api/src/db/seed-loyalty.ts';
import { seedRewardsDemo } from '../apps/api/src/modules/rewards/rewards.seed.ts';
import { seedPrivacyDemo } from '../apps/api/src/modules/privacy/privacy.seed.ts';
import { startServer } from '../apps/api/test/server-process.ts';
import { loadAverage, ms, numberArgument, percentile } from './support.ts';

/**
 * `npm run bench:server-start -- [--rounds 3]` — prints figures, asserts nothing. How long the REAL
 * server (`apps/api/test/server-process.ts`, as the tests start it) takes from spawn to a 200 on
 * /api/readyz on a fresh DATA_DIR (embedded PGlite: migrations + demo seed), with the demo data the
 * tests used to get (staff, news and the loyalty demo of ~3,000 customers, without its ledger), with
 * `DEMO_LOYALTY=false` (staff and news only: what the tests now get) and with `DEMO_DATA=false` (the
 * anchor: no seed at all). The kinds alternate within each round, so a change in the machine's load
 * touches all of them alike. Whole starts are noisy on a loaded machine (module loading and the fresh
 * embedded database dominate them), so the parts of the start the switch decides are also timed one
 * by one, in this process, on a fresh embedded database per round.
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

// The start's parts, in this process: what DEMO_LOYALTY=false leaves out is the loyalty, rewards and
// privacy seeds (the demo ledger is off in the tests either way: DEMO_LEDGER_ENTRIES=0).
const parts = ['open + migrate (fresh embedded database)', 'seed: staff + news', 'seed: loyalty (merchants, programs, ~3,000 customers)', 'seed: rewards', 'seed: privacy'];
const partTimes = new Map<string, number[]>(parts.map((part) => [part, []]));
for (let round = 1; round <= ROUNDS; round += 1) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sf-start-parts-'));
  try {
    let last = performance.now();
    const lap = (part: string) => {
      const now = performance.now();
      partTimes.get(part)!.push(now - last);
      last = now;
    };
    const database = await openDatabase({ pgliteDir: path.join(dir, 'pglite') });
    await database.migrate();
    lap(parts[0]!);
    await seedDemoData(database.db);
    lap(parts[1]!);
    await seedLoyaltyDemo(database.db);
    lap(parts[2]!);
    await seedRewardsDemo(database.db, { timeZone: 'Europe/Rome' });
    lap(parts[3]!);
    await seedPrivacyDemo(database.db);
    lap(parts[4]!);
    await database.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
const saved = parts.slice(2).reduce((sum, part) => sum + percentile(partTimes.get(part)!, 50), 0);
console.log(`\nthe start's parts, median of ${ROUNDS} rounds in-process, ${loadAverage()}:`);
for (const part of parts) console.log(`  ${part}: ${ms(percentile(partTimes.get(part)!, 50))}`);
console.log(`  left out by DEMO_LOYALTY=false: ${ms(saved)} per fresh start`);

import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/api/src/app.ts';
import { loadEnv } from '../apps/api/src/config/env.ts';
import { createApiKey } from '../apps/api/src/modules/integration/api-keys.service.ts';
import { createLedgerFixture } from '../apps/api/test/ledger-fixtures.ts';
import { freshBenchDatabase, loadAverage, numberArgument, percentile } from './support.ts';

/**
 * `npm run bench:integration` — prints figures, asserts nothing (speed is measured here, never in
 * tests). On a real PostgreSQL: integration purchases (POST /api/integration/v1/purchases with a
 * bearer key, each with its own Idempotency-Key) from 20 concurrent tills, each till its own key,
 * spread over the members; prints purchases per second and the p50/p99 latency.
 * `--seconds N` (default 15), `--tills N` (default 20), `--customers N` (default 2,000).
 */
const TILLS = numberArgument('tills', 20);
const SECONDS = numberArgument('seconds', 15);
const CUSTOMERS = numberArgument('customers', 2000);

const { url, database, stop } = await freshBenchDatabase(TILLS);
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sf-bench-integration-'));
try {
  console.log(`loading ${CUSTOMERS.toLocaleString('en')} members…`);
  const fx = await createLedgerFixture(database.db, { customers: CUSTOMERS });
  const cards = ((await database.db.execute(sql`select card_number from customers order by card_number`)) as unknown as { rows: { card_number: string }[] }).rows.map(
    (row) => row.card_number,
  );
  if (cards.length === 0) throw new Error('no cards loaded');

  const env = loadEnv({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    DATABASE_URL: url,
    APP_URL: 'https://bench.example',
    SMTP_URL: 'smtp://127.0.0.1:1',
    CSRF_SECRET: 'b'.repeat(40),
    INTEGRATION_RATE_LIMIT: '1000000',
  });
  const app = await buildApp({ env, database, runScheduler: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const deps = { db: database.db, clock: app.clock, timeZone: env.BUSINESS_TIME_ZONE, pepper: app.apiKeyPepper };
  const caller = { actor: { id: null, email: 'bench' }, userId: null as unknown as string, language: 'it' as const };
  const keys: string[] = [];
  for (let i = 0; i < TILLS; i += 1) {
    const created = await createApiKey(deps, caller, { name: `Cassa ${i + 1}`, kind: 'merchant', merchantId: fx.merchantId, scopes: ['purchases:write'] });
    keys.push(created.secret);
  }

  const latencies: number[] = [];
  const errors: Record<string, number> = {};
  let ok = 0;
  let next = 0;
  const till = async (key: string) => {
    const deadline = Date.now() + SECONDS * 1000;
    while (Date.now() < deadline) {
      const card = cards[next++ % cards.length]!;
      const started = process.hrtime.bigint();
      const response = await fetch(`${base}/api/integration/v1/purchases`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify({ cardNumber: card, amountCents: 1250, programId: fx.pointsProgramId }),
      });
      await response.arrayBuffer();
      latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (response.status === 201) ok += 1;
      else errors[String(response.status)] = (errors[String(response.status)] ?? 0) + 1;
    }
  };
  const start = Date.now();
  await Promise.all(keys.map((key) => till(key)));
  const seconds = (Date.now() - start) / 1000;
  console.log(
    `\nintegration purchases, ${TILLS} concurrent tills (one key each), ${SECONDS} s, ${cards.length.toLocaleString('en')} cards, real PostgreSQL:\n` +
      `  ${(ok / seconds).toFixed(0)} purchases/s  (${ok} ok, errors ${JSON.stringify(errors)})\n` +
      `  latency p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms\n` +
      `  (${os.cpus().length} cores, ${loadAverage()}: a shared machine reads lower)`,
  );
  await app.close();
} finally {
  await stop();
  await rm(dataDir, { recursive: true, force: true });
}

import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { mkdtemp, rm } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/api/src/app.ts';
import { loadEnv } from '../apps/api/src/config/env.ts';
import { systemClock } from '../apps/api/src/lib/clock.ts';
import { startBackgroundJobs } from '../apps/api/src/jobs.ts';
import { createApiKey } from '../apps/api/src/modules/integration/api-keys.service.ts';
import { createCampaign, sendCampaign } from '../apps/api/src/modules/campaigns/campaigns.service.ts';
import { createLedgerFixture } from '../apps/api/test/ledger-fixtures.ts';
import { startSmtpCatcher } from '../tools/test-support/smtp-catcher.ts';
import { freshBenchDatabase, loadAverage, numberArgument } from './support.ts';

/**
 * `npm run bench:campaign` — prints figures, asserts nothing. On a real PostgreSQL:
 * 1. a campaign to 100,000 consenting members is queued (`POST …/send`: one row per recipient);
 * 2. the API's integration purchases per second from 10 tills, with no campaign sending;
 * 3. the same while the campaign sends to a local SMTP server at CAMPAIGN_RATE_PER_MINUTE, with the
 *    rate reached.
 * `--recipients N` (default 100,000), `--rate N` per minute (default 600), `--seconds N` per
 * measurement (default 20), `--tills N` (default 10).
 */
const RECIPIENTS = numberArgument('recipients', 100_000);
const RATE = numberArgument('rate', 600);
const SECONDS = numberArgument('seconds', 20);
const TILLS = numberArgument('tills', 10);

const TILL_CLIENTS = `
const { parentPort, workerData } = require('node:worker_threads');
const { randomUUID } = require('node:crypto');
const http = require('node:http');
const { base, keys, cards, programId, seconds } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: keys.length });
const target = new URL(base + '/api/integration/v1/purchases');
let ok = 0;
let next = 0;
const errors = {};
const deadline = Date.now() + seconds * 1000;
function post(key, body) {
  return new Promise((resolve, reject) => {
    const request = http.request(target, {
      method: 'POST', agent,
      headers: { authorization: 'Bearer ' + key, 'content-type': 'application/json', 'idempotency-key': randomUUID(), 'content-length': Buffer.byteLength(body) },
    }, (response) => { response.on('data', () => {}); response.on('end', () => resolve(response.statusCode)); response.on('error', reject); });
    request.on('error', reject);
    request.end(body);
  });
}
async function till(key) {
  while (Date.now() < deadline) {
    const card = cards[next++ % cards.length];
    const status = await post(key, JSON.stringify({ cardNumber: card, amountCents: 1250, programId })).catch((error) => 'network ' + error.code);
    if (status === 201) ok += 1; else errors[status] = (errors[status] || 0) + 1;
  }
}
Promise.all(keys.map(till)).then(() => { agent.destroy(); parentPort.postMessage({ ok, errors }); });
`;

const { url, database, stop } = await freshBenchDatabase(TILLS + 4);
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sf-bench-campaign-'));
const smtp = await startSmtpCatcher();
try {
  const fx = await createLedgerFixture(database.db, { customers: 1000 });
  console.log(`loading ${RECIPIENTS.toLocaleString('en')} consenting members…`);
  await database.db.execute(
    sql`insert into customers (first_name, last_name, email, card_number, referral_code, marketing_consent, service_consent)
        select 'Cliente', 'Numero ' || i, 'cliente' || i || '@example.it', lpad((8000000000000 + i)::text, 13, '0'), 'CB' || lpad(i::text, 7, '0'), true, true
        from generate_series(1, ${RECIPIENTS}) as i`,
  );
  await database.db.execute(sql`insert into memberships (customer_id, program_id) select id, ${fx.stampsProgramId} from customers where email like 'cliente%@example.it'`);
  await database.db.execute(sql`analyze`);
  const cards = ((await database.db.execute(sql`select card_number from customers where email is null`)) as unknown as { rows: { card_number: string }[] }).rows.map((row) => row.card_number);

  const env = loadEnv({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    DATABASE_URL: url,
    APP_URL: 'https://bench.example',
    SMTP_URL: smtp.url,
    CSRF_SECRET: 'b'.repeat(40),
    API_KEY_PEPPER: 'p'.repeat(40),
    INTEGRATION_RATE_LIMIT: '1000000',
    CAMPAIGN_RATE_PER_MINUTE: String(RATE),
  });
  const app = await buildApp({ env, database, runScheduler: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const deps = { db: database.db, clock: systemClock, timeZone: env.BUSINESS_TIME_ZONE };
  const caller = { actor: { id: null, email: 'bench@example.it' }, userId: null as unknown as string, language: 'it' as const };
  const keys: string[] = [];
  for (let i = 0; i < TILLS; i += 1) {
    const created = await createApiKey({ ...deps, pepper: env.API_KEY_PEPPER! }, caller, { name: `Cassa ${i + 1}`, kind: 'merchant', merchantId: fx.merchantId, scopes: ['purchases:write'] });
    keys.push(created.secret);
  }
  const tills = (seconds: number) => {
    const worker = new Worker(TILL_CLIENTS, { eval: true, workerData: { base, keys, cards, programId: fx.pointsProgramId, seconds } });
    return new Promise<{ ok: number; errors: Record<string, number> }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  };

  // 1. Queueing.
  const campaign = await createCampaign(deps, caller, {
    name: 'Bench',
    subject: 'Ciao {{nome}}, ti aspettiamo',
    preheader: 'Un caffè in omaggio',
    body: '<p>Ciao {{nome}}, passa a trovarci: <strong>il caffè lo offriamo noi</strong>.</p>',
    audience: { programId: fx.stampsProgramId, merchantId: null, tier: null, inactiveDays: null, birthdayMonth: null, joinedAfter: null },
  });
  const queueStart = performance.now();
  const sending = await sendCampaign(deps, caller, campaign.id, {});
  const queueMs = performance.now() - queueStart;
  console.log(`queued ${sending.counts.recipients.toLocaleString('en')} recipients in ${(queueMs / 1000).toFixed(2)} s (POST …/send: one row each, one transaction)`);

  // 2. Purchases with no campaign sending (the campaign is queued, no runner runs). A first purchase
  // per card makes its membership (the long way): done before measuring.
  await tills(Math.max(5, Math.ceil(cards.length / 200)));
  const without = await tills(SECONDS);
  const withoutPerSecond = without.ok / SECONDS;

  // 3. The same while the campaign sends.
  const jobs = startBackgroundJobs(app, { isAutomatic: false });
  let isRunning = true;
  const runner = (async () => {
    while (isRunning) {
      await jobs.tick();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const sentBefore = smtp.messages.length;
  const sendStart = Date.now();
  const during = await tills(SECONDS);
  const sendSeconds = (Date.now() - sendStart) / 1000;
  const sentDuring = smtp.messages.length - sentBefore;
  isRunning = false;
  // A tick drains every due job, and a sending campaign always has its next slice due: stop the runner
  // (it ends after the slice under way), then its loop.
  await jobs.stop();
  await runner;
  const withPerSecond = during.ok / SECONDS;

  console.log(
    `\ncampaign to ${RECIPIENTS.toLocaleString('en')} recipients, real PostgreSQL, ${TILLS} tills, ${SECONDS} s each:\n` +
      `  queueing:                      ${(queueMs / 1000).toFixed(2)} s\n` +
      `  sending:                       ${((sentDuring / sendSeconds) * 60).toFixed(0)} e-mails/min to the local SMTP server (configured ${RATE}/min)\n` +
      `  purchases without a campaign:  ${withoutPerSecond.toFixed(0)} /s (errors ${JSON.stringify(without.errors)})\n` +
      `  purchases while it sends:      ${withPerSecond.toFixed(0)} /s (errors ${JSON.stringify(during.errors)})\n` +
      `  (${os.cpus().length} cores, ${loadAverage()}: a shared machine reads lower)`,
  );
  await app.close();
} finally {
  await smtp.close();
  await stop();
  await rm(dataDir, { recursive: true, force: true });
}

import { parseArgs } from 'node:util';
import { startCluster } from '../apps/api/test/cluster/cluster.ts';
import { HAPROXY_CONFIG, HAPROXY_MISSING, hasHaproxy } from '../apps/api/test/cluster/haproxy.ts';
import { ensureWebBuild, precompressInBackground, webDist } from './web-build.mjs';

/**
 * `npm run cluster` — "beyond one machine" on this one, to try it (docs/operations.md): a PostgreSQL
 * primary and a streaming replica (the PostgreSQL 18 the tests use), two API processes sharing their
 * secrets and reading on the replica, and HAProxy (Debian's, deploy/haproxy.cfg) on port 3000 in front.
 * Everything lives in a temporary directory and goes away with Ctrl-C. `-- --port N` for another port.
 */
const { values } = parseArgs({ options: { port: { type: 'string', default: '3000' } } });
const port = Number(values.port);

if (!hasHaproxy()) {
  console.error(HAPROXY_MISSING);
  process.exit(1);
}
ensureWebBuild();

const started = Date.now();
const cluster = await startCluster({
  port,
  // The whole demo, as `npm start` loads it (the tests' server processes skip the loyalty part).
  env: { WEB_DIST: webDist, DEMO_LOYALTY: 'true', DEMO_LEDGER_ENTRIES: '60000', SCHEDULER_INTERVAL_MS: '15000' },
  progress: (step) => console.log(`starting: ${step}…`),
});
precompressInBackground();

const [api1, api2] = cluster.apis;
console.log(`
Ready in ${((Date.now() - started) / 1000).toFixed(0)} s.

  ${cluster.baseUrl}    HAProxy (${HAPROXY_CONFIG}): sign in as admin@demo.test / Demo-Password-2026
  ${api1!.baseUrl}   API process 1, pid ${api1!.pid()}
  ${api2!.baseUrl}   API process 2, pid ${api2!.pid()}
  ${cluster.databaseUrl}   primary
  ${cluster.readUrl}   streaming replica (DATABASE_READ_URL)

Try: stop an API process (kill -9 ${api1!.pid()}) and keep using the app; pause the replica
(psql ${cluster.readUrl} -c 'select pg_wal_replay_pause()') and watch /api/readyz say "degraded".
Ctrl-C stops everything and removes its data.`);

let isClosing = false;
const close = async () => {
  if (isClosing) return;
  isClosing = true;
  console.log('stopping the cluster…');
  await cluster.close();
  process.exit(0);
};
process.on('SIGINT', () => void close());
process.on('SIGTERM', () => void close());

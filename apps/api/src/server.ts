import type { FastifyBaseLogger } from 'fastify';
import { loadEnv } from './config/env.ts';
import { openDatabaseFromEnv } from './db/client.ts';
import { buildApp } from './app.ts';
import { seedDemoData } from './db/seed.ts';
import { loggerOptions } from './lib/logger.ts';
import { prepareDataDir } from './lib/data-dir.ts';
import { loadLoyaltyDemo } from './demo-loyalty.ts';

/**
 * Only starts the app (CONTRIBUTING.md convention 4): configuration, logger, database, listen, and a graceful
 * close on SIGTERM/SIGINT in which in-flight requests finish before the database closes.
 */
async function main() {
  const env = loadEnv();
  await prepareDataDir(env.dataDir);
  // The replica's changes of state (db/read-replica.ts) go to the app's log once it exists.
  const late: { log?: FastifyBaseLogger } = {};
  const database = await openDatabaseFromEnv(env, {
    onError: (error) => console.error('database pool error', error),
    log: (level, message, error) => (late.log ? late.log[level]({ err: error }, message) : console.error(message, error ?? '')),
  });
  // Under the start-up lock (db/client.ts): any number of processes may start at once.
  await database.migrate();
  const app = await buildApp({
    env,
    database,
    logger: loggerOptions(env.LOG_LEVEL),
  });
  late.log = app.log;
  if (env.demoData) {
    // Under the start-up lock: processes started together on an empty database load it once, the
    // others find it loaded (each seed checks for its data first).
    await database.withStartupLock(async () => {
      const seeded = await seedDemoData(app.db, { log: app.log });
      if (seeded) app.log.info('demo data loaded (admin@demo.test, editor@demo.test, member@demo.test)');
      // Merchants, programs, customers, their ledger, rewards and GDPR requests, once, into a database
      // that has none (unless DEMO_LOYALTY=false).
      if (env.DEMO_LOYALTY) {
        await loadLoyaltyDemo(app.db, { log: app.log, timeZone: env.BUSINESS_TIME_ZONE, ledgerEntries: env.DEMO_LEDGER_ENTRIES });
      }
    });
  }

  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.lifecycle.isDraining = true;
    const forceExit = setTimeout(() => {
      app.log.error('graceful close timed out');
      process.exit(1);
    }, env.SHUTDOWN_DELAY_MS + 10_000);
    forceExit.unref();
    if (env.SHUTDOWN_DELAY_MS > 0) {
      // Readiness already fails; keep serving until the load balancer has noticed. Closing at once
      // would reset a request the balancer sends on a pooled keep-alive connection meanwhile: no
      // HTTP/1.1 server can answer a request that arrives on a connection it is closing.
      app.log.info({ signal, delayMs: env.SHUTDOWN_DELAY_MS }, 'draining: readiness fails, still serving');
      await new Promise((resolve) => setTimeout(resolve, env.SHUTDOWN_DELAY_MS));
    }
    app.log.info({ signal }, 'closing: finishing in-flight requests');
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error while closing');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void close('SIGTERM'));
  process.on('SIGINT', () => void close('SIGINT'));

  await app.listen({ host: env.HOST, port: env.PORT });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

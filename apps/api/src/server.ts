import { loadEnv } from './config/env.ts';
import { openDatabaseFromEnv } from './db/client.ts';
import { buildApp } from './app.ts';
import { seedDemoData } from './db/seed.ts';
import { seedLoyaltyDemo } from './db/seed-loyalty.ts';
import { seedLedgerDemo } from './modules/ledger/ledger.seed.ts';

/**
 * Only starts the app (STYLE.md example 4): configuration, logger, database, listen, and a graceful
 * close on SIGTERM/SIGINT in which in-flight requests finish before the database closes.
 */
async function main() {
  const env = loadEnv();
  const database = await openDatabaseFromEnv(env, {
    onError: (error) => console.error('database pool error', error),
  });
  await database.migrate();
  const app = await buildApp({
    env,
    database,
    logger: {
      level: env.LOG_LEVEL,
      redact: ['req.headers.authorization', 'req.headers["x-auth-token"]', 'req.headers.cookie'],
    },
  });
  if (env.demoData) {
    const seeded = await seedDemoData(app.db, { log: app.log });
    if (seeded) app.log.info('demo data loaded (admin@demo.test, editor@demo.test, member@demo.test)');
    // Merchants, programs and customers, once, into a database that has none.
    const isLoyaltySeeded = await seedLoyaltyDemo(app.db, { log: app.log });
    // Their ledger (~60,000 entries over 18 months), with the demo anagrafiche it belongs to.
    if (isLoyaltySeeded && env.DEMO_LEDGER_ENTRIES > 0) {
      await seedLedgerDemo(app.db, { log: app.log, timeZone: env.BUSINESS_TIME_ZONE, targetEntries: env.DEMO_LEDGER_ENTRIES });
    }
  }

  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'closing: finishing in-flight requests');
    const forceExit = setTimeout(() => {
      app.log.error('graceful close timed out');
      process.exit(1);
    }, 10_000);
    forceExit.unref();
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

import path from 'node:path';
import { z } from 'zod';

/**
 * The one module that reads `process.env` (CONTRIBUTING.md convention 8). Every setting has a safe default for
 * `npm start`; production refuses to start with the development defaults that matter.
 */
const booleanFromString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Where the embedded database, signing keys, uploads and the mail outbox live. */
  DATA_DIR: z.string().default('./data'),
  /** A real PostgreSQL server; without it the embedded one (PGlite) under DATA_DIR is used. */
  DATABASE_URL: z.string().optional(),
  /**
   * A streaming replica of DATABASE_URL: the dashboard, the lists, their exports and the audit list read
   * there (db/read-replica.ts). Needs DATABASE_URL.
   */
  DATABASE_READ_URL: z.string().optional(),
  /** A replica further behind the primary than this is skipped: its reads go to the primary. */
  REPLICA_MAX_LAG_MS: z.coerce.number().int().min(100).max(3_600_000).default(5000),
  /** The public address of the back-office, used in e-mailed links (never the request's Host). */
  APP_URL: z.string().url().default('http://localhost:3000'),
  /** Lifetime of an ID token, in seconds. Short values let tests watch tokens expire. */
  ID_TOKEN_TTL: z.coerce.number().int().min(1).max(86_400).default(3600),
  JWT_ISSUER: z.string().default('social-fidelity-backoffice'),
  JWT_AUDIENCE: z.string().default('social-fidelity-backoffice'),
  /** Private signing key as a JWK (JSON). Without it a key is generated once and kept in DATA_DIR. */
  JWT_PRIVATE_JWK: z.string().optional(),
  /** Secret for the forgery-protection token signatures; generated and kept in DATA_DIR by default. */
  CSRF_SECRET: z.string().min(32).optional(),
  /** smtp(s)://user:pass@host:port — without it e-mail goes to the outbox under DATA_DIR. */
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Social Fidelity <no-reply@social-fidelity.test>'),
  /** Load the demo data when the database is empty (default on, except in production). */
  DEMO_DATA: booleanFromString.optional(),
  /** Identity provider (B1): the built-in one, or Firebase Authentication (decision 023). */
  AUTH_PROVIDER: z.enum(['builtin', 'firebase']).default('builtin'),
  /** AUTH_PROVIDER=firebase: the Firebase project id (`demo-…` ids exist only in the emulator). */
  FIREBASE_PROJECT_ID: z.string().regex(/^[a-z0-9-]{4,40}$/, 'not a Firebase project id').optional(),
  /** AUTH_PROVIDER=firebase: the project's Web API key (Project settings → General), for the REST sign-in and refresh. */
  FIREBASE_API_KEY: z.string().min(1).optional(),
  /** host:port of the Firebase Auth emulator (tests, development); never in production. */
  FIREBASE_AUTH_EMULATOR_HOST: z.string().regex(/^[^\s/:]+:\d{1,5}$/, 'expected host:port').optional(),
  /**
   * AUTH_PROVIDER=firebase on a real project: the service account's key, as the JSON itself or the path
   * of its file (or set GOOGLE_APPLICATION_CREDENTIALS to that path instead).
   */
  FIREBASE_SERVICE_ACCOUNT: z.string().min(1).optional(),
  GOOGLE_APPLICATION_CREDENTIALS: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Comma-separated client addresses exempt from rate limits (benchmarks only). */
  RATE_LIMIT_ALLOW: z.string().default(''),
  /**
   * Behind a reverse proxy: which hops to believe for the client address (`true` for all, or the
   * proxies' comma-separated addresses/CIDRs). Off by default, otherwise lock-out and rate limits would count
   * every client as the proxy — or trust an address any client can forge.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value): boolean | string[] => {
      if (value === 'true' || value === 'false') return value === 'true';
      return value.split(',').map((entry) => entry.trim()).filter(Boolean);
    }),
  /** Requests per minute per client address on the identity endpoints. */
  AUTH_RATE_LIMIT: z.coerce.number().int().min(1).default(30),
  /** How many bytes of uploaded images each user may keep (413 beyond it). */
  UPLOAD_QUOTA_BYTES: z.coerce.number().int().min(1).default(200 * 1024 * 1024),
  /** Serve the built web app from this folder (B6); empty to serve the API only. */
  WEB_DIST: z.string().optional(),
  /**
   * Set by npm to the directory it was run from. Workspace scripts (`npm run staff`, `db:migrate`,
   * `dev`) run inside apps/api, so a relative DATA_DIR is resolved against it: every command reaches
   * the same ./data as `npm start`.
   */
  INIT_CWD: z.string().optional(),
  /** How often scheduled posts are promoted to published, in milliseconds. */
  SCHEDULER_INTERVAL_MS: z.coerce.number().int().min(100).default(15_000),
  /**
   * On SIGTERM, how long to keep serving while /api/readyz already answers 503, before closing. Behind a
   * load balancer set it a little above the balancer's health-check interval: the balancer stops
   * sending before the process stops listening, so no request meets a closing connection.
   */
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(120_000).default(0),
  /** The business time zone: a "day" for stamps caps and points expiry, the tier windows (docs/product.md D). */
  BUSINESS_TIME_ZONE: z
    .string()
    .default('Europe/Rome')
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'not a known IANA time zone'),
  /**
   * With DEMO_DATA: also the loyalty demo (merchants, programs, about 3,000 customers, their ledger,
   * rewards, privacy requests). `false` keeps only the demo staff accounts and news: a start in about
   * a second, for tests that start the real server and need nothing but signing in.
   */
  DEMO_LOYALTY: booleanFromString.default(true),
  /** Ledger entries the demo data gets on a fresh start (about 60,000 over 18 months); 0 for none. */
  DEMO_LEDGER_ENTRIES: z.coerce.number().int().min(0).max(1_000_000).default(60_000),
  /** Requests per minute per API key on the integration API (429 with Retry-After beyond it). */
  INTEGRATION_RATE_LIMIT: z.coerce.number().int().min(1).default(600),
  /**
   * The key under which API key secrets are hashed (HMAC-SHA-256). Without it one is generated once and
   * kept in DATA_DIR; several API processes must share it (set it, or share DATA_DIR).
   */
  API_KEY_PEPPER: z.string().min(32).optional(),
  /**
   * The key from which each card's presence code is derived (HMAC-SHA-256 of the customer's id and
   * code version; decision record 030). Without it one is generated once and kept in DATA_DIR; several
   * API processes must share it (else a card's code differs between them). Replacing it changes every
   * card's code: every card then needs reprinting.
   */
  CARD_CODE_SECRET: z.string().min(32).optional(),
  /** E-mails a campaign sends per minute at most, across every API process (issue 28). */
  CAMPAIGN_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(600_000).default(600),
  /**
   * How long a campaign's sender holds its claim (seconds): a recipient still `sending` this long after
   * its claim belongs to a process that died mid-send and becomes `unknown` (never retried by itself);
   * the SMTP exchange is bounded well below it. Short values only in tests.
   */
  CAMPAIGN_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(60),
  /** How often the background job runner looks for due jobs (points expiry), in milliseconds. */
  JOBS_INTERVAL_MS: z.coerce.number().int().min(100).default(60_000),
  /**
   * The wallet (issue 27, decision record 033). None is required: without them the wallet's endpoints
   * answer 503 wallet_not_configured. Apple: the Pass Type ID and team, the pass certificate, its key
   * (and passphrase) and Apple's WWDR certificate, as paths of PEM files; a file that does not read as
   * what it should stops the start (modules/wallet/wallet-config.ts).
   */
  APPLE_PASS_TYPE_ID: z.string().regex(/^pass\.[A-Za-z0-9.-]+$/, 'expected pass.<reverse domain>').optional(),
  APPLE_TEAM_ID: z.string().regex(/^[A-Z0-9]{10}$/, 'expected the 10-character Apple team id').optional(),
  APPLE_PASS_CERT: z.string().min(1).optional(),
  APPLE_PASS_KEY: z.string().min(1).optional(),
  APPLE_PASS_KEY_PASSPHRASE: z.string().optional(),
  APPLE_WWDR_CERT: z.string().min(1).optional(),
  /** Where pass updates are pushed (HTTP/2, the pass certificate as client certificate). */
  APNS_URL: z.string().url().default('https://api.push.apple.com'),
  /** A PEM file of extra authorities to trust for APNS_URL (a local stand-in in tests, an inspecting proxy). */
  APNS_CA: z.string().min(1).optional(),
  /** Google Wallet: the issuer id and the path of the service account's JSON key. */
  GOOGLE_WALLET_ISSUER_ID: z.string().regex(/^\d{6,25}$/, 'expected the numeric issuer id').optional(),
  GOOGLE_WALLET_SERVICE_ACCOUNT: z.string().min(1).optional(),
  GOOGLE_WALLET_API_URL: z.string().url().default('https://walletobjects.googleapis.com/walletobjects/v1'),
  GOOGLE_OAUTH_TOKEN_URL: z.string().url().default('https://oauth2.googleapis.com/token'),
  /**
   * The key the customers' card links (`APP_URL/c/<token>`) are derived from. Without it one is
   * generated once and kept in DATA_DIR; several API processes must share it.
   */
  CARD_LINK_SECRET: z.string().min(32).optional(),
  /** How often changed memberships are looked for, to update their wallet passes (milliseconds). */
  WALLET_SYNC_INTERVAL_MS: z.coerce.number().int().min(100).default(10_000),
  /** Requests per minute per client address on the public card page and the PassKit web service. */
  CARD_PAGE_RATE_LIMIT: z.coerce.number().int().min(1).default(60),
});

export type Env = z.infer<typeof envSchema> & { isProduction: boolean; demoData: boolean; dataDir: string };

export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const isProduction = env.NODE_ENV === 'production';
  if (isProduction) {
    // The development defaults that would hurt in production: reset links in a local outbox (and no
    // e-mail reaching anyone), and links pointing at http://localhost or over plain http.
    const problems: string[] = [];
    if (!env.SMTP_URL) problems.push('  SMTP_URL: required in production (without it e-mail goes to the local outbox)');
    if (source['APP_URL'] === undefined || new URL(env.APP_URL).protocol !== 'https:') {
      problems.push('  APP_URL: required in production, an https:// address (it is used in e-mailed links)');
    }
    if (problems.length > 0) throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
  }
  if (env.DATABASE_READ_URL && !env.DATABASE_URL) {
    throw new Error('Invalid configuration:\n  DATABASE_READ_URL: needs DATABASE_URL (a replica of a real PostgreSQL; the embedded one has none)');
  }
  const firebaseProblems = env.AUTH_PROVIDER === 'firebase' ? firebaseSettingProblems(env, isProduction) : [];
  if (firebaseProblems.length > 0) throw new Error(`Invalid configuration:\n${firebaseProblems.join('\n')}`);
  return {
    ...env,
    isProduction,
    demoData: env.DEMO_DATA ?? !isProduction,
    dataDir: path.resolve(env.INIT_CWD ?? '.', env.DATA_DIR),
  };
}

/** What AUTH_PROVIDER=firebase needs: a project, and either the emulator or a Web API key and a service account. */
function firebaseSettingProblems(env: z.infer<typeof envSchema>, isProduction: boolean): string[] {
  const problems: string[] = [];
  const why = 'required with AUTH_PROVIDER=firebase';
  if (!env.FIREBASE_PROJECT_ID) problems.push(`  FIREBASE_PROJECT_ID: ${why} (the Firebase project id)`);
  if (env.FIREBASE_AUTH_EMULATOR_HOST) {
    if (isProduction) problems.push('  FIREBASE_AUTH_EMULATOR_HOST: not allowed in production (the emulator accepts unsigned tokens)');
    return problems;
  }
  if (env.FIREBASE_PROJECT_ID?.startsWith('demo-')) {
    problems.push('  FIREBASE_PROJECT_ID: a demo-… project exists only in the emulator: set FIREBASE_AUTH_EMULATOR_HOST');
  }
  if (!env.FIREBASE_API_KEY) problems.push(`  FIREBASE_API_KEY: ${why} on a real project (the Web API key)`);
  if (!env.FIREBASE_SERVICE_ACCOUNT && !env.GOOGLE_APPLICATION_CREDENTIALS) {
    problems.push(`  FIREBASE_SERVICE_ACCOUNT: ${why} on a real project (the service account key: its JSON or the path of its file; or set GOOGLE_APPLICATION_CREDENTIALS)`);
  }
  return problems;
}

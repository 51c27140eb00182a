import path from 'node:path';
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import helmet from 'helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fastifyStatic from '@fastify/static';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { APP_VERSION } from '@sf/contract/app-info';
import type { Env } from './config/env.ts';
import type { Database, DatabaseHandle } from './db/client.ts';
import { createTokenSigner, type TokenSigner } from './identity/token-signer.ts';
import { createMailer, type Mailer } from './lib/mailer.ts';
import { loadOrCreateSecret } from './lib/secrets.ts';
import { databaseRateLimitStore } from './lib/rate-limit-store.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { errorHandlerPlugin } from './plugins/error-handler.ts';
import { languagePlugin } from './plugins/language.ts';
import { inputHygienePlugin } from './plugins/input-hygiene.ts';
import { csrfPlugin } from './plugins/csrf.ts';
import { readReplicaPlugin } from './plugins/read-replica.ts';
import { accessControlPlugin, isApiRoute } from './plugins/access-control.ts';
import { createIntegrationGuard } from './modules/integration/integration-guard.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { staffRoutes } from './modules/staff/staff.routes.ts';
import { invitationAdminRoutes, invitationAuthRoutes } from './modules/staff/invitations.routes.ts';
import { newsRoutes } from './modules/news/news.routes.ts';
import { publicNewsRoutes } from './modules/news/public-news.routes.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { startBackgroundJobs } from './jobs.ts';
import { merchantRoutes } from './modules/merchants/merchants.routes.ts';
import { customerRoutes } from './modules/customers/customers.routes.ts';
import { programRoutes } from './modules/programs/programs.routes.ts';
import { ledgerRoutes } from './modules/ledger/ledger.routes.ts';
import { membershipRoutes } from './modules/ledger/memberships.routes.ts';
import type { IdentityProvider } from './identity/provider.ts';
import { createBuiltinProvider } from './modules/auth/builtin-provider.ts';
import { apiKeyRoutes } from './modules/integration/api-keys.routes.ts';
import { integrationRoutes, INTEGRATION_SECURITY_SCHEME } from './modules/integration/integration.routes.ts';
import { integrationDocs } from './modules/integration/integration-docs.ts';
import { redemptionRoutes, rewardRoutes } from './modules/rewards/rewards.routes.ts';
import { rewardVoucherRoutes, voucherRoutes } from './modules/rewards/vouchers.routes.ts';
import { socialProofRoutes } from './modules/social-proofs/social-proofs.routes.ts';
import { privacyRoutes } from './modules/privacy/privacy.routes.ts';
import { importRoutes } from './modules/imports/imports.routes.ts';
import { cardPageRoutes, walletAdminRoutes, walletPublicRoutes } from './modules/wallet/wallet.routes.ts';
import { loadWalletConfig } from './modules/wallet/wallet-config.ts';
import { campaignRoutes } from './modules/campaigns/campaigns.routes.ts';
import { customerMessageRoutes } from './modules/messages/messages.routes.ts';
import { unsubscribeRoutes } from './modules/messages/unsubscribe.routes.ts';
import { serviceEmailRoutes } from './modules/service-emails/service-emails.routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    env: Env;
    db: Database;
    database: DatabaseHandle;
    tokenSigner: TokenSigner;
    /** The identity provider chosen by AUTH_PROVIDER (B1): built-in or Firebase. */
    identity: IdentityProvider;
    mailer: Mailer;
    clock: Clock;
    /** The key each card's presence code is derived from (CARD_CODE_SECRET; decision record 030). */
    cardCodeSecret: string;
    /** Set once a shutdown has begun: readiness fails, answers ask keep-alive clients to reconnect. */
    lifecycle: { isDraining: boolean };
  }
}

export type AppOptions = {
  env: Env;
  database: DatabaseHandle;
  /** Replaced in tests: a fake clock, an SMTP catcher's mailer. */
  clock?: Clock;
  mailer?: Mailer;
  logger?: FastifyServerOptions['logger'];
  /** The background jobs (the promotion of scheduled posts among them); off in tests that drive them by hand. */
  runScheduler?: boolean;
  /** Sees every route as it is registered, config included (the platform tests enumerate them so). */
  onRoute?: (route: RouteOptions) => void;
  /**
   * Where the rate limits count: `database` (default), shared by every process; `memory`, each process
   * its own (the plugin's store; `npm run bench:integration` measures the difference).
   */
  rateLimitStore?: 'database' | 'memory';
};

export type App = FastifyInstance;

/**
 * The app as a plugin (CONTRIBUTING.md convention 4): external plugins, then our plugins, then the modules.
 * `server.ts` only starts it; tests build it and call `inject()`.
 */
export async function buildApp(options: AppOptions): Promise<App> {
  const { env } = options;
  const app = Fastify({
    logger: options.logger ?? false,
    genReqId: () => randomUUID(),
    // Never trust a client-sent request id: it appears in our logs and error answers.
    requestIdHeader: false,
    trustProxy: env.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
    // On SIGTERM, requests already sent on open connections are served, not refused with Fastify's
    // own 503 (which is not in our error shape); new connections are refused by the closed listener.
    return503OnClosing: false,
    ajv: undefined,
  }).withTypeProvider<ZodTypeProvider>();

  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('env', env);
  app.decorate('database', options.database);
  app.decorate('db', options.database.db);
  app.decorate('clock', options.clock ?? systemClock);
  app.decorate('lifecycle', { isDraining: false });
  app.decorate(
    'tokenSigner',
    await createTokenSigner({
      dataDir: env.dataDir,
      privateJwk: env.JWT_PRIVATE_JWK,
      issuer: env.JWT_ISSUER,
      audience: env.JWT_AUDIENCE,
      ttlSeconds: env.ID_TOKEN_TTL,
    }),
  );
  app.decorate(
    'mailer',
    options.mailer ?? createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, dataDir: env.dataDir, log: app.log }),
  );

  app.addHook('onClose', async () => app.mailer.close?.());

  // Firebase's Admin SDK is loaded only when it is the provider.
  app.decorate(
    'identity',
    env.AUTH_PROVIDER === 'firebase'
      ? (await import('./modules/auth/firebase-provider.ts')).createFirebaseProvider(app)
      : createBuiltinProvider(app),
  );
  app.addHook('onClose', async () => app.identity.close());

  // Form-encoded bodies are taken only where a client sends them (lib/form-bodies.ts): elsewhere a form
  // (curl -d without a Content-Type) is 415, not a 400 about a field named after the whole body.

  // The security headers are the same on every answer: Helmet's middleware is built once here. (The
  // Fastify plugin built it again for every request, parsing the CSP each time: ~18 µs of the API's
  // one thread per request in a CPU profile of the purchase bench.)
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine writes CSS variables in style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
      },
    },
    hsts: env.isProduction ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined)));
  await app.register(cookie);
  // Before the routes: it wraps the handlers of the routes that read on the replica.
  await app.register(readReplicaPlugin);
  // JSON and CSV answers over 1 KiB go out compressed (brotli at a fast quality, or gzip); the web
  // app's files are compressed at build time and served as such (registerWebApp). The plugin runs as
  // each route's last onSend hook, after a route's own (the public feed's ETag sees the plain body).
  // Request bodies are not decompressed: clients send small JSON, and a gzip body is refused as before.
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'], globalDecompression: false });
  // Counted in PostgreSQL, so that a limit holds across API processes (issue 29, lib/rate-limit-store.ts).
  await app.register(rateLimit, {
    ...((options.rateLimitStore ?? 'database') === 'database' ? { store: databaseRateLimitStore(options.database.db) } : {}),
    global: false,
    allowList: env.RATE_LIMIT_ALLOW.split(',').map((entry) => entry.trim()).filter(Boolean),
  });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Social Fidelity back-office API', version: APP_VERSION },
      components: {
        securitySchemes: {
          authToken: { type: 'apiKey', in: 'header', name: 'X-Auth-Token' },
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          integrationKey: INTEGRATION_SECURITY_SCHEME,
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  // The integration API's own document and interactive docs (its paths only, Italian examples).
  await app.register(integrationDocs);

  const webRoot = env.WEB_DIST && existsSync(path.join(env.WEB_DIST, 'index.html')) ? path.resolve(env.WEB_DIST) : null;
  await app.register(errorHandlerPlugin, { spaIndex: webRoot !== null });
  await app.register(languagePlugin);
  await app.register(inputHygienePlugin);
  app.decorate('apiKeyPepper', await loadOrCreateSecret(env.dataDir, 'api-keys', env.API_KEY_PEPPER));
  app.decorate('cardCodeSecret', await loadOrCreateSecret(env.dataDir, 'card-codes', env.CARD_CODE_SECRET));
  app.decorate('cardLinkSecret', await loadOrCreateSecret(env.dataDir, 'card-links', env.CARD_LINK_SECRET));
  // A wallet certificate or key that does not read stops the start here, naming the setting.
  app.decorate('wallet', loadWalletConfig(env));
  await app.register(accessControlPlugin, { checkApiKey: createIntegrationGuard(app) });
  await app.register(csrfPlugin, {
    secret: await loadOrCreateSecret(env.dataDir, 'csrf', env.CSRF_SECRET),
    secureCookie: env.isProduction,
  });

  // While draining and during a graceful close, answers tell keep-alive clients to reconnect (to
  // another instance), so that idle sockets do not hold the close open.
  app.addHook('preClose', async () => {
    app.lifecycle.isDraining = true;
  });

  // Every API answer is personal or live: never cached by browsers or proxies, unless a route says so.
  // Decided by the matched route (isApiRoute), not the URL string; an unmatched request's error
  // answer is not worth caching either (the web app's page fallback sets its own header).
  app.addHook('onSend', async (request, reply) => {
    if (app.lifecycle.isDraining) reply.header('Connection', 'close');
    if ((isApiRoute(request) || request.is404) && !reply.hasHeader('cache-control')) {
      reply.header('Cache-Control', 'no-store');
    }
  });

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(authRoutes, { prefix: '/auth' });
      await api.register(publicNewsRoutes, { prefix: '/public' });
      await api.register(staffRoutes, { prefix: '/admin' });
      await api.register(newsRoutes, { prefix: '/admin/news' });
      await api.register(auditRoutes, { prefix: '/admin/audit' });
      await api.register(dashboardRoutes, { prefix: '/admin/dashboard' });
      await api.register(merchantRoutes, { prefix: '/admin/merchants' });
      await api.register(customerRoutes, { prefix: '/admin/customers' });
      await api.register(programRoutes, { prefix: '/admin/programs' });
      await api.register(ledgerRoutes, { prefix: '/admin/ledger' });
      await api.register(membershipRoutes, { prefix: '/admin/customers' });
      await api.register(invitationAdminRoutes, { prefix: '/admin/staff/invitations' });
      await api.register(invitationAuthRoutes, { prefix: '/auth/invitation' });
      await api.register(apiKeyRoutes, { prefix: '/admin/api-keys' });
      await api.register(integrationRoutes, { prefix: '/integration/v1' });
      await api.register(rewardRoutes, { prefix: '/admin/rewards' });
      await api.register(rewardVoucherRoutes, { prefix: '/admin/rewards' });
      await api.register(redemptionRoutes, { prefix: '/admin/redemptions' });
      await api.register(voucherRoutes, { prefix: '/admin/vouchers' });
      await api.register(socialProofRoutes, { prefix: '/admin/social-proofs' });
      await api.register(privacyRoutes, { prefix: '/admin/privacy-requests' });
      await api.register(importRoutes, { prefix: '/admin/imports' });
      await api.register(walletAdminRoutes, { prefix: '/admin' });
      await api.register(walletPublicRoutes, { prefix: '/wallet' });
      await api.register(campaignRoutes, { prefix: '/admin/campaigns' });
      await api.register(customerMessageRoutes, { prefix: '/admin/customers' });
      await api.register(serviceEmailRoutes, { prefix: '/admin/programs' });
    },
    { prefix: '/api' },
  );
  // The unsubscribe links of our e-mails (issue 28): short, outside /api, public, keyed by their token.
  await app.register(unsubscribeRoutes, { prefix: '/u' });

  // The customer's card page (issue 27): outside /api, server-rendered, no web app needed.
  await app.register(cardPageRoutes);

  if (webRoot) await registerWebApp(app, webRoot);

  if (options.runScheduler ?? true) {
    const jobs = startBackgroundJobs(app);
    app.addHook('onClose', async () => jobs.stop());
  }

  return app;
}

/**
 * B6: the built web app and the API on one port. Client-side routes fall back to index.html in the
 * not-found handler (error-handler.ts), so that unknown /api paths still answer 404/405 in JSON.
 */
async function registerWebApp(app: App, root: string) {
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    wildcard: false,
    index: false,
    // Vite writes `name.br` and `name.gz` next to each file (vite.config.ts): sent to browsers that
    // accept them, with Content-Encoding, instead of compressing the same bytes on every request.
    preCompressed: true,
    // `send`'s own Cache-Control (`public, max-age=0`) goes into the reply's headers, which Fastify
    // writes over those setHeaders put on the raw response: turned off, so the choice below holds.
    cacheControl: false,
    // Hashed assets never change; index.html and the other unhashed files always revalidate.
    setHeaders: (res, filePath) => {
      res.setHeader('Cache-Control', isHashedAsset(root, filePath) ? 'public, max-age=31536000, immutable' : 'no-cache');
      // A cache must keep the brotli, gzip and plain copies apart.
      res.setHeader('Vary', 'Accept-Encoding');
    },
  });
}

/** Vite puts the content-hashed build output under `assets/`; everything else keeps its name. */
function isHashedAsset(root: string, filePath: string): boolean {
  return path.relative(root, filePath).startsWith(`assets${path.sep}`);
}

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorText } from '@sf/contract/error-texts';
import {
  cardEmailSentSchema,
  cardLinkSchema,
  cardTokenParamsSchema,
  deviceRegistrationsParamsSchema,
  googleWalletLinkSchema,
  membershipIdParamSchema,
  passLogBodySchema,
  passParamsSchema,
  passRegistrationParamsSchema,
  pushTokenBodySchema,
  updatedSerialsQuerySchema,
  updatedSerialsSchema,
  walletStatusSchema,
} from '@sf/contract/wallet';
import { callerOf, tracedCallerOf } from '../../lib/caller.ts';
import { APPLE_SETTINGS, GOOGLE_SETTINGS } from './wallet-config.ts';
import { renderCardNotFound } from './card-page.ts';
import {
  applePass,
  applePassForCard,
  cardPageHtml,
  emailCardLink,
  getCardLink,
  googleSaveUrl,
  googleSaveUrlForCard,
  latestPass,
  programLogo,
  regenerateCardLink,
  registerDevice,
  unregisterDevice,
  updatedSerials,
  walletDepsOf,
} from './wallet.service.ts';

const PKPASS = 'application/vnd.apple.pkpass';
const TAGS = ['wallet'];

/** Staff: `/api/admin/memberships/:id/…` and `/api/admin/wallet/status`. */
export const walletAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = walletDepsOf(app);

  app.get(
    '/wallet/status',
    {
      config: { permission: 'customers:read' },
      schema: { tags: TAGS, summary: 'Which wallets are configured (the buttons are disabled with the text of the others)', response: { 200: walletStatusSchema } },
    },
    async (request) => {
      const state = (isConfigured: boolean, wallet: string, settings: readonly string[]) => ({
        isConfigured,
        message: isConfigured ? null : errorText('wallet_not_configured', request.language, { wallet, settings: settings.join(', ') }),
      });
      return {
        apple: state(app.wallet.apple !== null, 'Apple Wallet', APPLE_SETTINGS),
        google: state(app.wallet.google !== null, 'Google Wallet', GOOGLE_SETTINGS),
      };
    },
  );

  app.get(
    '/memberships/:id/card-link',
    {
      config: { permission: 'customers:read' },
      schema: { tags: TAGS, summary: "The customer's card page link (APP_URL/c/<token>), made on first use", params: membershipIdParamSchema, response: { 200: cardLinkSchema } },
    },
    async (request) => getCardLink(deps, callerOf(request), request.params.id),
  );

  app.post(
    '/memberships/:id/card-link',
    {
      config: { permission: 'customers:write' },
      schema: { tags: TAGS, summary: 'Regenerate the card link: the old one answers 404 at once', params: membershipIdParamSchema, response: { 200: cardLinkSchema } },
    },
    async (request) => regenerateCardLink(deps, callerOf(request), request.params.id),
  );

  app.post(
    '/memberships/:id/card-link/email',
    {
      config: { permission: 'customers:write' },
      schema: {
        tags: TAGS,
        summary: "Send the card link to the customer's e-mail (a service e-mail: needs the service consent)",
        params: membershipIdParamSchema,
        response: { 200: cardEmailSentSchema },
      },
    },
    async (request) => emailCardLink({ ...deps, mailer: app.mailer }, tracedCallerOf(request), request.params.id),
  );

  app.get(
    '/memberships/:id/pass.pkpass',
    {
      config: { permission: 'customers:read' },
      schema: { tags: TAGS, summary: 'The Apple Wallet pass (application/vnd.apple.pkpass); 503 wallet_not_configured without the Apple settings', params: membershipIdParamSchema },
    },
    async (request, reply) => {
      const body = await applePass(deps, request.params.id);
      return reply.type(PKPASS).header('content-disposition', 'attachment; filename="tessera.pkpass"').send(body);
    },
  );

  app.get(
    '/memberships/:id/google-wallet',
    {
      config: { permission: 'customers:read' },
      schema: { tags: TAGS, summary: 'The "Save to Google Wallet" link; 503 wallet_not_configured without the Google settings', params: membershipIdParamSchema, response: { 200: googleWalletLinkSchema } },
    },
    async (request) => googleSaveUrl(deps, request.params.id),
  );
};

/**
 * Apple's PassKit web service (`/api/wallet/apple/v1`, the `webServiceURL` of every pass) and the
 * programs' public logos. The device proves itself with the pass's `Authorization: ApplePass <token>`.
 */
export const walletPublicRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = walletDepsOf(app);
  const device = { access: 'public' as const, walletDevice: true as const, rateLimit: { max: app.env.CARD_PAGE_RATE_LIMIT * 5, timeWindow: '1 minute' } };
  const registration = '/apple/v1/devices/:deviceLibraryIdentifier/registrations/:passTypeIdentifier/:serialNumber';

  app.post(
    registration,
    { config: device, schema: { tags: TAGS, summary: 'PassKit: register a device for a pass (201 new, 200 known, 401 wrong token)', params: passRegistrationParamsSchema, body: pushTokenBodySchema } },
    async (request, reply) => {
      const status = await registerDevice(deps, {
        ...request.params,
        passTypeId: request.params.passTypeIdentifier,
        deviceLibraryId: request.params.deviceLibraryIdentifier,
        authorization: request.headers.authorization,
        pushToken: request.body.pushToken,
      });
      return reply.code(status).send();
    },
  );

  app.delete(
    registration,
    { config: device, schema: { tags: TAGS, summary: 'PassKit: unregister a device', params: passRegistrationParamsSchema } },
    async (request, reply) => {
      await unregisterDevice(deps, {
        passTypeId: request.params.passTypeIdentifier,
        deviceLibraryId: request.params.deviceLibraryIdentifier,
        serialNumber: request.params.serialNumber,
        authorization: request.headers.authorization,
      });
      return reply.code(200).send();
    },
  );

  app.get(
    '/apple/v1/devices/:deviceLibraryIdentifier/registrations/:passTypeIdentifier',
    {
      config: device,
      schema: {
        tags: TAGS,
        summary: "PassKit: the device's passes updated since a tag (204 none)",
        params: deviceRegistrationsParamsSchema,
        querystring: updatedSerialsQuerySchema,
        response: { 200: updatedSerialsSchema, 204: z.undefined() },
      },
    },
    async (request, reply) => {
      const answer = await updatedSerials(deps, request.params.passTypeIdentifier, request.params.deviceLibraryIdentifier, request.query.passesUpdatedSince);
      return answer ? answer : reply.code(204).send();
    },
  );

  app.get(
    '/apple/v1/passes/:passTypeIdentifier/:serialNumber',
    { config: device, schema: { tags: TAGS, summary: 'PassKit: the latest pass (Last-Modified; 304 on If-Modified-Since)', params: passParamsSchema } },
    async (request, reply) => {
      const answer = await latestPass(deps, {
        passTypeId: request.params.passTypeIdentifier,
        serialNumber: request.params.serialNumber,
        authorization: request.headers.authorization,
        ifModifiedSince: request.headers['if-modified-since'],
      });
      if (answer === 'not_modified') return reply.code(304).send();
      return reply.type(PKPASS).header('last-modified', answer.lastModified.toUTCString()).send(answer.body);
    },
  );

  app.post(
    '/apple/v1/log',
    { config: device, schema: { tags: TAGS, summary: "PassKit: the devices' error messages (logged)", body: passLogBodySchema } },
    async (request, reply) => {
      for (const line of request.body.logs) request.log.warn({ passkit: line.slice(0, 500) }, 'PassKit device log');
      return reply.code(200).send();
    },
  );

  app.get(
    '/programs/:id/logo.png',
    {
      config: { access: 'public', setsCsrfCookie: false },
      schema: { tags: TAGS, summary: "A program's logo, as on its passes (a plain square of its colour when it has none)", params: membershipIdParamSchema },
    },
    async (request, reply) => {
      const logo = await programLogo(deps, request.params.id);
      return reply.type('image/png').header('cache-control', 'public, max-age=3600').send(logo);
    },
  );
};

/**
 * The customer's card page, `APP_URL/c/<token>`: public, no JavaScript, rate-limited per address (a
 * token cannot be guessed, and trying costs a request each), never indexed nor cached, no cookie.
 */
export const cardPageRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = walletDepsOf(app);
  const page = { access: 'public' as const, setsCsrfCookie: false as const, rateLimit: { max: app.env.CARD_PAGE_RATE_LIMIT, timeWindow: '1 minute' } };
  const privateHeaders = { 'cache-control': 'no-store', 'x-robots-tag': 'noindex, nofollow', 'referrer-policy': 'no-referrer' };

  app.get('/c/:token', { config: page, schema: { hide: true, params: cardTokenParamsSchema } }, async (request, reply) => {
    const html = await cardPageHtml(deps, request.params.token, request.language);
    return reply
      .code(html ? 200 : 404)
      .headers({ ...privateHeaders, 'content-language': request.language, vary: 'Accept-Language' })
      .type('text/html; charset=utf-8')
      .send(html ?? renderCardNotFound(request.language));
  });

  app.get('/c/:token/pass.pkpass', { config: page, schema: { hide: true, params: cardTokenParamsSchema } }, async (request, reply) => {
    const body = await applePassForCard(deps, request.params.token);
    if (!body) return reply.code(404).headers(privateHeaders).type('text/html; charset=utf-8').send(renderCardNotFound(request.language));
    return reply.headers(privateHeaders).type(PKPASS).send(body);
  });

  app.get('/c/:token/google-wallet', { config: page, schema: { hide: true, params: cardTokenParamsSchema } }, async (request, reply) => {
    const url = await googleSaveUrlForCard(deps, request.params.token);
    if (!url) return reply.code(404).headers(privateHeaders).type('text/html; charset=utf-8').send(renderCardNotFound(request.language));
    return reply.headers(privateHeaders).redirect(url, 303);
  });
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  forgotPasswordRequestSchema,
  loginRequestSchema,
  signInResponseSchema,
  logoutRequestSchema,
  registerRequestSchema,
  registerResponseSchema,
  resetPasswordRequestSchema,
  tokenRequestSchema,
  tokenResponseSchema,
} from '@sf/contract/auth';
import { okResponseSchema } from '@sf/contract/common';
import { isStaffRole } from '@sf/contract/roles';
import { toStaffUser } from '../../identity/accounts.ts';
import { publicCallerOf } from '../../lib/caller.ts';
import { acceptFormBodies } from '../../lib/form-bodies.ts';
import { createAfterReply } from './after-reply.ts';
import { confirmEmailRequestSchema } from '@sf/contract/email-confirmation';

const jwksResponseSchema = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });

/**
 * The identity endpoints (B1, S18), answered by the provider AUTH_PROVIDER chose (`app.identity`). Public by nature, and the favourite target of guessing:
 * every route is rate limited per client address (429 with Retry-After), on top of the per-account
 * lock-out of the sign-in.
 */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const afterReply = createAfterReply(app);

  const limited = { access: 'public' as const, rateLimit: { max: app.env.AUTH_RATE_LIMIT, timeWindow: '1 minute' } };
  const tags = ['auth'];

  app.post(
    '/login',
    {
      config: limited,
      schema: { tags, summary: 'Sign in with e-mail and password', body: loginRequestSchema, response: { 200: signInResponseSchema } },
    },
    async (request, reply) => {
      const answer = await app.identity.login(request.body, publicCallerOf(request));
      reply.bindCsrfToSession(app.identity.sessionIdOf(answer.idToken));
      // The account as the guard reads it for user-by-token (S4): the app would otherwise ask for it at
      // once, one more round trip between the submit and the signed-in screen (issue 32).
      const { account } = await app.identity.authenticate(answer.idToken, { checkRevoked: false });
      return isStaffRole(account.role) ? { ...answer, user: toStaffUser(account) } : answer;
    },
  );

  app.post(
    '/',
    {
      config: limited,
      schema: {
        tags,
        summary: 'Register an account (no role until an admin grants one)',
        body: registerRequestSchema,
        response: { 201: registerResponseSchema },
      },
    },
    async (request, reply) => {
      const answer = await app.identity.register(request.body, publicCallerOf(request), afterReply);
      return reply.status(201).send(answer);
    },
  );

  app.post(
    '/confirm-email',
    {
      config: limited,
      schema: {
        tags,
        summary: 'Confirm the address of a self-registered account with the link of its e-mail (single use)',
        body: confirmEmailRequestSchema,
        response: { 200: okResponseSchema },
      },
    },
    async (request) => app.identity.confirmEmail(request.body, publicCallerOf(request)),
  );

  app.post(
    '/forgot-password',
    {
      config: limited,
      schema: {
        tags,
        summary: 'E-mail a password reset link (same answer for any address)',
        body: forgotPasswordRequestSchema,
        response: { 200: okResponseSchema },
      },
    },
    async (request) => app.identity.forgotPassword(request.body, publicCallerOf(request), afterReply),
  );

  app.post(
    '/reset-password',
    {
      config: limited,
      schema: {
        tags,
        summary: 'Set a new password with a reset token; ends every session of the account',
        body: resetPasswordRequestSchema,
        response: { 200: okResponseSchema },
      },
    },
    async (request) => app.identity.resetPassword(request.body, publicCallerOf(request)),
  );

  // The one route here that takes a form besides JSON (OAuth clients send them so): a scope of its own,
  // so that a form sent to the other identity endpoints is answered 415.
  const tokenRoute: FastifyPluginAsyncZod = async (scope) => {
    acceptFormBodies(scope);
    scope.post(
      '/token',
      {
        config: limited,
        schema: {
          tags,
          summary: 'Secure-token endpoint: exchange a refresh token (form-encoded or JSON)',
          body: tokenRequestSchema,
          response: { 200: tokenResponseSchema },
        },
      },
      async (request, reply) => {
        const answer = await app.identity.refresh(request.body.refresh_token, publicCallerOf(request));
        reply.bindCsrfToSession(app.identity.sessionIdOf(answer.id_token));
        return answer;
      },
    );
  };
  await app.register(tokenRoute);

  app.post(
    '/logout',
    {
      config: limited,
      schema: { tags, summary: 'End the session of a refresh token', body: logoutRequestSchema, response: { 200: okResponseSchema } },
    },
    async (request) => app.identity.logout(request.body.refreshToken, publicCallerOf(request)),
  );

  app.get(
    '/jwks.json',
    {
      config: limited,
      schema: { tags, summary: 'Public keys that verify our ID tokens', response: { 200: jwksResponseSchema } },
    },
    async (_request, reply) => {
      // Verifiers (other services checking our ID tokens) may cache the keys for a while.
      reply.header('Cache-Control', 'public, max-age=300');
      return app.tokenSigner.jwks;
    },
  );
};

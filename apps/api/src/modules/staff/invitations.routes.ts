import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loginResponseSchema } from '@sf/contract/auth';
import { uuidParamSchema } from '@sf/contract/list-query';
import {
  acceptInvitationRequestSchema,
  createInvitationRequestSchema,
  exportInvitationsQuerySchema,
  invitationDetailsSchema,
  invitationPageSchema,
  invitationTokenRequestSchema,
  listInvitationsQuerySchema,
  staffInvitationSchema,
} from '@sf/contract/staff-invitations';
import {
  acceptInvitation,
  createInvitation,
  invitationDetails,
  listInvitations,
  resendInvitation,
  revokeInvitation,
  invitationsExport,
  type InvitationDeps,
  type Inviter,
} from './invitations.service.ts';
import { registerListRoutes } from '../../lib/list-routes.ts';
import { callerOf, depsOf, publicCallerOf, tracedCallerOf } from '../../lib/caller.ts';

function invitationDeps(app: FastifyInstance): InvitationDeps {
  return { ...depsOf(app), mailer: app.mailer, appUrl: app.env.APP_URL, tokenSigner: app.tokenSigner, identity: app.identity };
}

/** The signed-in admin who invites, by the name the e-mail gives them. */
function inviterOf(request: FastifyRequest): Inviter {
  return { ...tracedCallerOf(request), displayName: request.account?.displayName ?? '' };
}

/** Admins invite staff by e-mail (issue 11): the open invitations, invite, resend, revoke. */
export const invitationAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['staff'];
  const deps = invitationDeps(app);

  registerListRoutes(app, {
    tags,
    permission: 'staff:manage',
    list: {
      summary: 'Open invitations (not used, not revoked; expired ones included)',
      querystring: listInvitationsQuerySchema,
      response: invitationPageSchema,
      page: ({ query }) => listInvitations(deps, query),
    },
    export: { summary: 'The open invitations as CSV for Italian Excel', querystring: exportInvitationsQuerySchema, prepare: ({ query, request }) => invitationsExport(deps, query, request.language) },
  });

  app.post(
    '/',
    {
      config: { permission: 'staff:manage' },
      schema: {
        tags,
        summary: 'Invite someone with a staff role: e-mails a single-use link valid 7 days; 409 account_exists for a confirmed account',
        body: createInvitationRequestSchema,
        response: { 201: staffInvitationSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await createInvitation(deps, inviterOf(request), request.body)),
  );

  app.post(
    '/:id/resend',
    {
      config: { permission: 'staff:manage' },
      schema: { tags, summary: 'E-mail a new link (the previous one stops working) valid 7 more days', params: uuidParamSchema, response: { 200: staffInvitationSchema } },
    },
    async (request) => resendInvitation(deps, inviterOf(request), request.params.id),
  );

  app.delete(
    '/:id',
    {
      config: { permission: 'staff:manage' },
      schema: { tags, summary: 'Revoke an open invitation: its link stops working', params: uuidParamSchema, response: { 204: z.null().describe('Revoked') } },
    },
    async (request, reply) => {
      await revokeInvitation(deps, callerOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};

/**
 * The invitee's side, public like the other identity routes and rate limited the same way per client
 * address. The token travels in the body, never in a URL the logs keep.
 */
export const invitationAuthRoutes: FastifyPluginAsyncZod = async (app) => {
  const limited = { access: 'public' as const, rateLimit: { max: app.env.AUTH_RATE_LIMIT, timeWindow: '1 minute' } };
  const tags = ['auth'];
  const deps = invitationDeps(app);

  app.post(
    '/details',
    {
      config: limited,
      schema: {
        tags,
        summary: 'What an invitation link is for (address, name, role); 400 invalid_invitation_token for any link that cannot be used',
        body: invitationTokenRequestSchema,
        response: { 200: invitationDetailsSchema },
      },
    },
    async (request) => invitationDetails(deps, request.body.token),
  );

  app.post(
    '/accept',
    {
      config: limited,
      schema: {
        tags,
        summary: 'Accept an invitation: set name and password, get signed in with the invited role',
        body: acceptInvitationRequestSchema,
        response: { 200: loginResponseSchema },
      },
    },
    async (request, reply) => {
      const answer = await acceptInvitation(deps, publicCallerOf(request), request.body);
      reply.bindCsrfToSession(app.identity.sessionIdOf(answer.idToken));
      return answer;
    },
  );
};

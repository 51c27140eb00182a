import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changePasswordRequestSchema,
  changePasswordResponseSchema,
  staffUserSchema,
  userByTokenQuerySchema,
  userByTokenResponseSchema,
} from '@sf/contract/auth';
import { updateProfileRequestSchema } from '@sf/contract/profile';
import { exportStaffQuerySchema, listStaffQuerySchema, staffAccountSchema, staffIdParamSchema, staffPageSchema, updateStaffRequestSchema } from '@sf/contract/staff';
import { unauthenticated } from '../../lib/errors.ts';
import { toStaffUser } from '../../identity/accounts.ts';
import { changeOwnPassword, currentAccount, updateOwnProfile, type SelfDeps } from './self.service.ts';
import { listStaff, staffExport, updateStaff, type StaffAdminDeps } from './staff-admin.service.ts';
import { registerListRoutes } from '../../lib/list-routes.ts';
import { callerOf, depsOf, tracedCallerOf } from '../../lib/caller.ts';

/**
 * The signed-in staff member's own account (S3, S4 and the profile dialog), and the admins' view of
 * every account: approve self-registered accounts by granting a role, change roles, disable (B7).
 */
export const staffRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['staff'];
  const deps = depsOf(app);
  const selfDeps: SelfDeps = { ...deps, tokenSigner: app.tokenSigner, identity: app.identity };
  const adminDeps: StaffAdminDeps = { ...deps, identity: app.identity };

  app.get(
    '/user-by-token',
    {
      config: { permission: 'self:read' },
      schema: {
        tags,
        summary: 'S4: the staff member a token belongs to',
        querystring: userByTokenQuerySchema,
        response: { 200: userByTokenResponseSchema },
      },
    },
    async (request) => {
      // The guard verified the header's token; a different one in the query is not ours to vouch for.
      if (request.query.token !== undefined && request.query.token !== request.idToken) {
        throw unauthenticated('invalid_token', 'token_mismatch');
      }
      return { payload: toStaffUser(await currentAccount(deps, callerOf(request), request.account)) };
    },
  );

  app.get(
    '/me',
    {
      config: { permission: 'self:read' },
      schema: { tags, summary: 'Own account and profile', response: { 200: staffUserSchema } },
    },
    async (request) => toStaffUser(await currentAccount(deps, callerOf(request), request.account)),
  );

  app.patch(
    '/me',
    {
      config: { permission: 'self:update' },
      schema: { tags, summary: 'Update own profile', body: updateProfileRequestSchema, response: { 200: staffUserSchema } },
    },
    async (request) => updateOwnProfile(deps, callerOf(request), request.body),
  );

  app.post(
    '/me/password',
    {
      // Rate limited: a stolen ID token must not become a way to guess the current password.
      config: { permission: 'self:update', rateLimit: { max: app.env.AUTH_RATE_LIMIT, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary: 'Change own password; ends every session and answers with a fresh sign-in',
        body: changePasswordRequestSchema,
        response: { 200: changePasswordResponseSchema },
      },
    },
    async (request, reply) => {
      const answer = await changeOwnPassword(selfDeps, tracedCallerOf(request), request.body, request.account);
      // Every other session ended; the new one gets its own forgery-protection cookie.
      reply.bindCsrfToSession(app.identity.sessionIdOf(answer.idToken));
      return answer;
    },
  );

  registerListRoutes(app, {
    path: '/staff',
    tags,
    permission: 'staff:manage',
    list: { summary: 'List accounts (filter by text, role or status)', querystring: listStaffQuerySchema, response: staffPageSchema, page: ({ query }) => listStaff(deps, query) },
    export: { summary: 'The accounts as CSV for Italian Excel, with the same filters', querystring: exportStaffQuerySchema, prepare: ({ query, request }) => staffExport(deps, query, request.language) },
  });

  app.patch(
    '/staff/:id',
    {
      config: { permission: 'staff:manage' },
      schema: {
        tags,
        summary: "Change another account's role or status; disabling ends its sessions",
        params: staffIdParamSchema,
        body: updateStaffRequestSchema,
        response: { 200: staffAccountSchema },
      },
    },
    async (request) => updateStaff(adminDeps, callerOf(request), request.params.id, request.body),
  );
};

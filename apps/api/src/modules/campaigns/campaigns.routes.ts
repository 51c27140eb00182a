import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { uuidParamSchema } from '@sf/contract/list-query';
import {
  audienceAnswerSchema,
  campaignAudienceQuerySchema,
  campaignPageSchema,
  campaignSchema,
  createCampaignSchema,
  exportCampaignsQuerySchema,
  listCampaignsQuerySchema,
  sendCampaignSchema,
  testSendAnswerSchema,
  updateCampaignSchema,
} from '@sf/contract/campaigns';
import { callerOf, tracedCallerOf } from '../../lib/caller.ts';
import { registerListRoutes } from '../../lib/list-routes.ts';
import { campaignDepsOf } from './campaigns.deps.ts';
import { campaignExportColumns, campaignExportQuery } from './campaigns.repository.ts';
import {
  cancelCampaign,
  createCampaign,
  getCampaign,
  listCampaigns,
  previewAudience,
  sendCampaign,
  sendTestMessage,
  updateCampaign,
} from './campaigns.service.ts';

/** Campagne (admins): e-mail campaigns to customers who consented to marketing (issue 28). */
export const campaignRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = campaignDepsOf(app);

  registerListRoutes(app, {
    tags: ['campaigns'],
    permission: 'campaigns:read',
    list: {
      summary: 'List campaigns, each with its report counts: paging, sort (name, status, date, recipients, sent; newest first by default), search in the name, filter status',
      querystring: listCampaignsQuerySchema,
      response: campaignPageSchema,
      page: ({ query }) => listCampaigns(deps, query),
    },
    export: {
      summary: 'The list as CSV for Italian Excel (`;`, BOM, dd/MM/yyyy), with its report counts, the same search, filter and sort',
      querystring: exportCampaignsQuerySchema,
      fileName: 'campagne.csv',
      prepare: ({ query, request }) => {
        const columns = campaignExportColumns(request.language, deps.timeZone);
        return { columns, query: () => campaignExportQuery(columns, query) };
      },
    },
  });

  app.get(
    '/audience',
    {
      config: { permission: 'campaigns:read' },
      schema: {
        tags: ['campaigns'],
        summary: 'How many customers the filters reach, and five of them. Always applied: marketing consent now, no processing block, active, an e-mail address',
        querystring: campaignAudienceQuerySchema,
        response: { 200: audienceAnswerSchema },
      },
    },
    async (request) => previewAudience(deps, request.query),
  );

  app.post(
    '/',
    {
      config: { permission: 'campaigns:write' },
      schema: { tags: ['campaigns'], summary: 'Create a draft campaign (the body is sanitised as a news post\'s)', body: createCampaignSchema, response: { 201: campaignSchema } },
    },
    async (request, reply) => reply.code(201).send(await createCampaign(deps, callerOf(request), request.body)),
  );

  app.get(
    '/:id',
    {
      config: { permission: 'campaigns:read' },
      schema: { tags: ['campaigns'], summary: 'One campaign with its report: recipients, queued, sent, failed, skipped, unknown, unsubscribed', params: uuidParamSchema, response: { 200: campaignSchema } },
    },
    async (request) => getCampaign(deps, request.params.id),
  );

  app.patch(
    '/:id',
    {
      config: { permission: 'campaigns:write' },
      schema: { tags: ['campaigns'], summary: 'Change a draft; `version` as read (409 version_conflict)', params: uuidParamSchema, body: updateCampaignSchema, response: { 200: campaignSchema } },
    },
    async (request) => updateCampaign(deps, callerOf(request), request.params.id, request.body),
  );

  app.post(
    '/:id/test',
    {
      config: { permission: 'campaigns:write' },
      schema: { tags: ['campaigns'], summary: 'Send a test copy to the signed-in staff member\'s own address; 503 mail_unavailable when the mail server cannot be reached', params: uuidParamSchema, response: { 200: testSendAnswerSchema } },
    },
    async (request) => {
      const user = request.user as NonNullable<typeof request.user>;
      return sendTestMessage(deps, { ...tracedCallerOf(request), displayName: user.displayName }, request.params.id);
    },
  );

  app.post(
    '/:id/send',
    {
      config: { permission: 'campaigns:write' },
      schema: {
        tags: ['campaigns'],
        summary: 'Send now (the audience of this moment is queued, one row per recipient) or at `scheduledAt`',
        params: uuidParamSchema,
        body: sendCampaignSchema,
        response: { 200: campaignSchema },
      },
    },
    async (request) => sendCampaign(deps, callerOf(request), request.params.id, request.body),
  );

  app.post(
    '/:id/cancel',
    {
      config: { permission: 'campaigns:write' },
      schema: { tags: ['campaigns'], summary: 'Stop a scheduled or sending campaign: recipients still waiting are skipped', params: uuidParamSchema, response: { 200: campaignSchema } },
    },
    async (request) => cancelCampaign(deps, callerOf(request), request.params.id),
  );
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { uuidParamSchema } from '@sf/contract/list-query';
import {
  previewServiceEmailSchema,
  serviceEmailKindParamSchema,
  serviceEmailPreviewSchema,
  serviceEmailSettingSchema,
  serviceEmailSettingsSchema,
  updateServiceEmailSchema,
} from '@sf/contract/service-emails';
import { callerOf } from '../../lib/caller.ts';
import { walletDepsOf } from '../wallet/wallet.service.ts';
import { listServiceEmails, previewServiceEmail, saveServiceEmail } from './service-emails.service.ts';

/** A program's "Messaggi automatici" (issue 28): the four service e-mails, on or off, their texts, a preview. */
export const serviceEmailRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = walletDepsOf(app);

  app.get(
    '/:id/service-emails',
    {
      config: { permission: 'programs:read' },
      schema: {
        tags: ['programs'],
        summary: "The program's service e-mails (welcome, voucher, birthday, expiring points): on or off, subject and text in Italian and English (the defaults until edited)",
        params: uuidParamSchema,
        response: { 200: serviceEmailSettingsSchema },
      },
    },
    async (request) => listServiceEmails(deps, callerOf(request), request.params.id),
  );

  app.put(
    '/:id/service-emails/:kind',
    {
      config: { permission: 'programs:write' },
      schema: {
        tags: ['programs'],
        summary: 'Switch a service e-mail on or off and edit its texts; an unknown {{placeholder}} is refused naming the field (`version`: the one read, 0 for the defaults)',
        params: serviceEmailKindParamSchema,
        body: updateServiceEmailSchema,
        response: { 200: serviceEmailSettingSchema },
      },
    },
    async (request) => saveServiceEmail(deps, callerOf(request), request.params.id, request.params.kind, request.body),
  );

  app.post(
    '/:id/service-emails/:kind/preview',
    {
      config: { permission: 'programs:write' },
      schema: {
        tags: ['programs'],
        summary: "A service e-mail's texts (as typed, saved or not) rendered with a real customer's values: subject, HTML and plain text. Nothing is sent",
        params: serviceEmailKindParamSchema,
        body: previewServiceEmailSchema,
        response: { 200: serviceEmailPreviewSchema },
      },
    },
    async (request) => previewServiceEmail(deps, callerOf(request), request.params.id, request.body),
  );
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { uuidParamSchema } from '@sf/contract/list-query';
import { customerMessagesSchema } from '@sf/contract/campaigns';
import { depsOf } from '../../lib/caller.ts';
import { customerMessages } from './message-log.service.ts';

/** The messages sent to a customer (the customer page's "Messaggi" panel). */
export const customerMessageRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = depsOf(app);
  app.get(
    '/:id/messages',
    {
      config: { permission: 'customers:read' },
      schema: {
        tags: ['customers'],
        summary: 'The e-mails sent to the customer (campaigns), newest first, with their outcome; no opens or clicks are tracked',
        params: uuidParamSchema,
        response: { 200: customerMessagesSchema },
      },
    },
    async (request) => customerMessages(deps, request.params.id),
  );
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { customerIdParamSchema, customerMembershipsSchema } from '@sf/contract/ledger';
import { customerMemberships } from './ledger.service.ts';
import { depsOf } from '../../lib/caller.ts';

/** A customer's memberships: balance, stamps, tier and "N points expire on D". */
export const membershipRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/:id/memberships',
    {
      config: { permission: 'ledger:read' },
      schema: {
        tags: ['ledger'],
        summary: "A customer's memberships with balance, stamps, tier, points in the tier window and expiring points",
        params: customerIdParamSchema,
        response: { 200: customerMembershipsSchema },
      },
    },
    async (request) => customerMemberships(depsOf(app), request.params.id),
  );
};

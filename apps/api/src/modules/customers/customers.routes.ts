import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { uuidParamSchema } from '@sf/contract/list-query';
import {
  consentHistorySchema,
  createCustomerSchema,
  customerPageSchema,
  customerSchema,
  exportCustomersQuerySchema,
  listCustomersQuerySchema,
  recordConsentSchema,
  updateCustomerSchema,
} from '@sf/contract/customers';
import { customerCardSchema } from '@sf/contract/customer-cards';
import { callerOf, depsOf } from '../../lib/caller.ts';
import { customerCard, regenerateCardCode } from './customer-cards.service.ts';
import { registerListRoutes } from '../../lib/list-routes.ts';
import { customerExportColumns, customerExportQuery } from './customers.repository.ts';
import {
  CUSTOMER_ENTITY,
  createCustomer,
  getCustomer,
  listConsentHistory,
  listCustomers,
  recordConsent,
  updateCustomer,
} from './customers.service.ts';

/** Clienti (admin): list, export, create, edit, block/unblock, consents and their history. */
export const customerRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = depsOf(app);
  const cardDeps = { ...deps, cardCodeSecret: app.cardCodeSecret };

  registerListRoutes(app, {
    tags: ['customers'],
    permission: 'customers:read',
    list: {
      summary: 'List customers: q (name, e-mail, phone, card number, referral code), status, programId, tier, marketingConsent',
      description: 'The total stops at 10,000 (`totalIsCapped`). One or two characters in q match the start of the surname.',
      querystring: listCustomersQuerySchema,
      response: customerPageSchema,
      page: ({ query }) => listCustomers(deps, query),
    },
    export: {
      summary: 'The list as CSV for Italian Excel, with its search, filters and sort; the export is audited (B5)',
      querystring: exportCustomersQuerySchema,
      fileName: 'clienti.csv',
      prepare: ({ query, request }) => {
        const columns = customerExportColumns(request.language, deps.timeZone);
        return { columns, query: (tx) => customerExportQuery(tx, columns, query) };
      },
      auditEntity: CUSTOMER_ENTITY,
    },
  });

  app.post(
    '/',
    {
      config: { permission: 'customers:write' },
      schema: {
        tags: ['customers'],
        summary: 'Create a customer: a card number and a referral code are issued; consents per purpose; referrerCode',
        body: createCustomerSchema,
        response: { 201: customerSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await createCustomer(deps, callerOf(request), request.body)),
  );

  app.get(
    '/:id',
    {
      config: { permission: 'customers:read' },
      schema: {
        tags: ['customers'],
        summary: 'One customer with the current consents (the read is audited)',
        params: uuidParamSchema,
        response: { 200: customerSchema },
      },
    },
    async (request) => getCustomer(deps, callerOf(request), request.params.id),
  );

  app.patch(
    '/:id',
    {
      config: { permission: 'customers:write' },
      schema: {
        tags: ['customers'],
        summary: 'Change a customer, or block/unblock through status; `version` as read (409 version_conflict)',
        params: uuidParamSchema,
        body: updateCustomerSchema,
        response: { 200: customerSchema },
      },
    },
    async (request) => updateCustomer(deps, callerOf(request), request.params.id, request.body),
  );

  app.post(
    '/:id/consents',
    {
      config: { permission: 'customers:write' },
      schema: {
        tags: ['customers'],
        summary: 'Record a grant or withdrawal of a consent (a new history entry); answers the customer',
        params: uuidParamSchema,
        body: recordConsentSchema,
        response: { 201: customerSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await recordConsent(deps, callerOf(request), request.params.id, request.body)),
  );

  app.get(
    '/:id/consents',
    {
      config: { permission: 'customers:read' },
      schema: {
        tags: ['customers'],
        summary: "The customer's consent history, newest first",
        params: uuidParamSchema,
        response: { 200: consentHistorySchema },
      },
    },
    async (request) => listConsentHistory(deps, callerOf(request), request.params.id),
  );

  app.get(
    '/:id/card',
    {
      config: { permission: 'customers:read' },
      schema: {
        tags: ['customers'],
        summary: "The customer's card: number, secret card code and what its QR code and barcode encode (`<number>-<code>`, decision 030)",
        params: uuidParamSchema,
        response: { 200: customerCardSchema },
      },
    },
    async (request) => customerCard(cardDeps, request.params.id),
  );

  app.post(
    '/:id/card-code',
    {
      config: { permission: 'customers:write' },
      schema: {
        tags: ['customers'],
        summary: 'A new card code (lost or copied card): the old code stops working at once; the card needs reprinting. Audited',
        params: uuidParamSchema,
        response: { 200: customerCardSchema },
      },
    },
    async (request) => regenerateCardCode(cardDeps, callerOf(request), request.params.id),
  );
};

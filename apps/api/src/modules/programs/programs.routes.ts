import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { uuidParamSchema } from '@sf/contract/list-query';
import {
  createProgramSchema,
  exportProgramsQuerySchema,
  listProgramsQuerySchema,
  programPageSchema,
  programSchema,
  updateProgramSchema,
} from '@sf/contract/programs';
import { callerOf, depsOf } from '../../lib/caller.ts';
import { registerListRoutes } from '../../lib/list-routes.ts';
import { programExportColumns, programExportQuery } from './programs.repository.ts';
import { createProgram, getProgram, listPrograms, updateProgram } from './programs.service.ts';

/** Programmi fedeltà (admin): points or stamps, merchants of the circuit, tiers, expiry, bonuses. */
export const programRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = depsOf(app);

  registerListRoutes(app, {
    tags: ['programs'],
    permission: 'programs:read',
    list: {
      summary: 'List programs: paging, sort, search by name, filters status/type/merchantId',
      querystring: listProgramsQuerySchema,
      response: programPageSchema,
      page: ({ query }) => listPrograms(deps, query),
    },
    export: {
      summary: 'The list as CSV for Italian Excel, with its search, filters and sort',
      querystring: exportProgramsQuerySchema,
      fileName: 'programmi.csv',
      prepare: ({ query, request }) => {
        const columns = programExportColumns(request.language, deps.timeZone);
        return { columns, query: (tx) => programExportQuery(tx, columns, query) };
      },
    },
  });

  app.post(
    '/',
    {
      config: { permission: 'programs:write' },
      schema: { tags: ['programs'], summary: 'Create a program', body: createProgramSchema, response: { 201: programSchema } },
    },
    async (request, reply) => reply.code(201).send(await createProgram(deps, callerOf(request), request.body)),
  );

  app.get(
    '/:id',
    {
      config: { permission: 'programs:read' },
      schema: { tags: ['programs'], summary: 'One program', params: uuidParamSchema, response: { 200: programSchema } },
    },
    async (request) => getProgram(deps, callerOf(request), request.params.id),
  );

  app.patch(
    '/:id',
    {
      config: { permission: 'programs:write' },
      schema: {
        tags: ['programs'],
        summary: 'Change a program (status: draft / active / closed); `version` as read (409 version_conflict)',
        params: uuidParamSchema,
        body: updateProgramSchema,
        response: { 200: programSchema },
      },
    },
    async (request) => updateProgram(deps, callerOf(request), request.params.id, request.body),
  );
};

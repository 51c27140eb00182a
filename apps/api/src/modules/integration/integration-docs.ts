import { createRequire } from 'node:module';
import type { FastifyPluginAsync, FastifyPluginCallback } from 'fastify';
import { INTEGRATION_DOCS_PREFIX, integrationSpecification } from './integration.routes.ts';

/**
 * The integration API's interactive docs beside /api/docs. @fastify/swagger-ui decorates the app
 * once per process, so a second registration of the plugin is refused; its route module (the page,
 * its static files and the JSON/YAML document) is registered a second time instead, with the
 * document cut down to /api/integration/v1 (integrationSpecification).
 *
 * The route module must be given its `prefix` itself, as the plugin gives it: the page links its
 * scripts and styles as `<prefix>/static/…` when asked without a trailing slash, and a prefix given
 * only to an enclosing `register` left them at `undefined/static/…` (a blank page at the address the
 * Chiavi API screen shows). So this plugin is registered without one.
 */
const require = createRequire(import.meta.url);
const swaggerUiRoutes = require('@fastify/swagger-ui/lib/routes.js') as FastifyPluginCallback<Record<string, unknown>>;

export const integrationDocs: FastifyPluginAsync = async (app) => {
  await app.register(swaggerUiRoutes, {
    prefix: INTEGRATION_DOCS_PREFIX,
    staticCSP: true,
    uiConfig: {},
    initOAuth: {},
    theme: {},
    transformSpecification: integrationSpecification,
    transformSpecificationClone: true,
  });
};

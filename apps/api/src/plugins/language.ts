import fp from 'fastify-plugin';
import type { Language } from '@sf/contract/app-info';
import { languageFromHeader } from '@sf/contract/messages';

declare module 'fastify' {
  interface FastifyRequest {
    /** The answer's language, from Accept-Language; Italian by default (S13). */
    language: Language;
  }
}

export const languagePlugin = fp(async (app) => {
  app.decorateRequest('language', 'it');
  app.addHook('onRequest', async (request) => {
    request.language = languageFromHeader(request.headers['accept-language']);
  });
});

import type { FastifyInstance } from 'fastify';

/**
 * Lets the routes of this plugin scope take `application/x-www-form-urlencoded` bodies, as an object
 * of strings. Only for the endpoints whose clients send forms: the secure-token endpoint (OAuth
 * clients, S10's refresh) and the unsubscribe link (RFC 8058's one-click POST, the page's own form).
 * Every other route takes JSON, and a form there is answered 415 (error-handler.ts).
 */
export function acceptFormBodies(scope: FastifyInstance): void {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
}

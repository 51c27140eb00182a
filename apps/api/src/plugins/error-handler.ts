import fp from 'fastify-plugin';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { issueField, issueMessage } from '@sf/contract/validation';
import { message } from '@sf/contract/messages';
import { errorText } from '@sf/contract/error-texts';
import type { FieldError } from '@sf/contract/errors';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/unavailable.ts';
import { AppError } from '../lib/errors.ts';

const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

function send(reply: FastifyReply, request: FastifyRequest, status: number, body: { code: string; message: string; fields?: FieldError[] }) {
  return reply.status(status).send({ error: { ...body, requestId: request.id } });
}

/**
 * One error shape for everything (S19): `{ error: { code, message, fields?, requestId } }`.
 * 5xx answers carry a code and the request id, never a stack or SQL.
 */
export const errorHandlerPlugin = fp<{ spaIndex: boolean }>(async (app, options) => {
  // A shadow router of every declared path, so that an unknown method on a known path answers 405
  // with `Allow` instead of 404.
  const knownPaths = FindMyWay({ ignoreTrailingSlash: true });
  app.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]) as HTTPMethod[];
    for (const method of methods) {
      try {
        knownPaths.on(method, route.url, () => undefined);
      } catch {
        // The same path registered twice (e.g. HEAD added automatically) is fine.
      }
    }
  });

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    // `/api` and `/api/…` are the API's; a page whose address merely starts with the letters (`/api-keys`) is not.
    const isPageRequest = (request.method === 'GET' || request.method === 'HEAD') && path !== '/api' && !path.startsWith('/api/');
    if (options.spaIndex && isPageRequest) {
      // Client-side routes (/news, /auth/login, /error/404...) are the web app's to resolve.
      return reply.header('Cache-Control', 'no-cache').type('text/html').sendFile('index.html');
    }
    const allowed = METHODS.filter((method) => knownPaths.find(method, path) !== null);
    if (allowed.length > 0) {
      reply.header('Allow', allowed.join(', '));
      return send(reply, request, 405, {
        code: 'method_not_allowed',
        message: errorText('method_not_allowed', request.language, { method: request.method }),
      });
    }
    return send(reply, request, 404, { code: 'route_not_found', message: errorText('route_not_found', request.language, { method: request.method, path }) });
  });

  app.setErrorHandler(async (raised: FastifyError, request, reply) => {
    // A route that reads the caller's account in its own first batch (decision 028) may fail before
    // that batch: the guard's 401 or 403, once checked, wins over the route's own error.
    const error = ((await request.pendingAccountCheck?.failure()) ?? raised) as FastifyError;
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields = error.validation.map((item) => {
        // The type provider reshapes each zod issue (keyword, instancePath, params); rebuild the issue.
        const issue = {
          ...item.params,
          code: item.keyword,
          path: item.instancePath.split('/').filter(Boolean),
          message: item.message,
        };
        return { field: issueField(issue as never), message: issueMessage(issue as never, request.language) };
      });
      return send(reply, request, 400, {
        code: 'validation',
        message: fields[0]?.message ?? message('fieldInvalid', request.language),
        fields,
      });
    }
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      // Translated here, once, in the caller's language (the throw site gave a code and parameters).
      return send(reply, request, error.statusCode, { code: error.code, ...error.render(request.language) });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return send(reply, request, 500, { code: 'internal', message: errorText('internal', request.language) });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return send(reply, request, 429, { code: 'rate_limited', message: errorText('rate_limited', request.language) });
    }
    if (status === 413 || error.code === 'FST_REQ_FILE_TOO_LARGE') {
      return send(reply, request, 413, { code: 'payload_too_large', message: errorText('payload_too_large', request.language) });
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      // No parser for this body's type in the route's scope: JSON always has one, so say to send that
      // (a curl -d without -H sends a form, which only the token and unsubscribe endpoints take).
      const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().slice(0, 100) || '—';
      return send(reply, request, 415, { code: 'unsupported_media_type', message: errorText('json_required', request.language, { type }) });
    }
    if (status === 415) {
      return send(reply, request, 415, { code: 'unsupported_media_type', message: errorText('unsupported_media_type', request.language) });
    }
    if (status >= 400 && status < 500) {
      // Body parser and similar client errors: say what is wrong without internals.
      const safe = error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code?.startsWith('FST_ERR_CTP') ? 'body_invalid' : 'request_invalid';
      return send(reply, request, status, { code: 'validation', message: errorText(safe, request.language) });
    }
    if (isDatabaseUnavailable(error)) {
      // Not the request's fault nor a bug: the same request may well succeed shortly (issue 12).
      request.log.error({ err: error }, 'database unavailable');
      reply.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      return send(reply, request, 503, { code: 'unavailable', message: errorText('unavailable', request.language) });
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(reply, request, 500, { code: 'internal', message: errorText('internal', request.language) });
  });
});

import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/** Query parameters whose values grant access (ID tokens in S4's user-by-token, reset and confirmation links). */
const SECRET_PARAMETER = /token|secret|password|passwd|code|key|sig|auth/i;

/**
 * The request URL as it may be logged: the path, and the query with the value of every parameter
 * that could carry a secret replaced by `[redacted]`. Works for origin-form (`/a?b`) and
 * absolute-form (`http://host/a?b`) request lines alike.
 */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const path = url.slice(0, queryStart);
  const parts = url
    .slice(queryStart + 1)
    .split('&')
    .map((part) => {
      const separator = part.indexOf('=');
      const rawName = separator === -1 ? part : part.slice(0, separator);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // A malformed escape: judge the raw name.
      }
      return separator !== -1 && SECRET_PARAMETER.test(name) ? `${rawName}=[redacted]` : part;
    });
  return `${path}?${parts.join('&')}`;
}

/**
 * The server's logger: the request line with secrets redacted (never a full URL with a bearer token
 * or a reset link in it), and the credentials headers censored should a serializer ever add them.
 */
export function loggerOptions(level: string): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level,
    redact: ['req.headers.authorization', 'req.headers["x-auth-token"]', 'req.headers.cookie'],
    serializers: {
      req(request: FastifyRequest) {
        return {
          method: request.method,
          url: redactUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        };
      },
    },
  };
}

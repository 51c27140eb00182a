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
  if (queryStart === -1) return redactPath(url);
  const path = redactPath(url.slice(0, queryStart));
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
 * A card's presence code in a path (the integration API's `GET /cards/<number>-<code>`, decision
 * record 030): the number stays, the code does not.
 */
function redactPath(path: string): string {
  return path.replace(/(\/cards\/\d{13})(-|%2[dD])[A-Za-z0-9]{10}/g, '$1-[redacted]');
}

/** Quoted text in a message or in SQL (a literal, a value PostgreSQL echoes back): replaced by `…`. */
function maskQuoted(text: string): string {
  return text.replace(/'(?:[^']|'')*'/g, "'…'").replace(/"[^"]*"/g, '"…"');
}

/** Fields of an error that say what failed without saying with which data (PostgreSQL's among them). */
const SAFE_ERROR_FIELDS = ['code', 'statusCode', 'constraint', 'table', 'column', 'schema', 'routine', 'severity', 'lines'] as const;

/**
 * An error as the log may keep it: type, message and stack with quoted text masked, and only the
 * fields that carry no row contents. Never a failing statement's parameters (a Drizzle error's
 * `params`, the values in its message), PostgreSQL's `detail` ("Key (email)=(…) already exists") or
 * a CSV parser's record: a log is no place for personal data (issue 30).
 */
export function errorForLog(error: unknown, depth = 0): Record<string, unknown> {
  if (!(error instanceof Error) && (typeof error !== 'object' || error === null)) return { message: maskQuoted(String(error)) };
  const value = error as Error & Record<string, unknown>;
  // A Drizzle query error: "Failed query: <sql>\nparams: <values>" — the values go.
  const message = maskQuoted(String(value.message ?? '').replace(/\nparams:[\s\S]*$/, ''));
  const result: Record<string, unknown> = { type: value.name ?? value.constructor?.name, message };
  if (typeof value.stack === 'string') {
    // The stack's first lines repeat the message: only the frames are kept.
    result['stack'] = [`${result['type']}: ${message}`, ...value.stack.split('\n').filter((line) => /^\s+at /.test(line))].join('\n');
  }
  for (const field of SAFE_ERROR_FIELDS) {
    const fieldValue = value[field];
    if (typeof fieldValue === 'string' || typeof fieldValue === 'number') result[field] = fieldValue;
  }
  if (value.cause !== undefined && depth < 3) result['cause'] = errorForLog(value.cause, depth + 1);
  return result;
}

/**
 * The server's logger: the request line with secrets redacted (never a full URL with a bearer token,
 * a reset link or a card code in it), errors without the data they failed on (errorForLog), and the
 * credentials headers censored should a serializer ever add them.
 */
export function loggerOptions(level: string): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level,
    redact: ['req.headers.authorization', 'req.headers["x-auth-token"]', 'req.headers.cookie'],
    serializers: {
      err: (error: unknown) => errorForLog(error) as { type: string; message: string; stack: string },
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

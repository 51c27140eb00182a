/**
 * Whether an error means "the database cannot be reached right now" (server down, restarting, out of
 * connection slots, network cut) rather than a fault in the request or in our code. Such a request may
 * succeed if sent again shortly, so it is answered 503 with Retry-After, not 500 (issue 12).
 *
 * The drivers wrap errors (Drizzle's query error keeps the driver's as `cause`), so the whole cause
 * chain is inspected.
 */
/** Seconds a client should wait before sending a request again while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/** SQLSTATEs: class 08 (connection exception), 57P01–57P03 (shutdown, crash, not yet accepting), 53300 (too many connections). */
function isUnavailableSqlState(code: string): boolean {
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300';
}

/** node-postgres reports a lost or never-made connection with these messages and no code. */
const DRIVER_MESSAGES = ['Connection terminated', 'timeout exceeded when trying to connect', 'Client has encountered a connection error'];

export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || (/^[0-9A-Z]{5}$/.test(code) && isUnavailableSqlState(code)))) return true;
    if (current instanceof AggregateError && current.errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    if (DRIVER_MESSAGES.some((text) => current instanceof Error && current.message.startsWith(text))) return true;
    current = current.cause;
  }
  return false;
}

import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { ledgerErrorMessage } from '@sf/contract/ledger';
import type { Database, Transaction } from '../../db/client.ts';
import { CodedError } from '../../lib/errors.ts';

/**
 * Idempotent requests (PRODUCT.md D; decision record 011):
 * - the answer is stored in the same transaction as the change, so "done" and "stored" are one fact;
 * - a request in flight holds a transaction-scoped advisory lock on its key, so its twin gets 409
 *   at once, and a crash (which ends the transaction) leaves no key stuck "in flight";
 * - the same key with another request body gets 422.
 */
export type StoredAnswer = { status: number; body: unknown };

export function requestHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** A signed 64-bit lock id for pg_try_advisory_xact_lock (collisions: 1 in 2^64). */
function lockIdOf(scope: string, key: string): string {
  return createHash('sha256').update(`${scope}\u0000${key}`).digest().readBigInt64BE(0).toString();
}

const isUniqueViolation = (error: unknown): boolean => {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  return (cause as { code?: string })?.code === '23505';
};

export async function runIdempotent(
  db: Database,
  request: { scope: string; key: string; hash: string },
  work: (tx: Transaction) => Promise<StoredAnswer>,
): Promise<StoredAnswer & { isReplay: boolean }> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await db.transaction(async (tx) => {
        // One round trip: take the key's lock and read its stored answer (read only when the lock was
        // granted). The statement's snapshot predates the lock, so a twin that committed in between is
        // not seen: our answer's insert then fails on the primary key and the retry below reads it.
        const lockId = lockIdOf(request.scope, request.key);
        const result = (await tx.execute(
          sql`select locked.ok, stored.request_hash, stored.response_status, stored.response_body
              from (select pg_try_advisory_xact_lock(${lockId}::bigint) as ok) as locked
              left join lateral (
                select request_hash, response_status, response_body from idempotency_records
                where locked.ok and scope = ${request.scope} and key = ${request.key}
              ) as stored on true`,
        )) as unknown as {
          rows: { ok: boolean; request_hash: string | null; response_status: number; response_body: unknown }[];
        };
        if (!result.rows[0]?.ok) {
          throw new CodedError(409, 'idempotency_key_in_flight', (language) => ({
            message: ledgerErrorMessage('idempotency_key_in_flight', language),
          }), { 'Retry-After': '1' });
        }
        const stored = result.rows[0].request_hash === null ? undefined : result.rows[0];
        if (stored) {
          if (stored.request_hash !== request.hash) {
            throw new CodedError(422, 'idempotency_key_reused', (language) => ({
              message: ledgerErrorMessage('idempotency_key_reused', language),
            }));
          }
          const body = typeof stored.response_body === 'string' ? JSON.parse(stored.response_body) : stored.response_body;
          return { status: stored.response_status, body, isReplay: true };
        }
        const answer = await work(tx);
        await tx.execute(
          sql`insert into idempotency_records (scope, key, request_hash, response_status, response_body)
              values (${request.scope}, ${request.key}, ${request.hash}, ${answer.status}, ${JSON.stringify(answer.body)}::jsonb)`,
        );
        return { ...answer, isReplay: false };
      });
    } catch (error) {
      // The twin committed after our snapshot and before our lock (its lock is released at commit), so
      // we did its work again and hit a unique key: its answer record's, or its entry's (source, key).
      // Nothing of ours was written (the transaction rolled back): run again, which replays its answer.
      if (attempt < 2 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

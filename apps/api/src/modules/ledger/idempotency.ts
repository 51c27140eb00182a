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

const isUniqueViolation = (error: unknown, constraint: string): boolean => {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  const e = cause as { code?: string; constraint?: string };
  return e?.code === '23505' && (e.constraint === undefined || e.constraint === constraint);
};

export async function runIdempotent(
  db: Database,
  request: { scope: string; key: string; hash: string },
  work: (tx: Transaction) => Promise<StoredAnswer>,
): Promise<StoredAnswer & { isReplay: boolean }> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await db.transaction(async (tx) => {
        const lockId = lockIdOf(request.scope, request.key);
        const locked = (await tx.execute(sql`select pg_try_advisory_xact_lock(${lockId}::bigint) as ok`)) as unknown as {
          rows: { ok: boolean }[];
        };
        if (!locked.rows[0]?.ok) {
          throw new CodedError(409, 'idempotency_key_in_flight', (language) => ({
            message: ledgerErrorMessage('idempotency_key_in_flight', language),
          }), { 'Retry-After': '1' });
        }
        const previous = (await tx.execute(
          sql`select request_hash, response_status, response_body from idempotency_records
              where scope = ${request.scope} and key = ${request.key}`,
        )) as unknown as { rows: { request_hash: string; response_status: number; response_body: unknown }[] };
        const stored = previous.rows[0];
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
      // The twin committed between our lock and our read (its lock is released at commit): read again.
      if (attempt < 2 && isUniqueViolation(error, 'idempotency_records_pkey')) continue;
      throw error;
    }
  }
}

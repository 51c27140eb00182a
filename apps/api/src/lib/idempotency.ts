import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database, Transaction } from '../db/client.ts';
import { StatementShape, type BoundStatement } from '../db/statement-shape.ts';
import { AppError } from './errors.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';

/**
 * Idempotent requests (docs/product.md D; decision record 011):
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
export function lockIdOf(scope: string, key: string): string {
  return createHash('sha256').update(`${scope}\u0000${key}`).digest().readBigInt64BE(0).toString();
}

export type IdempotentRequest = { scope: string; key: string; hash: string };

/**
 * One statement: take the key's lock and read its stored answer (read only when the lock was granted).
 * The statement's snapshot predates the lock, so a twin that committed in between is not seen: our
 * answer's insert then fails on the primary key and `retryingTwinCommits` runs us again, which reads it.
 */
export function claimKeyStatement(request: IdempotentRequest, lockId: string = lockIdOf(request.scope, request.key)): BoundStatement {
  return claimKeyShape.with({ lockId, scope: request.scope, key: request.key });
}

const claimKeyShape = new StatementShape<'lockId' | 'scope' | 'key'>(
  (p) => sql`select locked.ok, stored.request_hash, stored.response_status, stored.response_body
              from (select pg_try_advisory_xact_lock(${p('lockId')}::bigint) as ok) as locked
              left join lateral (
                select request_hash, response_status, response_body from idempotency_records
                where locked.ok and scope = ${p('scope')} and key = ${p('key')}
              ) as stored on true`,
);

/**
 * The claim's answer: nothing stored (go on), or the stored answer of the same request; 409 while a
 * twin holds the key, 422 for another request under the same key.
 */
export function storedAnswerOf(row: Record<string, unknown> | undefined, request: IdempotentRequest): StoredAnswer | null {
  if (!row?.['ok']) {
    throw new AppError(409, 'idempotency_key_in_flight', { headers: { 'Retry-After': '1' } });
  }
  if (row['request_hash'] === null || row['request_hash'] === undefined) return null;
  if (row['request_hash'] !== request.hash) {
    throw new AppError(422, 'idempotency_key_reused');
  }
  const body = row['response_body'];
  return { status: Number(row['response_status']), body: typeof body === 'string' ? JSON.parse(body) : body };
}

/**
 * Runs `attempt` again when it failed on a unique key: the twin committed after our snapshot and
 * before our lock (its lock is released at commit), so we did its work again and hit its answer
 * record's key, or its entry's (source, key). Nothing of ours was written (the transaction rolled
 * back): the next attempt replays its answer.
 */
export async function retryingTwinCommits<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 0; ; tries += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (tries < 2 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

export async function runIdempotent(
  db: Database,
  request: IdempotentRequest,
  work: (tx: Transaction) => Promise<StoredAnswer>,
): Promise<StoredAnswer & { isReplay: boolean }> {
  return retryingTwinCommits(() =>
    db.transaction(async (tx) => {
      const result = (await tx.execute(claimKeyStatement(request))) as unknown as { rows: Record<string, unknown>[] };
      const stored = storedAnswerOf(result.rows[0], request);
      if (stored) return { ...stored, isReplay: true };
      const answer = await work(tx);
      await tx.execute(
        sql`insert into idempotency_records (scope, key, request_hash, response_status, response_body)
            values (${request.scope}, ${request.key}, ${request.hash}, ${answer.status}, ${JSON.stringify(answer.body)}::jsonb)`,
      );
      return { ...answer, isReplay: false };
    }),
  );
}

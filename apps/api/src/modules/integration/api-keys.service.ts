import { createHmac, randomBytes } from 'node:crypto';
import { API_KEY_PREFIX, type ApiKeyScope, type CreateApiKey, type ListApiKeysQuery } from '@sf/contract/integration';
import type { Database, Executor } from '../../db/client.ts';
import { recordAudit } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import type { Clock } from '../../lib/clock.ts';
import { fieldError, notFound, validationFailed } from '../../lib/errors.ts';
import * as repo from './api-keys.repository.ts';

export type ApiKeyDeps = { db: Database; clock: Clock; timeZone: string; pepper: string };

/** The key a request authenticated with (set by access control on integration routes). */
export type IntegrationKey = { id: string; name: string; kind: 'merchant' | 'app'; merchantId: string | null; scopes: ApiKeyScope[]; prefix: string };

/**
 * Secrets are 32 random bytes: a keyed fast hash (HMAC-SHA-256 under a server-side pepper) is enough
 * and costs microseconds per request; a slow password hash would only slow every till down, since
 * nobody can guess 256 random bits (docs/security.md, decision record 017).
 */
export function hashSecret(pepper: string, secret: string): string {
  return createHmac('sha256', pepper).update(secret).digest('base64url');
}

const apiKeyNotFound = () => notFound('apiKey');

export async function listApiKeys(deps: ApiKeyDeps, query: ListApiKeysQuery) {
  const { rows, total } = await repo.findApiKeys(deps.db, query);
  return {
    items: rows.map((row) => repo.toApiKey(row.key, row.merchantName, row.createdBy)),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** Creates a key; the answer carries the secret, which is never stored nor shown again. */
export async function createApiKey(deps: ApiKeyDeps, caller: Caller, input: CreateApiKey) {
  if (input.merchantId !== undefined) {
    // A key acts only while its merchant is active (the guard checks it on every request too).
    const status = await repo.merchantStatus(deps.db, input.merchantId);
    if (status === null) throw fieldError('merchantId');
    // Said as such: "not valid" would not tell the admin that the merchant exists but cannot take part.
    if (status !== 'active') throw validationFailed([{ field: 'merchantId', text: 'key_merchant_not_active' }]);
  }
  const secret = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const scopes = [...new Set(input.scopes)];
  return deps.db.transaction(async (tx) => {
    const row = await repo.insertApiKey(tx, {
      name: input.name,
      kind: input.kind,
      merchantId: input.merchantId ?? null,
      scopes,
      secretHash: hashSecret(deps.pepper, secret),
      prefix: secret.slice(0, API_KEY_PREFIX.length + 6),
      createdBy: caller.userId,
      createdAt: deps.clock.now(),
    });
    await recordAudit(tx, caller.actor, {
      action: 'apiKey.create',
      entityType: 'api_key',
      entityId: row.id,
      after: { name: row.name, kind: row.kind, merchantId: row.merchantId, scopes: row.scopes, prefix: row.prefix },
    });
    const found = await repo.findApiKey(tx, row.id);
    return { key: repo.toApiKey(row, found?.merchantName ?? null, found?.createdBy ?? null), secret };
  });
}

/** Revokes a key at once: its next request gets 401. Revoking a revoked key answers it as it is. */
export async function revokeApiKey(deps: ApiKeyDeps, caller: Caller, id: string) {
  return deps.db.transaction(async (tx) => {
    const revoked = await repo.revokeApiKey(tx, id, deps.clock.now());
    if (revoked) {
      await recordAudit(tx, caller.actor, {
        action: 'apiKey.revoke',
        entityType: 'api_key',
        entityId: id,
        after: { revokedAt: revoked.revokedAt?.toISOString() },
      });
    }
    const found = await repo.findApiKey(tx, id);
    if (!found) throw apiKeyNotFound();
    return repo.toApiKey(found.key, found.merchantName, found.createdBy);
  });
}

/**
 * The live key behind a bearer secret, with its merchant's status (null for the app's key), or null;
 * records the use (at most one write a minute).
 */
export async function authenticateApiKey(deps: ApiKeyDeps, secret: string): Promise<(IntegrationKey & { merchantStatus: string | null }) | null> {
  if (!secret.startsWith(API_KEY_PREFIX) || secret.length > 200) return null;
  const row = await repo.findLiveKeyByHash(deps.db, hashSecret(deps.pepper, secret));
  if (!row) return null;
  const now = deps.clock.now();
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= 60_000) await repo.touchApiKey(deps.db, row.id, now);
  return { id: row.id, name: row.name, kind: row.kind, merchantId: row.merchantId, scopes: row.scopes, prefix: row.prefix, merchantStatus: row.merchantStatus };
}

/** For the audit list: these API keys' names in one query. */
export function apiKeyNames(executor: Executor, ids: string[]): Promise<Map<string, string>> {
  return repo.apiKeyNamesByIds(executor, ids);
}

import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { SESSION_LIFETIME_MS } from '@sf/contract/app-info';
import type { Database, Executor } from '../db/client.ts';
import { refreshTokens, sessions } from '../db/schema.ts';
import { hashOpaqueToken, newOpaqueToken } from './opaque-tokens.ts';

export type RevokeReason = 'logout' | 'reuse' | 'password_reset' | 'password_change' | 'disabled';

/** A sign-in: a session (the refresh-token family) that dies 10 days later whatever its use (S2). */
export async function createSession(
  executor: Executor,
  userId: string,
  now: Date,
): Promise<{ sessionId: string; refreshToken: string }> {
  const [session] = await executor
    .insert(sessions)
    .values({ userId, createdAt: now, expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS) })
    .returning({ id: sessions.id });
  if (!session) throw new Error('session insert returned no row');
  const refreshToken = await issueRefreshToken(executor, session.id, now);
  return { sessionId: session.id, refreshToken };
}

async function issueRefreshToken(executor: Executor, sessionId: string, now: Date): Promise<string> {
  const { token, hash } = newOpaqueToken();
  await executor.insert(refreshTokens).values({ tokenHash: hash, sessionId, createdAt: now });
  return token;
}

export type RotationResult =
  | { ok: true; userId: string; sessionId: string; refreshToken: string }
  | { ok: false; reason: 'unknown' | 'reused' | 'revoked' | 'expired' };

/**
 * Uses a refresh token once and issues its successor. The conditional UPDATE is the lock: of two
 * requests racing with the same token only one sees `used_at IS NULL`; the other finds it used and is
 * treated as a replay, which revokes the family (a stolen token and its owner cannot both go on).
 */
export async function rotateRefreshToken(db: Database, token: string, now: Date): Promise<RotationResult> {
  const tokenHash = hashOpaqueToken(token);
  const result = await db.transaction(async (tx): Promise<RotationResult> => {
    const [claimed] = await tx
      .update(refreshTokens)
      .set({ usedAt: now })
      .where(and(eq(refreshTokens.tokenHash, tokenHash), isNull(refreshTokens.usedAt)))
      .returning({ sessionId: refreshTokens.sessionId });
    if (!claimed) {
      const [known] = await tx
        .select({ sessionId: refreshTokens.sessionId })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, tokenHash))
        .limit(1);
      if (!known) return { ok: false, reason: 'unknown' };
      await revokeSession(tx, known.sessionId, now, 'reuse');
      return { ok: false, reason: 'reused' };
    }
    const [session] = await tx.select().from(sessions).where(eq(sessions.id, claimed.sessionId)).limit(1);
    if (!session || session.revokedAt) return { ok: false, reason: 'revoked' };
    if (session.expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
    const refreshToken = await issueRefreshToken(tx, session.id, now);
    return { ok: true, userId: session.userId, sessionId: session.id, refreshToken };
  });
  return result;
}

/** The session a refresh token (used or not) belongs to. */
export async function sessionOfRefreshToken(executor: Executor, token: string): Promise<string | undefined> {
  const [row] = await executor
    .select({ sessionId: refreshTokens.sessionId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashOpaqueToken(token)))
    .limit(1);
  return row?.sessionId;
}

export async function revokeSession(executor: Executor, sessionId: string, now: Date, reason: RevokeReason) {
  await executor
    .update(sessions)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** Revokes every live session of an account, but for `exceptSessionId` when given. Returns how many. */
export async function revokeUserSessions(
  executor: Executor,
  userId: string,
  now: Date,
  reason: RevokeReason,
  exceptSessionId?: string,
): Promise<number> {
  const revoked = await executor
    .update(sessions)
    .set({ revokedAt: now, revokedReason: reason })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
        exceptSessionId ? ne(sessions.id, exceptSessionId) : sql`true`,
      ),
    )
    .returning({ id: sessions.id });
  return revoked.length;
}

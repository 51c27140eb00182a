import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
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

/**
 * Two tabs of one browser share the stored session and may refresh at once with the same token. Within
 * this window after a token was used, presenting it again yields the SAME successor (as long as that
 * successor is still unused) instead of counting as a replay. Outside it, reuse detection is unchanged.
 */
export const REFRESH_GRACE_MS = 30_000;

/**
 * The successor is kept sealed (AES-256-GCM) with a key derived from the used token, which only its
 * holder has: the database alone (it keeps only SHA-256 hashes of tokens, under another derivation)
 * cannot open it.
 */
function successorKey(usedToken: string): Buffer {
  return createHash('sha256').update(`refresh-successor|${usedToken}`).digest();
}

function sealSuccessor(usedToken: string, successor: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', successorKey(usedToken), iv);
  const sealed = Buffer.concat([cipher.update(successor, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

function openSuccessor(usedToken: string, sealed: string): string | undefined {
  try {
    const bytes = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', successorKey(usedToken), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

export type RotationResult =
  | { ok: true; userId: string; sessionId: string; refreshToken: string }
  | { ok: false; reason: 'unknown' | 'reused' | 'revoked' | 'expired' };

/**
 * Uses a refresh token once and issues its successor. The conditional UPDATE is the lock: of two
 * requests racing with the same token only one sees `used_at IS NULL` (the other waits for its commit).
 * The loser finds it used: within REFRESH_GRACE_MS, and while the successor is unused, it gets that
 * same successor (two tabs refreshing together); otherwise it is treated as a replay, which revokes
 * the family (a stolen token and its owner cannot both go on).
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
        .select({ sessionId: refreshTokens.sessionId, usedAt: refreshTokens.usedAt, successorSealed: refreshTokens.successorSealed })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, tokenHash))
        .limit(1);
      if (!known) return { ok: false, reason: 'unknown' };
      const graceSuccessor = await successorWithinGrace(tx, token, known, now);
      if (graceSuccessor) {
        const session = await liveSession(tx, known.sessionId, now);
        if (!session.ok) return session;
        return { ok: true, userId: session.userId, sessionId: known.sessionId, refreshToken: graceSuccessor };
      }
      await revokeSession(tx, known.sessionId, now, 'reuse');
      return { ok: false, reason: 'reused' };
    }
    const session = await liveSession(tx, claimed.sessionId, now);
    if (!session.ok) return session;
    const refreshToken = await issueRefreshToken(tx, claimed.sessionId, now);
    await tx
      .update(refreshTokens)
      .set({ successorSealed: sealSuccessor(token, refreshToken) })
      .where(eq(refreshTokens.tokenHash, tokenHash));
    return { ok: true, userId: session.userId, sessionId: claimed.sessionId, refreshToken };
  });
  return result;
}

async function liveSession(
  executor: Executor,
  sessionId: string,
  now: Date,
): Promise<{ ok: true; userId: string } | { ok: false; reason: 'revoked' | 'expired' }> {
  const [session] = await executor.select().from(sessions).where(eq(sessions.id, sessionId)).limit(1);
  if (!session || session.revokedAt) return { ok: false, reason: 'revoked' };
  if (session.expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, userId: session.userId };
}

/** The used token's successor, when it was used less than REFRESH_GRACE_MS ago and its successor is still unused. */
async function successorWithinGrace(
  executor: Executor,
  token: string,
  used: { usedAt: Date | null; successorSealed: string | null },
  now: Date,
): Promise<string | undefined> {
  if (!used.usedAt || !used.successorSealed) return undefined;
  const age = now.getTime() - used.usedAt.getTime();
  if (age < 0 || age > REFRESH_GRACE_MS) return undefined;
  const successor = openSuccessor(token, used.successorSealed);
  if (!successor) return undefined;
  const [row] = await executor
    .select({ usedAt: refreshTokens.usedAt })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashOpaqueToken(successor)))
    .limit(1);
  return row && row.usedAt === null ? successor : undefined;
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

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestContext, type TestContext } from '../../test/helper.ts';
import { loginThrottles, passwordResetTokens, refreshTokens, sessions, users } from '../db/schema.ts';
import { createSession, revokeSession } from './sessions.ts';
import { reserveAttempt } from './login-throttle.ts';
import { newOpaqueToken } from './opaque-tokens.ts';
import { purgeDeadIdentityData } from './housekeeping.ts';

const DAY = 86_400_000;

describe('identity housekeeping', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('deletes sessions, reset tokens and lock-out counts a day after they died, and unconfirmed registrations after a week, and keeps the living', async () => {
    const db = ctx.app.db;
    const [admin] = await db.select().from(users).where(eq(users.email, 'admin@demo.test'));
    const now = new Date();
    const old = await createSession(db, admin!.id, new Date(now.getTime() - 12 * DAY));
    const revoked = await createSession(db, admin!.id, new Date(now.getTime() - 3 * DAY));
    await revokeSession(db, revoked.sessionId, new Date(now.getTime() - 2 * DAY), 'logout');
    const live = await createSession(db, admin!.id, new Date(now.getTime() - 5 * DAY));
    const usedLink = newOpaqueToken();
    const openLink = newOpaqueToken();
    await db.insert(passwordResetTokens).values([
      { tokenHash: usedLink.hash, userId: admin!.id, expiresAt: new Date(now.getTime() - 2 * DAY), usedAt: new Date(now.getTime() - 2 * DAY) },
      { tokenHash: openLink.hash, userId: admin!.id, expiresAt: new Date(now.getTime() + 60_000) },
    ]);
    await reserveAttempt(db, 'stale@demo.test|10.0.0.1', 'stale@demo.test|*', new Date(now.getTime() - 2 * DAY));
    await reserveAttempt(db, 'fresh@demo.test|10.0.0.1', 'fresh@demo.test|*', now);

    await db.insert(users).values([
      { email: 'never.confirmed@example.test', passwordHash: 'x', displayName: 'N', profile: admin!.profile, emailConfirmedAt: null, createdAt: new Date(now.getTime() - 8 * DAY) },
      { email: 'still.in.time@example.test', passwordHash: 'x', displayName: 'S', profile: admin!.profile, emailConfirmedAt: null, createdAt: new Date(now.getTime() - 2 * DAY) },
    ]);

    expect(await purgeDeadIdentityData(db, now)).toEqual({ sessions: 2, resetTokens: 1, throttles: 2, unconfirmedAccounts: 1 });
    const emails = (await db.select({ email: users.email }).from(users)).map((row) => row.email);
    expect(emails).toContain('still.in.time@example.test');
    expect(emails).not.toContain('never.confirmed@example.test');
    expect(emails).toContain('admin@demo.test');
    const remaining = await db.select({ id: sessions.id }).from(sessions);
    expect(remaining.map((row) => row.id)).toEqual([live.sessionId]);
    expect(await db.select().from(refreshTokens).where(eq(refreshTokens.sessionId, old.sessionId))).toHaveLength(0);
    expect((await db.select().from(passwordResetTokens)).map((row) => row.tokenHash)).toEqual([openLink.hash]);
    expect((await db.select().from(loginThrottles)).map((row) => row.key).sort()).toEqual(['fresh@demo.test|*', 'fresh@demo.test|10.0.0.1']);
  });
});

import type { FastifyInstance } from 'fastify';
import { and, eq, getTableColumns, gt, isNull, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { sessions, users } from '../../db/schema.ts';
import { unauthenticated } from '../../lib/errors.ts';
import { TokenError } from '../../identity/token-signer.ts';
import { sessionIdOf } from '../../identity/accounts.ts';
import type { CheckedAccount, IdentityProvider } from '../../identity/provider.ts';
import { StatementShape } from '../../db/statement-shape.ts';
import { confirmEmail, forgotPassword, login, logout, refreshTokens, register, resetPassword, type AuthDeps } from './auth.service.ts';

/**
 * The sign-in a token names, joined to its account only while it is live: its own, not revoked, not
 * expired at `now`. Every read of the guard (alone, or in a write's batch) joins by this.
 */
const liveSession = (sessionIs: SQL, now: Date | Placeholder) =>
  and(sessionIs, eq(sessions.userId, users.id), isNull(sessions.revokedAt), gt(sessions.expiresAt, now));

/**
 * The guard's read for a write that carries it in its own first batch (decision 028): the columns
 * the guard decides on, and the token's sign-in when it is live, as a statement shape (one text,
 * built once) that a batch can send.
 */
const checkedAccountShape = new StatementShape<'id' | 'sid' | 'now'>(
  (p) => sql`select ${users.id}, ${users.email}, ${users.displayName}, ${users.role}, ${users.status},
               ${users.passwordChangedAt}, ${sessions.id} as session_id
               from ${users} left join ${sessions} on ${liveSession(eq(sessions.id, p('sid')), p('now'))}
              where ${eq(users.id, p('id'))}`,
);

/**
 * The built-in identity provider (B1, the default): argon2id passwords in our database, EdDSA ID
 * tokens tied to a live session, rotated opaque refresh tokens (`identity/README.md`).
 */
export function createBuiltinProvider(app: FastifyInstance): IdentityProvider {
  // The per-request read of the account's current role and status, as a named prepared statement:
  // built once instead of per request, and parsed and planned once per database connection. The
  // whole row (one row by primary key either way), kept on the request for routes about the account.
  // Built on first use: the app may be built before (or without) a migrated database.
  let findAccount: ReturnType<typeof prepareFindAccount> | undefined;
  const prepareFindAccount = () =>
    app.db
      .select({ ...getTableColumns(users), sessionId: sessions.id })
      .from(users)
      .leftJoin(sessions, liveSession(eq(sessions.id, sql.placeholder('sid')), sql.placeholder('now')))
      .where(eq(users.id, sql.placeholder('id')))
      .limit(1)
      .prepare('access_control_account');
  type AccountRow = Awaited<ReturnType<ReturnType<typeof prepareFindAccount>['execute']>>[number];
  /** The guard's reads of an account so far (tests and benchmarks count them). */
  const accountCheckStats = { requests: 0 };
  const checkAccount = async (id: string, sid: string): Promise<AccountRow | undefined> => {
    findAccount ??= prepareFindAccount();
    accountCheckStats.requests += 1;
    const [row] = await findAccount.execute({ id, sid, now: app.clock.now() });
    return row;
  };

  /** The token's claims once its signature and expiry are checked; it must name its sign-in. */
  const verifiedClaims = async (token: string) => {
    let claims;
    try {
      claims = await app.tokenSigner.verify(token);
    } catch (error) {
      if (error instanceof TokenError && error.reason === 'expired') {
        throw unauthenticated('token_expired');
      }
      throw unauthenticated('invalid_token');
    }
    // Every ID token names its sign-in; one without, or whose sign-in ended (logout, reuse of a
    // refresh token, password change or reset, disabling), is refused however long it has left.
    if (!claims.sid) throw unauthenticated('invalid_token');
    return { ...claims, sid: claims.sid };
  };

  /** The account as read now may use this token: active, its sign-in live, no password reset since. */
  function acceptedAccount<Row extends Pick<AccountRow, 'status' | 'passwordChangedAt' | 'sessionId'>>(
    row: Row | undefined,
    claims: { iat: number },
  ): Row & { sessionId: string } {
    if (!row || row.status !== 'active') {
      throw unauthenticated('invalid_token', 'account_inactive');
    }
    if (!row.sessionId) throw unauthenticated('invalid_token', 'session_ended');
    // A password reset revokes every session, including ID tokens issued before it.
    if (claims.iat < Math.floor(row.passwordChangedAt.getTime() / 1000)) {
      throw unauthenticated('invalid_token', 'token_revoked');
    }
    return row as Row & { sessionId: string };
  }

  const deps: AuthDeps = {
    db: app.db,
    clock: app.clock,
    timeZone: app.env.BUSINESS_TIME_ZONE,
    tokenSigner: app.tokenSigner,
    mailer: app.mailer,
    appUrl: app.env.APP_URL,
  };

  return {
    kind: 'builtin',
    login: (body, caller) => login(deps, caller, body),
    register: (body, caller, afterReply) => register({ ...deps, afterReply }, caller, body),
    confirmEmail: (body, caller) => confirmEmail(deps, caller, body),
    forgotPassword: (body, _caller, afterReply) => forgotPassword({ ...deps, afterReply }, body),
    resetPassword: (body, caller) => resetPassword(deps, caller, body),
    refresh: (refreshToken, caller) => refreshTokens(deps, caller, refreshToken),
    logout: (refreshToken) => logout(deps, refreshToken),
    sessionIdOf,
    accountCheckStats,
    // Our ID tokens die with their session, so every check is a revocation check: the option changes nothing.
    async authenticate(token) {
      const claims = await verifiedClaims(token);
      const row = await checkAccount(claims.sub, claims.sid);
      const { sessionId, ...account } = acceptedAccount(row, claims);
      return { account, sessionId };
    },
    async deferAccountCheck(token) {
      const claims = await verifiedClaims(token);
      return {
        sessionId: claims.sid,
        statement: checkedAccountShape.with({ id: claims.sub, sid: claims.sid, now: app.clock.now() }),
        conclude(rows) {
          const row = rows[0];
          const { sessionId, ...account } = acceptedAccount(
            row && {
              id: String(row['id']),
              email: String(row['email']),
              displayName: String(row['display_name']),
              role: (row['role'] ?? null) as CheckedAccount['role'],
              status: row['status'] as CheckedAccount['status'],
              passwordChangedAt: new Date(row['password_changed_at'] as string | Date),
              sessionId: (row['session_id'] ?? null) as string | null,
            },
            claims,
          );
          return { account, sessionId };
        },
      };
    },
    // The profile dialog's password change stays in modules/staff/self.service.ts (our own hashes).
    async accountChanged() {
      // Role and status live in our database only; the guard reads them on every request.
    },
    async close() {},
  };
}

/**
 * Firebase Authentication's REST endpoints that only a user's own credentials can call (the Admin SDK
 * has no "sign in with a password"): Identity Toolkit `accounts:*` and the secure-token endpoint.
 * The Web API key stays on the server; the browser talks to our API only (decision 023).
 */

export type FirebaseRestOptions = {
  apiKey: string;
  /** host:port of the Auth emulator; the real Google endpoints without it. */
  emulatorHost?: string | undefined;
  /** Per call; Google answers in well under a second, a hung connection must not hold a request. */
  timeoutMs?: number;
};

/** Firebase's error `message` (e.g. `INVALID_LOGIN_CREDENTIALS`, `EMAIL_EXISTS`, `TOKEN_EXPIRED`), or `unavailable`. */
export class FirebaseRestError extends Error {
  constructor(
    readonly reason: string,
    readonly status: number,
  ) {
    super(`Firebase Authentication answered ${status} ${reason}`);
  }
}

export type FirebaseSignIn = { idToken: string; refreshToken: string; expiresIn: string; localId: string; email: string };
export type FirebaseRefresh = { id_token: string; refresh_token: string; expires_in: string; user_id: string };

export function createFirebaseRest(options: FirebaseRestOptions) {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const base = (host: string) => (options.emulatorHost ? `http://${options.emulatorHost}/${host}` : `https://${host}`);
  const identityToolkit = `${base('identitytoolkit.googleapis.com')}/v1`;
  const secureToken = `${base('securetoken.googleapis.com')}/v1/token`;

  async function call<T>(url: string, body: Record<string, unknown> | URLSearchParams): Promise<T> {
    const isForm = body instanceof URLSearchParams;
    let response: Response;
    try {
      response = await fetch(`${url}?key=${encodeURIComponent(options.apiKey)}`, {
        method: 'POST',
        headers: { 'Content-Type': isForm ? 'application/x-www-form-urlencoded' : 'application/json' },
        body: isForm ? body.toString() : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      throw new FirebaseRestError('unavailable', 0);
    }
    const answer = (await response.json().catch(() => ({}))) as { error?: { message?: unknown } | string } & T;
    if (!response.ok) {
      const error = answer.error;
      // Identity Toolkit: { error: { message: 'CODE : detail' } }; secure token: the same or { error: 'invalid_grant' }.
      const text = typeof error === 'string' ? error : typeof error?.message === 'string' ? error.message : 'unknown';
      throw new FirebaseRestError(text.split(/[\s:]/)[0] || 'unknown', response.status);
    }
    return answer;
  }

  return {
    signInWithPassword: (email: string, password: string) =>
      call<FirebaseSignIn>(`${identityToolkit}/accounts:signInWithPassword`, { email, password, returnSecureToken: true }),
    signUp: (email: string, password: string, displayName: string) =>
      call<FirebaseSignIn>(`${identityToolkit}/accounts:signUp`, { email, password, displayName, returnSecureToken: true }),
    /** A reset link's code and the new password (Firebase ends the user's refresh tokens). */
    resetPassword: (oobCode: string, newPassword: string) =>
      call<{ email: string }>(`${identityToolkit}/accounts:resetPassword`, { oobCode, newPassword }),
    /** A confirmation link's code: marks the address verified. */
    applyEmailVerification: (oobCode: string) =>
      call<{ email: string; emailVerified?: boolean; localId: string }>(`${identityToolkit}/accounts:update`, { oobCode }),
    refresh: (refreshToken: string) =>
      call<FirebaseRefresh>(secureToken, new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken })),
  };
}

export type FirebaseRest = ReturnType<typeof createFirebaseRest>;

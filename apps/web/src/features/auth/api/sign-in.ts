import type { LoginRequest, LoginResponse } from '@sf/contract/auth';
import { isStaffRole } from '@sf/contract/roles';
import { apiClient } from '../../../lib/api-client.ts';
import { decodeJwtClaims } from '../../../lib/jwt.ts';
import { clearStoredSession, sessionStore, writeStoredSession } from '../../../lib/session.ts';
import { fetchUserByToken } from '../../../lib/user-by-token.ts';

export type SignInOutcome =
  | { outcome: 'signed-in'; role: 'admin' | 'editor' }
  /** The credentials were right but the account's role may not enter (S1) — or has none yet (B7). */
  | { outcome: 'refused'; role: string | null };

/**
 * S1: the provider must accept the credentials AND the ID token's `role` must be admin or editor;
 * otherwise nothing is stored and the refresh token just issued is revoked.
 */
export async function signIn(credentials: LoginRequest): Promise<SignInOutcome> {
  const answer = await apiClient.post<LoginResponse>('/auth/login', credentials, { isSilent: true });
  const role = decodeJwtClaims(answer.idToken)?.role;
  if (!isStaffRole(role)) {
    void apiClient.post('/auth/logout', { refreshToken: answer.refreshToken }, { isSilent: true }).catch(() => undefined);
    return { outcome: 'refused', role: typeof role === 'string' ? role : null };
  }
  const tokens = { authToken: answer.idToken, refreshToken: answer.refreshToken };
  writeStoredSession(tokens);
  try {
    const user = await fetchUserByToken();
    if (!user || !isStaffRole(user.role)) {
      clearStoredSession();
      return { outcome: 'refused', role: user?.role ?? null };
    }
    sessionStore.signIn(user, tokens, { isNew: false });
    return { outcome: 'signed-in', role: user.role };
  } catch (error) {
    clearStoredSession();
    throw error;
  }
}

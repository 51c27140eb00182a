import type { LoginRequest, SignInResponse } from '@sf/contract/auth';
import { isStaffRole } from '@sf/contract/roles';
import { apiClient } from '../../../lib/api-client.ts';
import { decodeJwtClaims } from '../../../lib/jwt.ts';
import { sessionStore, writeStoredSession } from '../../../lib/session.ts';

export type SignInOutcome =
  | { outcome: 'signed-in'; role: 'admin' | 'editor' }
  /** The credentials were right but the account's role may not enter (S1) — or has none yet (B7). */
  | { outcome: 'refused'; role: string | null };

/**
 * S1: the provider must accept the credentials AND the ID token's `role` must be admin or editor;
 * otherwise nothing is stored and the refresh token just issued is revoked. The answer carries the user
 * (S3) as user-by-token would give it, so the signed-in screen does not wait for a second request.
 */
export async function signIn(credentials: LoginRequest): Promise<SignInOutcome> {
  const answer = await apiClient.post<SignInResponse>('/auth/login', credentials, { isSilent: true });
  const role = decodeJwtClaims(answer.idToken)?.role;
  if (!isStaffRole(role) || !answer.user || !isStaffRole(answer.user.role)) {
    void apiClient.post('/auth/logout', { refreshToken: answer.refreshToken }, { isSilent: true }).catch(() => undefined);
    const refused = answer.user ? answer.user.role : role;
    return { outcome: 'refused', role: typeof refused === 'string' ? refused : null };
  }
  const tokens = { authToken: answer.idToken, refreshToken: answer.refreshToken };
  writeStoredSession(tokens);
  sessionStore.signIn(answer.user, tokens, { isNew: false });
  return { outcome: 'signed-in', role: answer.user.role };
}

import type { LoginResponse, StaffUser } from '@sf/contract/auth';
import type { AcceptInvitationRequest, InvitationDetails } from '@sf/contract/staff-invitations';
import { apiClient } from '../../../lib/api-client.ts';
import { clearStoredSession, sessionStore, writeStoredSession } from '../../../lib/session.ts';

/** What the link is for (address, name, role); a link that cannot be used answers 400 invalid_invitation_token. */
export function getInvitationDetails(token: string): Promise<InvitationDetails> {
  return apiClient.post<InvitationDetails>('/auth/invitation/details', { token }, { isSilent: true });
}

/**
 * Accepts the invitation and signs in with its answer, like a sign-in (S2–S4): the session is stored,
 * then the current user read by token (S4's call, made here rather than through lib/user-by-token so
 * that this lazy page does not split the sign-in page's bundle into more requests; see `npm run size`).
 * Resolves with the role the account got.
 */
export async function acceptInvitation(request: AcceptInvitationRequest): Promise<'admin' | 'editor'> {
  const answer = await apiClient.post<LoginResponse>('/auth/invitation/accept', request, { isSilent: true });
  const tokens = { authToken: answer.idToken, refreshToken: answer.refreshToken };
  writeStoredSession(tokens);
  try {
    const current = await apiClient.get<{ payload?: StaffUser }>('/admin/user-by-token', { tokenParam: 'token', isSilent: true });
    const user = current?.payload;
    if (!user || (user.role !== 'admin' && user.role !== 'editor')) throw new Error('the invited account has no staff role');
    sessionStore.signIn(user, tokens, { isNew: false });
    return user.role;
  } catch (error) {
    clearStoredSession();
    throw error;
  }
}

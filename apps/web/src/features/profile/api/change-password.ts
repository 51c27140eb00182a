import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordResponse } from '@sf/contract/auth';
import { apiClient } from '../../../lib/api-client.ts';
import { replaceStoredTokens, sessionStore } from '../../../lib/session.ts';

export type ChangePasswordRequest = { currentPassword: string; newPassword: string };

/**
 * The API ends every session of the account and answers with a fresh sign-in: this tab carries on
 * with the new tokens, other devices are signed out.
 */
export async function changePassword(request: ChangePasswordRequest): Promise<void> {
  const answer = await apiClient.post<ChangePasswordResponse>('/admin/me/password', request, { isSilent: true });
  const tokens = { authToken: answer.idToken, refreshToken: answer.refreshToken };
  replaceStoredTokens(tokens);
  sessionStore.applyRefresh(tokens, {});
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}

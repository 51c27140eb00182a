import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiClient } from '../../../lib/api-client.ts';
import { currentRefreshToken, sessionStore } from '../../../lib/session.ts';

/** Logout: revoke the refresh token (best effort — the user leaves either way), clear storage and cache. */
export async function signOut(): Promise<void> {
  const refreshToken = currentRefreshToken();
  sessionStore.signOut('logout');
  if (refreshToken) {
    await apiClient.post('/auth/logout', { refreshToken }, { isSilent: true }).catch(() => undefined);
  }
}

export function useSignOut(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await signOut();
    queryClient.clear();
  }, [queryClient]);
}

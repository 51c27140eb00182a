import { userByTokenResponseSchema, type StaffUser } from '@sf/contract/auth';
import { isStaffRole } from '@sf/contract/roles';
import { apiClient } from './api-client.ts';
import { readStoredSession, sessionStore } from './session.ts';

/**
 * S4: the stored token goes as `?token=` and in the token header (the client re-reads both if a
 * refresh happens on the way). An answer without a `payload` means no user.
 */
export async function fetchUserByToken(): Promise<StaffUser | null> {
  const answer = await apiClient.get<unknown>('/admin/user-by-token', { tokenParam: 'token', isSilent: true });
  const parsed = userByTokenResponseSchema.safeParse(answer);
  return parsed.success ? parsed.data.payload : null;
}

/** Start-up (S4): makes the stored session's user current, or signs out. Never throws. */
export async function restoreSession(): Promise<void> {
  if (!readStoredSession()) {
    sessionStore.signOut();
    return;
  }
  sessionStore.setChecking();
  try {
    const user = await fetchUserByToken();
    const stored = readStoredSession();
    if (user && stored && isStaffRole(user.role)) sessionStore.signIn(user, stored, { isNew: false });
    else sessionStore.signOut();
  } catch (error) {
    console.error('The stored session could not be restored', error);
    if (sessionStore.getState().status !== 'signed-out') sessionStore.signOut();
  }
}

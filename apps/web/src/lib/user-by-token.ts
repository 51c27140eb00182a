import type { StaffUser } from '@sf/contract/auth';
import { isStaffRole } from '@sf/contract/roles';
import { apiClient } from './api-client.ts';
import { readStoredSession, sessionStore } from './session.ts';

/**
 * S4: the stored token goes as `?token=` and in the token header (the client re-reads both if a
 * refresh happens on the way). An answer without a `payload` means no user.
 */
export async function fetchUserByToken(): Promise<StaffUser | null> {
  const answer = await apiClient.get<unknown>('/admin/user-by-token', { tokenParam: 'token', isSilent: true });
  // The API serialises the answer with the contract's schema; the sign-in page only checks its shape
  // (zod would cost it ~40 kB gzip).
  const payload = (answer as { payload?: Partial<StaffUser> } | null | undefined)?.payload;
  if (!payload || typeof payload.uid !== 'string' || typeof payload.email !== 'string') return null;
  return payload as StaffUser;
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

import type { StaffUser } from '@sf/contract/auth';
import { isStaffRole } from '@sf/contract/roles';
import { apiClient } from './api-client.ts';
import { readStoredSession, sessionStore, type StoredSession } from './session.ts';
import { SESSION_STORAGE_KEY } from '@sf/contract/app-info';

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

function parseStored(raw: string | null): StoredSession | null {
  if (!raw) return null;
  try {
    return JSON.parse(raw) as StoredSession;
  } catch {
    return null;
  }
}

/**
 * Every tab of this browser shares the stored session (S2, localStorage): a sign-out in one tab removes
 * it, a sign-in writes a new one, and the browser tells the other tabs with a `storage` event. They
 * follow at once — signed out to the sign-in page, or signed in (S4 with the new token) — rather than
 * finding out when an open form is sent. A token refresh in another tab keeps the session's date and is
 * not a change of session: requests read the stored token anyway. Returns the function that stops.
 */
export function followSessionOfOtherTabs(target: Pick<Window, 'addEventListener' | 'removeEventListener'> = window): () => void {
  const onStorage = (event: StorageEvent) => {
    // `key` is null when the whole storage was cleared.
    if (event.key !== null && event.key !== SESSION_STORAGE_KEY) return;
    const before = parseStored(event.oldValue);
    const after = readStoredSession();
    const status = sessionStore.getState().status;
    if (!after) {
      if (status !== 'signed-out') sessionStore.signOut('logout');
      return;
    }
    const isRefresh = before !== null && before.expiresIn === after.expiresIn && status === 'signed-in';
    if (!isRefresh) void restoreSession();
  };
  target.addEventListener('storage', onStorage as EventListener);
  return () => target.removeEventListener('storage', onStorage as EventListener);
}

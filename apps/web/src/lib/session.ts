import { useSyncExternalStore } from 'react';
import { SESSION_LIFETIME_MS, SESSION_STORAGE_KEY } from '@sf/contract/app-info';
import type { StaffUser } from '@sf/contract/auth';

/**
 * S2: what localStorage holds under SESSION_STORAGE_KEY. `expiresIn` is an ISO-8601 date string
 * (readable in the browser's storage panel) 864 000 000 ms after sign-in; a token refresh replaces
 * the tokens but keeps that date, so a session never outlives ten days.
 */
export type StoredSession = { authToken: string; refreshToken: string; expiresIn: string };

/** S3: the current user; `token`/`refreshToken` mirror the stored session. */
export type CurrentUser = StaffUser & { token: string; refreshToken: string };

export type SessionState =
  | { status: 'checking' }
  | { status: 'signed-out'; reason?: 'expired' | 'logout' }
  | { status: 'signed-in'; user: CurrentUser };

function isStoredSession(value: unknown): value is StoredSession {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.authToken === 'string' && typeof v.refreshToken === 'string' && typeof v.expiresIn === 'string';
}

/** The stored session, or null when there is none, it is malformed, or it is past its date (then removed). */
export function readStoredSession(now: number = Date.now()): StoredSession | null {
  let raw: string | null;
  try {
    raw = localStorage.getItem(SESSION_STORAGE_KEY);
  } catch {
    return null;
  }
  if (!raw) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = null;
  }
  const expiresAt = isStoredSession(parsed) ? Date.parse(parsed.expiresIn) : Number.NaN;
  if (!isStoredSession(parsed) || Number.isNaN(expiresAt) || expiresAt <= now || !parsed.authToken) {
    clearStoredSession();
    return null;
  }
  return parsed;
}

export function writeStoredSession(tokens: { authToken: string; refreshToken: string }, now: number = Date.now()): StoredSession {
  const session: StoredSession = { ...tokens, expiresIn: new Date(now + SESSION_LIFETIME_MS).toISOString() };
  localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
  return session;
}

/** After a refresh: new tokens, same expiry date. False when the session has meanwhile gone. */
export function replaceStoredTokens(tokens: { authToken: string; refreshToken: string }): boolean {
  const current = readStoredSession();
  if (!current) return false;
  localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ ...current, ...tokens }));
  return true;
}

export function clearStoredSession(): void {
  try {
    localStorage.removeItem(SESSION_STORAGE_KEY);
  } catch {
    // Storage can be unavailable (private mode, quota): nothing is stored then either.
  }
}

type Listener = () => void;
let state: SessionState = { status: 'checking' };
const listeners = new Set<Listener>();

function setState(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

export const sessionStore = {
  getState: (): SessionState => state,
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  setChecking(): void {
    setState({ status: 'checking' });
  },
  signIn(user: StaffUser, tokens: { authToken: string; refreshToken: string }, options: { isNew: boolean }): void {
    if (options.isNew) writeStoredSession(tokens);
    setState({ status: 'signed-in', user: { ...user, token: tokens.authToken, refreshToken: tokens.refreshToken } });
  },
  /** S10: new tokens, and whatever the new ID token says about the user (a changed role applies at once). */
  applyRefresh(tokens: { authToken: string; refreshToken: string }, claims: Partial<Pick<StaffUser, 'role' | 'email' | 'displayName'>>): void {
    replaceStoredTokens(tokens);
    if (state.status !== 'signed-in') return;
    setState({ status: 'signed-in', user: { ...state.user, ...claims, token: tokens.authToken, refreshToken: tokens.refreshToken } });
  },
  updateUser(patch: Partial<StaffUser>): void {
    if (state.status !== 'signed-in') return;
    setState({ status: 'signed-in', user: { ...state.user, ...patch } });
  },
  signOut(reason?: 'expired' | 'logout'): void {
    clearStoredSession();
    setState(reason ? { status: 'signed-out', reason } : { status: 'signed-out' });
  },
};

export function useSession(): SessionState {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.getState, sessionStore.getState);
}

/** The signed-in user, or null (outside the guarded layout, or while the session is being checked). */
export function useCurrentUser(): CurrentUser | null {
  const session = useSession();
  return session.status === 'signed-in' ? session.user : null;
}

/** The token to send: the stored one, so a refresh in another part of the app is seen at once. */
export function currentAuthToken(): string | null {
  return readStoredSession()?.authToken ?? null;
}

export function currentRefreshToken(): string | null {
  return readStoredSession()?.refreshToken ?? null;
}

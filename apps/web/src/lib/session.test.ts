import { afterEach, describe, expect, it, vi } from 'vitest';
import { SESSION_STORAGE_KEY } from '@sf/contract/app-info';
import { clearStoredSession, readStoredSession, replaceStoredTokens, writeStoredSession } from './session.ts';

afterEach(() => vi.useRealTimers());

describe('stored session (S2)', () => {
  it('lives under the versioned key v8.0.34-<fixed key>', () => {
    expect(SESSION_STORAGE_KEY).toMatch(/^v8\.0\.34-.+/);
    writeStoredSession({ authToken: 'a', refreshToken: 'r' });
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).not.toBeNull();
    expect(localStorage.length).toBe(1);
  });

  it('holds exactly authToken, refreshToken and expiresIn, the ISO date 864 000 000 ms after sign-in', () => {
    const signInAt = Date.parse('2026-11-21T10:00:00.000Z');
    writeStoredSession({ authToken: 'id-token', refreshToken: 'refresh' }, signInAt);
    const stored = JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY) ?? 'null');
    expect(stored).toEqual({ authToken: 'id-token', refreshToken: 'refresh', expiresIn: '2026-12-01T10:00:00.000Z' });
    expect(Date.parse(stored.expiresIn) - signInAt).toBe(864_000_000);
  });

  it('counts a session past its date as absent and removes it', () => {
    const signInAt = Date.parse('2026-11-01T10:00:00.000Z');
    writeStoredSession({ authToken: 'a', refreshToken: 'r' }, signInAt);
    expect(readStoredSession(signInAt + 864_000_000 - 1)).not.toBeNull();
    expect(readStoredSession(signInAt + 864_000_000)).toBeNull();
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('counts a malformed value as absent', () => {
    for (const raw of ['not json', '{"authToken":"a"}', '{"authToken":"a","refreshToken":"r","expiresIn":"soon"}', 'null']) {
      localStorage.setItem(SESSION_STORAGE_KEY, raw);
      expect(readStoredSession()).toBeNull();
    }
  });

  it('keeps the expiry date when a refresh replaces the tokens', () => {
    const stored = writeStoredSession({ authToken: 'a', refreshToken: 'r' });
    expect(replaceStoredTokens({ authToken: 'a2', refreshToken: 'r2' })).toBe(true);
    expect(readStoredSession()).toEqual({ authToken: 'a2', refreshToken: 'r2', expiresIn: stored.expiresIn });
    clearStoredSession();
    expect(replaceStoredTokens({ authToken: 'a3', refreshToken: 'r3' })).toBe(false);
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });
});

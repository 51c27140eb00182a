import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { SESSION_STORAGE_KEY } from '@sf/contract/app-info';
import { server } from '../testing/msw-server.ts';
import { fakeIdToken, testUser } from '../testing/test-utils.tsx';
import { sessionStore, writeStoredSession } from './session.ts';
import { followSessionOfOtherTabs } from './user-by-token.ts';

/** What the browser does in this tab when another tab changes the stored session. */
function otherTabWrites(oldValue: string | null, newValue: string | null) {
  if (newValue === null) localStorage.removeItem(SESSION_STORAGE_KEY);
  else localStorage.setItem(SESSION_STORAGE_KEY, newValue);
  window.dispatchEvent(new StorageEvent('storage', { key: SESSION_STORAGE_KEY, oldValue, newValue, storageArea: localStorage }));
}

let stop: () => void = () => undefined;
afterEach(() => stop());

describe('a session shared by the tabs of one browser', () => {
  it('signs this tab out at once when another tab signs out', () => {
    const user = testUser();
    const tokens = { authToken: fakeIdToken({ sub: user.uid, role: 'admin' }), refreshToken: 'r1' };
    writeStoredSession(tokens);
    sessionStore.signIn(user, tokens, { isNew: false });
    stop = followSessionOfOtherTabs();
    otherTabWrites(localStorage.getItem(SESSION_STORAGE_KEY), null);
    expect(sessionStore.getState()).toEqual({ status: 'signed-out', reason: 'logout' });
  });

  it('signs this tab in when another tab signs in, and ignores a token refresh there', async () => {
    sessionStore.signOut();
    const user = testUser({ uid: 'u-editor', role: 'editor', email: 'editor@demo.test' });
    let lookups = 0;
    server.use(
      http.get('/api/admin/user-by-token', () => {
        lookups += 1;
        return HttpResponse.json({ payload: user });
      }),
    );
    stop = followSessionOfOtherTabs();
    const signedIn = JSON.stringify({ authToken: fakeIdToken({ sub: user.uid, role: 'editor' }), refreshToken: 'r1', expiresIn: new Date(Date.now() + 86_400_000).toISOString() });
    otherTabWrites(null, signedIn);
    await expect.poll(() => sessionStore.getState().status).toBe('signed-in');
    expect(lookups).toBe(1);
    const refreshed = JSON.stringify({ ...JSON.parse(signedIn), authToken: fakeIdToken({ sub: user.uid, role: 'editor', iat: 5 }), refreshToken: 'r2' });
    otherTabWrites(signedIn, refreshed);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lookups).toBe(1);
    expect(sessionStore.getState().status).toBe('signed-in');
  });
});

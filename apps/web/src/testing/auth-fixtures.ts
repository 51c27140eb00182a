import { http, HttpResponse } from 'msw';
import type { StaffUser } from '@sf/contract/auth';
import { isStaffRole } from '@sf/contract/roles';
import { fakeIdToken, testUser } from './test-utils.tsx';

/**
 * msw handlers for a sign-in of this account: login answers an ID token with its role and, for a staff
 * role, the account's profile (as the API does); user-by-token (S4) answers the profile too.
 */
export function signInHandlers(user: Partial<StaffUser>, options: { password?: string } = {}) {
  const account = testUser(user);
  const idToken = fakeIdToken({ sub: account.uid, role: account.role, email: account.email, name: account.displayName });
  const calls = { login: 0, logout: 0, userByToken: 0 };
  const handlers = [
    http.get('/api/healthz', () => {
      document.cookie = 'XSRF-TOKEN=test-csrf; path=/';
      return HttpResponse.json({ status: 'ok' });
    }),
    http.post('/api/auth/login', async ({ request }) => {
      calls.login += 1;
      const body = (await request.json()) as { email: string; password: string };
      if (body.email !== account.email || (options.password && body.password !== options.password)) {
        return HttpResponse.json({ error: { code: 'invalid_credentials', message: 'The login detail is incorrect', requestId: 'r' } }, { status: 400 });
      }
      const tokens = { idToken, refreshToken: 'refresh-1', expiresIn: 900, localId: account.uid };
      return HttpResponse.json(isStaffRole(account.role) ? { ...tokens, user: account } : tokens);
    }),
    http.post('/api/auth/logout', () => {
      calls.logout += 1;
      return HttpResponse.json({ ok: true });
    }),
    http.get('/api/admin/user-by-token', ({ request }) => {
      calls.userByToken += 1;
      const url = new URL(request.url);
      if (url.searchParams.get('token') !== request.headers.get('X-Auth-Token')) {
        return HttpResponse.json({ error: { code: 'invalid_token', message: 'mismatch', requestId: 'r' } }, { status: 401 });
      }
      return HttpResponse.json({ payload: account });
    }),
  ];
  return { handlers, calls, idToken, account };
}

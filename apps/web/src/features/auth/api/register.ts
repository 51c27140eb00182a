import type { RegisterRequest } from '@sf/contract/auth';
import { apiClient } from '../../../lib/api-client.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { signIn, type SignInOutcome } from './sign-in.ts';

/**
 * S6 + B7: create the account, then try the automatic sign-in with the same e-mail and password. A new
 * account has no staff role yet (and must confirm its address first), so the provider answers that
 * sign-in exactly like a wrong password: the outcome is "registered", and the page explains what
 * happens next without any session.
 */
export async function register(request: RegisterRequest): Promise<SignInOutcome | { outcome: 'registered' }> {
  await apiClient.post('/auth', request, { isSilent: true });
  try {
    return await signIn({ email: request.email, password: request.password });
  } catch (error) {
    // The expected answer for an account waiting for approval; anything else (e.g. a rate limit) is
    // logged, and the registration still succeeded.
    if (!(isApiError(error) && error.code === 'invalid_credentials')) {
      console.error('Automatic sign-in after registration failed', error);
    }
    return { outcome: 'registered' };
  }
}

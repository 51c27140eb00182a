import type { RegisterRequest } from '@sf/contract/auth';
import { apiClient } from '../../../lib/api-client.ts';
import { signIn, type SignInOutcome } from './sign-in.ts';

/** S6: create the account, then sign in with the same e-mail and password. */
export async function register(request: RegisterRequest): Promise<SignInOutcome | { outcome: 'registered' }> {
  await apiClient.post('/auth', request, { isSilent: true });
  try {
    return await signIn({ email: request.email, password: request.password });
  } catch (error) {
    // The account exists; only the automatic sign-in failed (e.g. rate limit). Registration still succeeded.
    console.error('Automatic sign-in after registration failed', error);
    return { outcome: 'registered' };
  }
}

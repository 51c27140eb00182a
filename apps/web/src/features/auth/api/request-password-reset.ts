import type { ForgotPasswordRequest } from '@sf/contract/auth';
import { apiClient } from '../../../lib/api-client.ts';

/** S7: the API e-mails a reset link (and answers the same whether or not the address exists). */
export function requestPasswordReset(request: ForgotPasswordRequest): Promise<{ ok: boolean }> {
  return apiClient.post<{ ok: boolean }>('/auth/forgot-password', request, { isSilent: true });
}

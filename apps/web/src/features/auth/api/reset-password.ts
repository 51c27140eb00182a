import type { ResetPasswordRequest } from '@sf/contract/auth';
import { apiClient } from '../../../lib/api-client.ts';

export function resetPassword(request: ResetPasswordRequest): Promise<{ ok: boolean }> {
  return apiClient.post<{ ok: boolean }>('/auth/reset-password', request, { isSilent: true });
}

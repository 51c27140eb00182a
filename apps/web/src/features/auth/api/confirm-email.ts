import { apiClient } from '../../../lib/api-client.ts';

/** One request per token, even when React runs the page's effect twice: the link is single-use. */
const pending = new Map<string, Promise<void>>();

/** B7: confirm the address of a new account with the token of its e-mail's link. */
export function confirmEmail(token: string): Promise<void> {
  let request = pending.get(token);
  if (!request) {
    request = apiClient.post('/auth/confirm-email', { token }, { isSilent: true }).then(() => undefined);
    pending.set(token, request);
  }
  return request;
}

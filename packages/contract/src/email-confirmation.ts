import { z } from 'zod';

/** B7: a self-registered account confirms its address with the single-use link of its e-mail. */
export const confirmEmailRequestSchema = z.strictObject({
  token: z.string().min(1).max(512),
});
export type ConfirmEmailRequest = z.infer<typeof confirmEmailRequestSchema>;

/** How long the confirmation link of a registration stays valid. */
export const EMAIL_CONFIRMATION_TTL_MS = 24 * 60 * 60_000;

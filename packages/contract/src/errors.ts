import { z } from 'zod';

/**
 * Error codes of the API. "Not signed in / token expired" (401) stays apart from "not allowed" (403),
 * even though the web client's refresh rule (S10) reacts to both.
 */
export const ERROR_CODES = [
  'validation',
  'not_found',
  'route_not_found',
  'method_not_allowed',
  'unauthenticated',
  'token_expired',
  'invalid_token',
  'forbidden',
  'csrf',
  'invalid_credentials',
  'invalid_grant',
  'invalid_reset_token',
  'invalid_confirmation_token',
  'rate_limited',
  'conflict',
  'version_conflict',
  'has_ledger_entries',
  'payload_too_large',
  'unsupported_media_type',
  'internal',
  'unavailable',
  // Ledger (docs/product.md F). Every code's text, in Italian and English: error-texts.ts.
  'insufficient_balance',
  'already_reversed',
  'idempotency_key_reused',
  'idempotency_key_in_flight',
  // Staff screen and invitations (issue 11).
  'last_admin',
  'own_account',
  'account_exists',
  'invalid_invitation_token',
  // Rewards and vouchers (docs/product.md F).
  'out_of_stock',
  'reward_not_available',
  'reward_limit_reached',
  'voucher_used',
  'voucher_expired',
  'voucher_not_yet_valid',
  'voucher_not_issued',
  'voucher_void',
  'voucher_wrong_merchant',
  // Privacy requests and imports (issue 10).
  'processing_blocked',
  'customer_erased',
  'invalid_state',
  // The security review (issue 30).
  'card_code_required',
  'redemption_voucher_used',
  // A value that must be unique is already someone else's (issue 31): 409 with the field.
  'already_used',
  // The card in the customer's phone (issue 27): the wallet's settings are missing (503); the
  // customer is blocked or erased, so their card has no link or pass (409).
  'wallet_not_configured',
  'card_unavailable',
  // An e-mail someone waits for (a campaign's test, a card link, an invitation) could not be handed to
  // the mail server: it did not answer, refused the connection or dropped it (503).
  'mail_unavailable',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const fieldErrorSchema = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

/** Every error answer of the API: `{ error: { code, message, fields?, requestId } }` (S19). */
export const errorResponseSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.array(fieldErrorSchema).optional(),
    requestId: z.string(),
  }),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

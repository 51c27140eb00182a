/** A fresh Idempotency-Key: one per submission of a dialog, reused unchanged when that submission is retried. */
export function newIdempotencyKey(): string {
  return `web-${crypto.randomUUID()}`;
}

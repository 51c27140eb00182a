import { createHash, randomBytes } from 'node:crypto';

/**
 * Refresh and reset tokens are 32 random bytes; only their SHA-256 is stored, so a copy of the
 * database does not hand out working tokens. A fast hash is enough: the input has 256 bits of entropy.
 */
export function hashOpaqueToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

export function newOpaqueToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashOpaqueToken(token) };
}

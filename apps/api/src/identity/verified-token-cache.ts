/**
 * ID tokens already verified by this process, so that the signature (an Ed25519 check through
 * WebCrypto, the largest single cost of an authenticated read) is checked once per token rather than
 * once per request. Only tokens that passed the full verification enter; the expiry is checked again
 * on every hit, so a cached token expires exactly as an uncached one. The key never changes while the
 * process runs, so a cached verdict cannot go stale. What a token grants is still read per request
 * (the account's current role and status, in access-control.ts).
 *
 * Bounded: past `maxEntries` the oldest entry goes (insertion order), so a flood of valid tokens costs
 * memory proportional to the bound only.
 */
export class VerifiedTokenCache<Claims extends { exp: number }> {
  readonly #entries = new Map<string, Claims>();

  constructor(private readonly maxEntries = 10_000) {}

  /** The claims of a token verified before and not expired at `nowSeconds`; undefined otherwise. */
  get(token: string, nowSeconds: number): Claims | undefined {
    const claims = this.#entries.get(token);
    if (claims === undefined) return undefined;
    // Same rule as jose with no clock tolerance: expired once `exp` is reached.
    if (claims.exp <= nowSeconds) {
      this.#entries.delete(token);
      return undefined;
    }
    return claims;
  }

  set(token: string, claims: Claims): void {
    if (this.#entries.size >= this.maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(token, claims);
  }

  get size(): number {
    return this.#entries.size;
  }
}

import path from 'node:path';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  SignJWT,
  errors as joseErrors,
  type CryptoKey,
  type JWK,
} from 'jose';
import { idTokenClaimsSchema, type IdTokenClaims } from '@sf/contract/auth';
import { VerifiedTokenCache } from './verified-token-cache.ts';

const ALGORITHM = 'EdDSA';
/** The `typ` header of our ID tokens; a token we signed for anything else must not pass for one. */
export const ID_TOKEN_TYPE = 'JWT';

export type TokenSigner = {
  /** The public keys as a JWKS document (`/api/auth/jwks.json`). */
  jwks: { keys: JWK[] };
  sign(claims: Omit<IdTokenClaims, 'iat' | 'exp' | 'iss' | 'aud'>, options?: { ttlSeconds?: number; now?: Date }): Promise<string>;
  /** Resolves to the claims, or rejects with `TokenError` saying whether the token expired or is invalid. */
  verify(token: string): Promise<IdTokenClaims>;
  ttlSeconds: number;
};

export class TokenError extends Error {
  constructor(readonly reason: 'expired' | 'invalid') {
    super(reason === 'expired' ? 'The token has expired' : 'The token is not valid');
  }
}

/**
 * The private key comes from configuration or is generated once and kept (mode 0600) in the data
 * directory, so tokens survive restarts and several API processes can share the key.
 */
async function loadPrivateJwk(dataDir: string, configured: string | undefined): Promise<JWK> {
  if (configured) return JSON.parse(configured) as JWK;
  const file = path.join(dataDir, 'keys', 'id-token-signing.jwk.json');
  try {
    return JSON.parse(await readFile(file, 'utf8')) as JWK;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const { privateKey } = await generateKeyPair(ALGORITHM, { crv: 'Ed25519', extractable: true });
  const jwk = await exportJWK(privateKey);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  // `wx`: when two processes start together, only one writes; the other reads the winner's key.
  try {
    await writeFile(file, JSON.stringify(jwk), { mode: 0o600, flag: 'wx' });
    return jwk;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return JSON.parse(await readFile(file, 'utf8')) as JWK;
  }
}

export async function createTokenSigner(options: {
  dataDir: string;
  privateJwk?: string | undefined;
  issuer: string;
  audience: string;
  ttlSeconds: number;
}): Promise<TokenSigner> {
  const privateJwk = await loadPrivateJwk(options.dataDir, options.privateJwk);
  const { d: _private, ...publicJwk } = privateJwk;
  const kid = await calculateJwkThumbprint(publicJwk);
  const privateKey = (await importJWK(privateJwk, ALGORITHM)) as CryptoKey;
  const publicKey = (await importJWK(publicJwk, ALGORITHM)) as CryptoKey;
  const verified = new VerifiedTokenCache<IdTokenClaims>();

  return {
    jwks: { keys: [{ ...publicJwk, kid, alg: ALGORITHM, use: 'sig' }] },
    ttlSeconds: options.ttlSeconds,
    async sign(claims, signOptions = {}) {
      const now = Math.floor((signOptions.now ?? new Date()).getTime() / 1000);
      return new SignJWT({ email: claims.email, name: claims.name, role: claims.role, ...(claims.sid ? { sid: claims.sid } : {}) })
        .setProtectedHeader({ alg: ALGORITHM, kid, typ: ID_TOKEN_TYPE })
        .setSubject(claims.sub)
        .setIssuer(options.issuer)
        .setAudience(options.audience)
        .setIssuedAt(now)
        .setExpirationTime(now + (signOptions.ttlSeconds ?? options.ttlSeconds))
        .sign(privateKey);
    },
    async verify(token) {
      const known = verified.get(token, Math.floor(Date.now() / 1000));
      if (known) return { ...known };
      try {
        const { payload } = await jwtVerify(token, publicKey, {
          issuer: options.issuer,
          audience: options.audience,
          algorithms: [ALGORITHM],
          typ: ID_TOKEN_TYPE,
          clockTolerance: 0,
        });
        const parsed = idTokenClaimsSchema.safeParse(payload);
        if (!parsed.success) throw new TokenError('invalid');
        verified.set(token, parsed.data);
        return parsed.data;
      } catch (error) {
        if (error instanceof TokenError) throw error;
        if (error instanceof joseErrors.JWTExpired) throw new TokenError('expired');
        throw new TokenError('invalid');
      }
    },
  };
}

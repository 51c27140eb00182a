import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenSigner, TokenError, type TokenSigner } from './token-signer.ts';
import { VerifiedTokenCache } from './verified-token-cache.ts';

describe('VerifiedTokenCache', () => {
  it('gives back the claims until the expiry second, then forgets them', () => {
    const cache = new VerifiedTokenCache<{ exp: number; sub: string }>();
    cache.set('a', { exp: 100, sub: 'x' });
    expect(cache.get('a', 99)).toEqual({ exp: 100, sub: 'x' });
    expect(cache.get('a', 100)).toBeUndefined();
    expect(cache.size).toBe(0);
    expect(cache.get('never-seen', 0)).toBeUndefined();
  });

  it('keeps at most its bound, dropping the oldest entry', () => {
    const cache = new VerifiedTokenCache<{ exp: number }>(2);
    cache.set('first', { exp: 10 });
    cache.set('second', { exp: 10 });
    cache.set('third', { exp: 10 });
    expect(cache.size).toBe(2);
    expect(cache.get('first', 0)).toBeUndefined();
    expect(cache.get('third', 0)).toEqual({ exp: 10 });
  });
});

describe('token signer with its verified-token cache', () => {
  let dataDir: string;
  let signer: TokenSigner;
  const claims = { sub: '00000000-0000-4000-8000-000000000001', email: 'a@demo.test', name: 'A', role: 'admin' as const };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'sf-signer-'));
    signer = await createTokenSigner({ dataDir, issuer: 'sf-test', audience: 'sf-test', ttlSeconds: 3600 });
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('verifies the same token again with the same claims, and a copy each time', async () => {
    const token = await signer.sign(claims);
    const first = await signer.verify(token);
    const second = await signer.verify(token);
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    expect(second.sub).toBe(claims.sub);
  });

  it('still refuses a token whose signature was tampered with after a good one was cached', async () => {
    const token = await signer.sign(claims);
    await signer.verify(token);
    const [header, payload, signature = ''] = token.split('.');
    const tampered = `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    await expect(signer.verify(tampered)).rejects.toEqual(new TokenError('invalid'));
  });

  it('answers expired for a cached token once its lifetime has passed', async () => {
    // exp is in whole seconds: a 1-second token signed late in a second expires within milliseconds, and
    // the first verify failed (once in CI). Two seconds leave it at least one second of life.
    const token = await signer.sign(claims, { ttlSeconds: 2 });
    await signer.verify(token);
    await new Promise((resolve) => setTimeout(resolve, 3100));
    await expect(signer.verify(token)).rejects.toMatchObject({ reason: 'expired' });
  });
});

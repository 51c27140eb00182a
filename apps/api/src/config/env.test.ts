import { afterEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helper.ts';
import { loadEnv } from './env.ts';

/** Three forgot-password requests from "different clients" behind one proxy, with a limit of 2 per client. */
async function statusesBehindProxy(ctx: TestContext): Promise<number[]> {
  const statuses: number[] = [];
  for (const client of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
    const response = await ctx.request({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: 'nobody@demo.test' },
      headers: { 'x-forwarded-for': client },
    });
    statuses.push(response.statusCode);
  }
  return statuses;
}

describe('TRUST_PROXY', () => {
  let ctx: TestContext | undefined;
  afterEach(() => ctx?.close());

  it('ignores X-Forwarded-For by default, so a client cannot dodge the rate limit by forging it', async () => {
    ctx = await createTestContext({ seed: false, env: { AUTH_RATE_LIMIT: '2' } });
    expect(await statusesBehindProxy(ctx)).toEqual([200, 200, 429]);
  });

  it('counts each forwarded client apart when the proxy is trusted', async () => {
    ctx = await createTestContext({ seed: false, env: { AUTH_RATE_LIMIT: '2', TRUST_PROXY: '127.0.0.1' } });
    expect(await statusesBehindProxy(ctx)).toEqual([200, 200, 200]);
  });
});

describe('AUTH_PROVIDER', () => {
  it('refuses to start with a provider that is not built, instead of silently using the built-in one', () => {
    expect(() => loadEnv({ AUTH_PROVIDER: 'firebase' })).toThrow(/AUTH_PROVIDER/);
    expect(loadEnv({}).AUTH_PROVIDER).toBe('builtin');
  });
});

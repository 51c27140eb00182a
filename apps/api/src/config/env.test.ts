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

describe('production settings', () => {
  const production = { NODE_ENV: 'production', APP_URL: 'https://backoffice.example.test', SMTP_URL: 'smtp://mail.example.test:587' };

  it('refuses to start without SMTP_URL, naming it', () => {
    const { SMTP_URL: _smtp, ...withoutSmtp } = production;
    expect(() => loadEnv(withoutSmtp)).toThrow(/SMTP_URL: required in production/);
  });

  it('refuses to start without APP_URL or with a plain http one, naming it', () => {
    const { APP_URL: _url, ...withoutUrl } = production;
    expect(() => loadEnv(withoutUrl)).toThrow(/APP_URL: required in production, an https:\/\/ address/);
    expect(() => loadEnv({ ...production, APP_URL: 'http://backoffice.example.test' })).toThrow(/APP_URL/);
  });

  it('starts with both set, and keeps the development defaults outside production', () => {
    expect(loadEnv(production).isProduction).toBe(true);
    expect(loadEnv({}).APP_URL).toBe('http://localhost:3000');
  });
});

describe('AUTH_PROVIDER', () => {
  it('refuses to start with a provider that is not built, instead of silently using the built-in one', () => {
    expect(() => loadEnv({ AUTH_PROVIDER: 'firebase' })).toThrow(/AUTH_PROVIDER/);
    expect(loadEnv({}).AUTH_PROVIDER).toBe('builtin');
  });
});

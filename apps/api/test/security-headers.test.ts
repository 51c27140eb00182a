import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helper.ts';

function directives(csp: string | undefined): Map<string, string> {
  return new Map(
    String(csp ?? '')
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const [name = '', ...values] = part.split(/\s+/);
        return [name, values.join(' ')] as const;
      }),
  );
}

describe('security headers', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ seed: false });
  });
  afterAll(() => ctx.close());

  it.each([
    ['a success', '/api/healthz'],
    ['an error', '/api/no-such-route'],
  ])('sends a strict CSP, nosniff and no-referrer on %s', async (_kind, url) => {
    const response = await ctx.request({ method: 'GET', url });
    const csp = directives(response.headers['content-security-policy'] as string);
    expect(csp.get('object-src')).toBe("'none'");
    expect(csp.get('base-uri')).toBe("'none'");
    expect(csp.get('frame-ancestors')).toBe("'none'");
    expect(csp.get('script-src')).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
  });

  it.each([
    ['a success', '/api/healthz'],
    ['an error', '/api/no-such-route'],
  ])('forbids caching of %s from the API', async (_kind, url) => {
    const response = await ctx.request({ method: 'GET', url });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('sends no HSTS outside production, where the app may run on plain http://localhost', async () => {
    const response = await ctx.request({ method: 'GET', url: '/api/healthz' });
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('sends HSTS in production', async () => {
    const production = await createTestContext({
      seed: false,
      env: {
        NODE_ENV: 'production',
        CSRF_SECRET: 'a-production-secret-of-at-least-32-characters',
        APP_URL: 'https://backoffice.example.test',
        SMTP_URL: 'smtp://127.0.0.1:1',
      },
    });
    try {
      const response = await production.request({ method: 'GET', url: '/api/healthz' });
      expect(response.headers['strict-transport-security']).toMatch(/max-age=\d{7,}/);
    } finally {
      await production.close();
    }
  });
});

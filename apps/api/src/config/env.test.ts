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
  it('is the built-in provider by default and refuses one that does not exist', () => {
    expect(loadEnv({}).AUTH_PROVIDER).toBe('builtin');
    expect(() => loadEnv({ AUTH_PROVIDER: 'keycloak' })).toThrow(/AUTH_PROVIDER/);
  });

  it('firebase: refuses to start without what it needs, naming each setting', () => {
    expect(() => loadEnv({ AUTH_PROVIDER: 'firebase' })).toThrow(/FIREBASE_PROJECT_ID: required with AUTH_PROVIDER=firebase/);
    const real = () => loadEnv({ AUTH_PROVIDER: 'firebase', FIREBASE_PROJECT_ID: 'fidelity-prod' });
    expect(real).toThrow(/FIREBASE_API_KEY: required with AUTH_PROVIDER=firebase on a real project/);
    expect(real).toThrow(/FIREBASE_SERVICE_ACCOUNT: required/);
    expect(() => loadEnv({ AUTH_PROVIDER: 'firebase', FIREBASE_PROJECT_ID: 'Not A Project!' })).toThrow(/FIREBASE_PROJECT_ID: not a Firebase project id/);
    expect(() => loadEnv({ AUTH_PROVIDER: 'firebase', FIREBASE_PROJECT_ID: 'demo-x', FIREBASE_AUTH_EMULATOR_HOST: 'http://x' })).toThrow(
      /FIREBASE_AUTH_EMULATOR_HOST: expected host:port/,
    );
    // A demo project exists only in the emulator.
    expect(() => loadEnv({ AUTH_PROVIDER: 'firebase', FIREBASE_PROJECT_ID: 'demo-x', FIREBASE_API_KEY: 'k', FIREBASE_SERVICE_ACCOUNT: '{}' })).toThrow(
      /FIREBASE_PROJECT_ID: a demo-… project exists only in the emulator/,
    );
  });

  it('firebase: starts on the emulator with a project id, or on a real project with its key and service account; never the emulator in production', () => {
    expect(loadEnv({ AUTH_PROVIDER: 'firebase', FIREBASE_PROJECT_ID: 'demo-x', FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' }).AUTH_PROVIDER).toBe('firebase');
    const real = { AUTH_PROVIDER: 'firebase', FIREBASE_PROJECT_ID: 'fidelity-prod', FIREBASE_API_KEY: 'AIza-key' };
    expect(loadEnv({ ...real, FIREBASE_SERVICE_ACCOUNT: '/etc/sf/firebase.json' }).FIREBASE_PROJECT_ID).toBe('fidelity-prod');
    expect(loadEnv({ ...real, GOOGLE_APPLICATION_CREDENTIALS: '/etc/sf/firebase.json' }).FIREBASE_PROJECT_ID).toBe('fidelity-prod');
    const production = { NODE_ENV: 'production', SMTP_URL: 'smtp://mail', APP_URL: 'https://bo.example.it' };
    expect(() =>
      loadEnv({ ...production, AUTH_PROVIDER: 'firebase', FIREBASE_PROJECT_ID: 'demo-x', FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' }),
    ).toThrow(/FIREBASE_AUTH_EMULATOR_HOST: not allowed in production/);
  });
});

describe('DEMO_LOYALTY', () => {
  it('loads the loyalty demo by default; false keeps the demo to staff and news; a bad value is refused, naming it', () => {
    expect(loadEnv({}).DEMO_LOYALTY).toBe(true);
    expect(loadEnv({ DEMO_LOYALTY: 'false' }).DEMO_LOYALTY).toBe(false);
    expect(loadEnv({ DEMO_LOYALTY: '0' }).DEMO_LOYALTY).toBe(false);
    expect(loadEnv({ DEMO_LOYALTY: 'true' }).DEMO_LOYALTY).toBe(true);
    expect(() => loadEnv({ DEMO_LOYALTY: 'maybe' })).toThrow(/DEMO_LOYALTY/);
  });
});

describe('DATABASE_READ_URL', () => {
  it('needs DATABASE_URL (the embedded database has no replica); REPLICA_MAX_LAG_MS defaults to 5 s', () => {
    expect(() => loadEnv({ DATABASE_READ_URL: 'postgres://replica/sf' })).toThrow(/DATABASE_READ_URL: needs DATABASE_URL/);
    const env = loadEnv({ DATABASE_URL: 'postgres://primary/sf', DATABASE_READ_URL: 'postgres://replica/sf' });
    expect(env.REPLICA_MAX_LAG_MS).toBe(5000);
    expect(() => loadEnv({ REPLICA_MAX_LAG_MS: '10' })).toThrow(/REPLICA_MAX_LAG_MS/);
  });
});

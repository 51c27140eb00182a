import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, testDatabaseKind, type TestContext } from '../../../test/helper.ts';

describe('health routes', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ seed: false });
  });
  afterAll(() => ctx.close());

  it('answers /api/healthz without a token', async () => {
    const response = await ctx.request({ method: 'GET', url: '/api/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('reports the database kind it reached on /api/readyz', async () => {
    const response = await ctx.request({ method: 'GET', url: '/api/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ready', database: testDatabaseKind });
  });

  it('answers 503 on /api/readyz when the database is gone', async () => {
    const other = await createTestContext({ seed: false });
    await other.app.database.close();
    const response = await other.app.inject({ method: 'GET', url: '/api/readyz' });
    expect(response.statusCode).toBe(503);
    expect(response.json().error.code).toBe('unavailable');
    await other.app.close();
  });
});

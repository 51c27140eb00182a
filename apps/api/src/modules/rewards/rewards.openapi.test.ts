import { afterAll, expect, it } from 'vitest';
import { createTestContext } from '../../../test/helper.ts';

const ctx = await createTestContext({ seed: false });
afterAll(() => ctx.close());

it('documents the rewards, vouchers, redemptions and social proofs routes in the OpenAPI document', async () => {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(res.statusCode).toBe(200);
  const paths = Object.keys(res.json().paths);
  for (const path of ['/api/admin/rewards', '/api/admin/redemptions', '/api/admin/vouchers/{code}/use', '/api/admin/social-proofs/decisions']) {
    expect(paths).toContain(path);
  }
});

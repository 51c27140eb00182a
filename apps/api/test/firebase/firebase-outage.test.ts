import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createTestContext, type TestContext } from '../helper.ts';
import { freePort } from '../free-port.ts';

/**
 * Firebase out of reach (its address answers nothing): the identity endpoints say 503 `unavailable`,
 * not "wrong password" and not a 500. Its own file: the Admin SDK takes the emulator's address from the
 * process environment, which the shared-emulator tests of the other file must keep.
 */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({
    seed: false,
    env: {
      AUTH_PROVIDER: 'firebase',
      FIREBASE_PROJECT_ID: inject('firebaseProjectId'),
      FIREBASE_AUTH_EMULATOR_HOST: `127.0.0.1:${await freePort()}`,
    },
  });
});

afterAll(async () => {
  await ctx?.close();
});

it('answers 503 unavailable for a sign-in and a refresh while Firebase cannot be reached', async () => {
  const signIn = await ctx.request({ method: 'POST', url: '/api/auth/login', payload: { email: 'anna@firebase.test', password: 'Lungo-caffe-2026' } });
  expect(signIn.statusCode).toBe(503);
  expect(signIn.json().error.code).toBe('unavailable');
  const refresh = await ctx.request({ method: 'POST', url: '/api/auth/token', payload: { grant_type: 'refresh_token', refresh_token: 'some-token' } });
  expect(refresh.statusCode).toBe(503);
});

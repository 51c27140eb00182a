import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helper.ts';

/**
 * Forgery protection and `no-store` are decided by the route that matched, not by the URL string:
 * a percent-encoded path and an absolute-form request line reach /api routes without starting with
 * "/api/" (issue 6, item 6).
 */
describe('decisions by the matched route, not the URL string', () => {
  let ctx: TestContext;
  let port: number;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { RATE_LIMIT_ALLOW: '127.0.0.1' } });
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    port = (ctx.app.server.address() as AddressInfo).port;
  });
  afterAll(() => ctx.close());

  /** Sends raw bytes on a real socket and resolves with the raw answer. */
  function raw(request: string): Promise<string> {
    return new Promise((resolve, reject) => {
      // Written, not ended: the server closes the connection after its answer (Connection: close).
      const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
      socket.on('end', () => resolve(answer));
      socket.on('error', reject);
    });
  }

  it('refuses a mutating request on a percent-encoded /api path without the forgery-protection pair', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/%61pi/auth/forgot-password', payload: { email: 'a@demo.test' } });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('csrf');
  });

  it('refuses it with an absolute-form request line too', async () => {
    const body = JSON.stringify({ email: 'a@demo.test' });
    const answer = await raw(
      `POST http://127.0.0.1:${port}/api/auth/forgot-password HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 403 /);
    expect(answer).toContain('"code":"csrf"');
  });

  it('marks a guarded answer reached by an encoded path or an absolute-form line no-store', async () => {
    const token = await ctx.tokenFor('admin@demo.test');
    const encoded = await ctx.request({ method: 'GET', url: '/%61pi/admin/me', token });
    expect(encoded.statusCode).toBe(200);
    expect(encoded.headers['cache-control']).toBe('no-store');
    const answer = await raw(
      `GET http://127.0.0.1:${port}/api/admin/me HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Auth-Token: ${token}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toMatch(/\r\ncache-control: no-store\r\n/i);
  });
});

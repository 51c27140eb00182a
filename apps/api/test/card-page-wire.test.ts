import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerDatabase, type ServerDatabase } from './helper.ts';
import { createLedgerFixture, type LedgerFixture } from './ledger-fixtures.ts';
import { openClient, startServer, type ServerProcess } from './server-process.ts';
import { createWalletFixtures, type WalletFixtures } from './wallet-fixtures.ts';

const PASSWORD = 'Demo-Password-2026';
/** The budget for the card page: it opens on a phone on a poor network. */
const BUDGET_BYTES = 20 * 1024;

/** Every byte the server sent for one GET (status line, headers, body as sent), on a fresh connection. */
function bytesOnTheWire(url: string, headers: Record<string, string>): Promise<{ status: number; bytes: number; encoding: string | undefined }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { connection: 'close', ...headers }, agent: false }, (response) => {
      response.resume();
      response.on('end', () => {
        const socket = response.socket;
        // The socket has read everything once the server closed it.
        socket.once('close', () => resolve({ status: response.statusCode ?? 0, bytes: socket.bytesRead, encoding: response.headers['content-encoding'] }));
        if (socket.destroyed) resolve({ status: response.statusCode ?? 0, bytes: socket.bytesRead, encoding: response.headers['content-encoding'] });
      });
    });
    request.on('error', reject);
  });
}

/**
 * The card page through the REAL server (issue 27): what a phone downloads, counted on the socket,
 * with the wallet buttons shown (both wallets configured) — the page's largest form.
 */
describe('the card page on the wire', () => {
  let database: ServerDatabase | undefined;
  let server: ServerProcess | undefined;
  let wallet: WalletFixtures;
  let fx: LedgerFixture;

  beforeAll(async () => {
    wallet = createWalletFixtures();
    // Already migrated (the run's migrated PGlite, or a copy of the PostgreSQL template): migrating a
    // fresh embedded database here took seconds of WebAssembly, and the migrations are not this test's
    // subject. On api-postgres the server now runs on PostgreSQL, as that project means.
    database = await createServerDatabase('card-wire');
    const own = await database.open();
    fx = await createLedgerFixture(own.db, { customers: 1 });
    await own.close();
    server = await startServer({ dataDir: database.dataDir, env: { ...database.env, ...wallet.env({ APP_URL: 'http://127.0.0.1' }) } });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    wallet?.remove();
    await database?.remove();
  });

  it('weighs under 20 KiB compressed, and under 20 KiB even uncompressed', { timeout: 60_000 }, async () => {
    const client = await openClient(server!.baseUrl);
    const signIn = await client.request('POST', '/api/auth/login', { body: { email: 'admin@demo.test', password: PASSWORD } });
    expect(signIn.status, server!.output()).toBe(200);
    const { idToken } = (await signIn.json()) as { idToken: string };
    const purchase = await client.request('POST', '/api/admin/ledger', {
      token: idToken,
      body: { customerId: fx.customerIds[0], programId: fx.pointsProgramId, merchantId: fx.merchantId, kind: 'purchase', amountCents: 12_345 },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(purchase.status).toBe(201);
    const { entry } = (await purchase.json()) as { entry: { membershipId: string } };
    const link = await client.request('GET', `/api/admin/memberships/${entry.membershipId}/card-link`, { token: idToken });
    const { url } = (await link.json()) as { url: string };
    const pagePath = new URL(url).pathname;

    const compressed = await bytesOnTheWire(`${server!.baseUrl}${pagePath}`, { 'accept-encoding': 'br, gzip', 'accept-language': 'it-IT,it;q=0.9' });
    const plain = await bytesOnTheWire(`${server!.baseUrl}${pagePath}`, { 'accept-language': 'it-IT,it;q=0.9' });
    console.log(`card page on the wire: ${compressed.bytes} bytes (${compressed.encoding}), ${plain.bytes} bytes uncompressed`);
    expect(compressed.status).toBe(200);
    expect(compressed.encoding).toBe('br');
    expect(compressed.bytes).toBeLessThan(BUDGET_BYTES);
    expect(plain.bytes).toBeLessThan(BUDGET_BYTES);
    // The page shows the purchase's 123 points and both wallet buttons.
    const html = await (await fetch(`${server!.baseUrl}${pagePath}`)).text();
    expect(html).toContain('<p class="balance">123</p>');
    expect(html).toContain('Aggiungi a Apple Wallet');
    expect(html).toContain('Salva in Google Wallet');
  });
});

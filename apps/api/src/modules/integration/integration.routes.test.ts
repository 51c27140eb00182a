import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import SwaggerParser from '@apidevtools/swagger-parser';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture, type LedgerFixture } from '../../../test/ledger-fixtures.ts';

/**
 * The integration API black-box: a real HTTP port, real fetch, keys made through the admin API.
 */
async function listen(ctx: TestContext): Promise<string> {
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
}

type Answer = { status: number; headers: Headers; body: Record<string, unknown> };

function client(base: string) {
  return async (method: string, path: string, options: { key?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> => {
    const response = await fetch(`${base}/api/integration/v1${path}`, {
      method,
      headers: {
        ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...options.headers,
      },
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };
}

async function createKey(ctx: TestContext, adminToken: string, body: Record<string, unknown>) {
  const response = await ctx.request({ method: 'POST', url: '/api/admin/api-keys', token: adminToken, payload: body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { key: { id: string; name: string; prefix: string; lastUsedAt: string | null }; secret: string };
}

const rows = async <T>(ctx: TestContext, query: ReturnType<typeof sql>) => ((await ctx.app.db.execute(query)) as unknown as { rows: T[] }).rows;

/** What the customer's card QR code carries: `<number>-<code>` (decision record 030). */
async function scannedCard(ctx: TestContext, adminToken: string, customerId: string): Promise<string> {
  const response = await ctx.request({ method: 'GET', url: `/api/admin/customers/${customerId}/card`, token: adminToken });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().barcodeMessage as string;
}

describe('the integration API over HTTP', () => {
  let ctx: TestContext;
  let base: string;
  let call: ReturnType<typeof client>;
  let adminToken: string;
  let fx: LedgerFixture;
  let other: LedgerFixture;
  let cardNumber: string;

  beforeAll(async () => {
    ctx = await createTestContext({ seed: true });
    base = await listen(ctx);
    call = client(base);
    adminToken = await ctx.tokenFor('admin@demo.test');
    fx = await createLedgerFixture(ctx.app.db, { customers: 1 });
    other = await createLedgerFixture(ctx.app.db, { customers: 1 });
    const [row] = await rows<{ card_number: string }>(ctx, sql`select card_number from customers where id = ${fx.customerIds[0]!}`);
    cardNumber = row!.card_number;
  });
  afterAll(async () => ctx?.close());

  const purchase = (amountCents: number, extra: Record<string, unknown> = {}) => ({
    cardNumber,
    amountCents,
    programId: fx.pointsProgramId,
    ...extra,
  });

  it('shows the secret once, stores only its keyed hash, and lists the key without it', async () => {
    const created = await createKey(ctx, adminToken, { name: 'Cassa 1', kind: 'merchant', merchantId: fx.merchantId, scopes: ['purchases:write'] });
    expect(created.secret).toMatch(/^sfk_[A-Za-z0-9_-]{43}$/);
    expect(created.secret.startsWith(created.key.prefix)).toBe(true);
    const stored = await rows<Record<string, unknown>>(ctx, sql`select * from api_keys where id = ${created.key.id}`);
    expect(JSON.stringify(stored)).not.toContain(created.secret.slice(4));
    const list = await ctx.request({ method: 'GET', url: '/api/admin/api-keys?q=Cassa', token: adminToken });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(created.secret.slice(4));
    expect(list.json().items.map((item: { id: string }) => item.id)).toContain(created.key.id);
    const audit = await rows<{ action: string }>(ctx, sql`select action from audit_log where entity_id = ${created.key.id}`);
    expect(audit.map((row) => row.action)).toEqual(['apiKey.create']);
    // The export writes the kind and the scopes in words.
    const csv = await ctx.request({ method: 'GET', url: '/api/admin/api-keys/export.csv', token: adminToken });
    const line = csv.body.split('\r\n').find((row) => row.startsWith(`${created.key.name};`));
    expect(line).toMatch(/;Cassa di un esercente;[^;]*;Registrare acquisti;/);
  });

  it('refuses a request without a key, with an unknown key, or with a staff session token (401)', async () => {
    expect((await call('POST', '/purchases', { body: purchase(100), headers: { 'idempotency-key': randomUUID() } })).status).toBe(401);
    const unknown = await call('POST', '/purchases', { key: `sfk_${'x'.repeat(43)}`, body: purchase(100), headers: { 'idempotency-key': randomUUID() } });
    expect(unknown.status).toBe(401);
    expect((unknown.body['error'] as { code: string }).code).toBe('invalid_token');
    const staff = await call('GET', `/cards/${cardNumber}`, { key: adminToken });
    expect(staff.status).toBe(401);
  });

  it('records a purchase once per Idempotency-Key: the same answer again, one ledger entry; another body is 422', async () => {
    const { secret } = await createKey(ctx, adminToken, { name: 'Cassa 2', kind: 'merchant', merchantId: fx.merchantId, scopes: ['purchases:write', 'cards:read'] });
    const idempotencyKey = `cassa2-${randomUUID()}`;
    const first = await call('POST', '/purchases', { key: secret, body: purchase(2450, { receipt: 'R-1' }), headers: { 'idempotency-key': idempotencyKey } });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({ cardNumber, points: 24, balance: 24, merchantId: fx.merchantId, amountCents: 2450 });
    const again = await call('POST', '/purchases', { key: secret, body: purchase(2450, { receipt: 'R-1' }), headers: { 'idempotency-key': idempotencyKey } });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const entries = await rows<{ n: number; label: string }>(
      ctx,
      sql`select count(*)::int as n, max(created_by_label) as label from ledger_entries where customer_id = ${fx.customerIds[0]!} and kind = 'earn'`,
    );
    expect(entries[0]).toMatchObject({ n: 1 });
    expect(entries[0]!.label).toContain('Cassa 2');
    const reused = await call('POST', '/purchases', { key: secret, body: purchase(999), headers: { 'idempotency-key': idempotencyKey } });
    expect(reused.status).toBe(422);
    expect((reused.body['error'] as { code: string }).code).toBe('idempotency_key_reused');

    const card = await call('GET', `/cards/${cardNumber}`, { key: secret });
    expect(card.status).toBe(200);
    expect(card.body).toMatchObject({ cardNumber, initials: 'M. R.' });
    expect(JSON.stringify(card.body)).not.toContain('Rossi');
    const points = (card.body['memberships'] as { programId: string; balance: number }[]).find((m) => m.programId === fx.pointsProgramId);
    expect(points?.balance).toBe(24);
  });

  it('answers a body that is not JSON (a curl -d without a Content-Type sends a form) with 415 saying to send JSON, in the caller\'s language', async () => {
    const { secret } = await createKey(ctx, adminToken, { name: 'Cassa curl', kind: 'merchant', merchantId: fx.merchantId, scopes: ['purchases:write'] });
    const text = JSON.stringify(purchase(1000));
    const send = (type: string, language?: string) =>
      fetch(`${base}/api/integration/v1/purchases`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': type, 'idempotency-key': randomUUID(), ...(language ? { 'accept-language': language } : {}) },
        body: text,
      });
    const form = await send('application/x-www-form-urlencoded');
    expect(form.status).toBe(415);
    expect(((await form.json()) as { error: unknown }).error).toMatchObject({
      code: 'unsupported_media_type',
      message: 'Tipo di contenuto non supportato (application/x-www-form-urlencoded): invia il corpo in JSON, con l\'intestazione Content-Type: application/json',
    });
    const plain = await send('text/plain', 'en');
    expect(plain.status).toBe(415);
    expect(((await plain.json()) as { error: { message: string } }).error.message).toBe(
      'Unsupported content type (text/plain): send the body as JSON, with the header Content-Type: application/json',
    );
    const none = await rows<{ n: number }>(ctx, sql`select count(*)::int as n from ledger_entries where created_by_label like '%Cassa curl%'`);
    expect(none[0]!.n).toBe(0);
    const json = await send('application/json');
    expect(json.status).toBe(201);
    await json.arrayBuffer();
  });

  it('confines a key to its merchant: another merchant, or a program it is not part of, is 403', async () => {
    const { secret } = await createKey(ctx, adminToken, { name: 'Cassa 3', kind: 'merchant', merchantId: fx.merchantId, scopes: ['purchases:write', 'cards:read'] });
    const elsewhere = await call('POST', '/purchases', {
      key: secret,
      body: purchase(1000, { merchantId: other.merchantId }),
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(elsewhere.status).toBe(403);
    const foreignProgram = await call('POST', '/purchases', {
      key: secret,
      body: purchase(1000, { programId: other.pointsProgramId }),
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(foreignProgram.status).toBe(403);
    // The card as this merchant's till sees it: only its programs.
    const [row] = await rows<{ card_number: string }>(ctx, sql`select card_number from customers where id = ${other.customerIds[0]!}`);
    await ctx.request({
      method: 'POST',
      url: '/api/admin/ledger',
      token: adminToken,
      headers: { 'idempotency-key': randomUUID() },
      payload: { customerId: other.customerIds[0], programId: other.pointsProgramId, kind: 'purchase', amountCents: 500 },
    });
    // Another merchant's member, by number alone: answered as an unknown card (decision record 030).
    const foreignCard = await call('GET', `/cards/${row!.card_number}`, { key: secret });
    expect(foreignCard.status).toBe(404);
    // With the card's code (the card in hand) the till sees it, but none of the other merchant's programs.
    const foreignScanned = await call('GET', `/cards/${await scannedCard(ctx, adminToken, other.customerIds[0]!)}`, { key: secret });
    expect(foreignScanned.status).toBe(200);
    expect(foreignScanned.body['memberships']).toEqual([]);
    const none = await rows<{ n: number }>(ctx, sql`select count(*)::int as n from ledger_entries where merchant_id = ${other.merchantId}`);
    expect(none[0]!.n).toBe(0);
  });

  it('keeps a key within its scopes (403), and the app key never records purchases', async () => {
    const { secret } = await createKey(ctx, adminToken, { name: 'Solo lettura', kind: 'merchant', merchantId: fx.merchantId, scopes: ['cards:read'] });
    const refused = await call('POST', '/purchases', { key: secret, body: purchase(100), headers: { 'idempotency-key': randomUUID() } });
    expect(refused.status).toBe(403);
    expect((refused.body['error'] as { code: string }).code).toBe('forbidden');
    expect((await call('GET', `/cards/${cardNumber}`, { key: secret })).status).toBe(200);
    const appWithPurchases = await ctx.request({
      method: 'POST',
      url: '/api/admin/api-keys',
      token: adminToken,
      payload: { name: 'App', kind: 'app', scopes: ['purchases:write'] },
    });
    expect(appWithPurchases.statusCode).toBe(400);
    expect(appWithPurchases.json().error.fields.map((f: { field: string }) => f.field)).toEqual(['scopes']);
    const app = await createKey(ctx, adminToken, { name: 'App clienti', kind: 'app', scopes: ['cards:read'] });
    const appCard = await call('GET', `/cards/${await scannedCard(ctx, adminToken, fx.customerIds[0]!)}`, { key: app.secret });
    expect(appCard.status).toBe(200);
    expect((appCard.body['memberships'] as unknown[]).length).toBeGreaterThan(0);
  });

  it('refuses a revoked key on its very next request (401), and records the last use', async () => {
    const created = await createKey(ctx, adminToken, { name: 'Cassa 4', kind: 'merchant', merchantId: fx.merchantId, scopes: ['cards:read'] });
    expect((await call('GET', `/cards/${cardNumber}`, { key: created.secret })).status).toBe(200);
    const [used] = await rows<{ last_used_at: Date | null }>(ctx, sql`select last_used_at from api_keys where id = ${created.key.id}`);
    expect(used!.last_used_at).not.toBeNull();
    const revoked = await ctx.request({ method: 'DELETE', url: `/api/admin/api-keys/${created.key.id}`, token: adminToken });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toMatchObject({ status: 'revoked' });
    const after = await call('GET', `/cards/${cardNumber}`, { key: created.secret });
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('Bearer');
  });

  it('answers 404 for an unknown card and 400 naming the field for a malformed one, in Italian', async () => {
    const { secret } = await createKey(ctx, adminToken, { name: 'Cassa 5', kind: 'merchant', merchantId: fx.merchantId, scopes: ['purchases:write', 'cards:read'] });
    expect((await call('GET', '/cards/2799999999999', { key: secret })).status).toBe(404);
    const bad = await call('POST', '/purchases', { key: secret, body: { cardNumber, amountCents: -5 }, headers: { 'idempotency-key': randomUUID() } });
    expect(bad.status).toBe(400);
    const fields = (bad.body['error'] as { fields: { field: string; message: string }[] }).fields;
    expect(fields.map((f) => f.field)).toContain('amountCents');
    expect(fields[0]!.message).toMatch(/non è valid|minim|maggiore di zero/);
    const zero = await call('POST', '/purchases', { key: secret, body: { cardNumber, amountCents: 0 }, headers: { 'idempotency-key': randomUUID() } });
    expect(zero.status).toBe(400);
    expect((zero.body['error'] as { fields: { field: string; message: string }[] }).fields).toContainEqual({ field: 'amountCents', message: 'Importo deve essere maggiore di zero' });
  });

  it('publishes its own OpenAPI document, valid, only the integration paths, in Italian, with the error answers of each operation', async () => {
    const response = await fetch(`${base}/api/docs-integration/json`);
    expect(response.status).toBe(200);
    type Operation = { security?: Record<string, string[]>[]; responses: Record<string, { description: string; content?: Record<string, { schema: { properties: Record<string, { required?: string[] }> } }> }> };
    const doc = (await response.json()) as {
      info: { title: string; description: string };
      paths: Record<string, Record<string, Operation>>;
      components: { securitySchemes: Record<string, unknown> };
      security: Record<string, string[]>[];
    };
    await SwaggerParser.validate(structuredClone(doc) as never);
    expect(doc.info.title).toContain('API di integrazione');
    const paths = Object.keys(doc.paths);
    expect(paths).toContain('/api/integration/v1/purchases');
    expect(paths.every((path) => path.startsWith('/api/integration/v1'))).toBe(true);
    expect(JSON.stringify(doc.paths)).toContain('2026-000123');
    // The validator does not follow security names: a requirement naming no defined scheme made Swagger
    // UI's Authorize send no Authorization header, and code generators refuse such a document.
    const operations = Object.values(doc.paths).flatMap((methods) => Object.values(methods));
    const requirements = [...doc.security, ...operations.flatMap((operation) => operation.security ?? [])];
    expect(requirements.length).toBeGreaterThan(operations.length);
    for (const requirement of requirements) {
      for (const name of Object.keys(requirement)) expect(Object.keys(doc.components.securitySchemes)).toContain(name);
    }
    expect(doc.components.securitySchemes['integrationKey']).toMatchObject({ type: 'http', scheme: 'bearer' });
    // Every operation says how it can fail, in the one error shape.
    for (const operation of operations) {
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['401', '403', '429']));
    }
    const use = doc.paths['/api/integration/v1/vouchers/{code}/use']!['post']!;
    expect(Object.keys(use.responses).sort()).toEqual(['200', '400', '401', '403', '404', '409', '422', '429']);
    expect(use.responses['422']!.description).toContain('idempotency_key_reused');
    expect(use.responses['409']!.content!['application/json']!.schema.properties['error']!.required).toEqual(['code', 'message', 'requestId']);
    expect(Object.keys(doc.paths['/api/integration/v1/purchases']!['post']!.responses)).toEqual(expect.arrayContaining(['400', '404', '409', '415', '422']));
    // The language of the error texts is said.
    expect(doc.info.description).toContain('Accept-Language');
  });

  it('serves the interactive docs at the address the Chiavi API screen gives, with or without a trailing slash', async () => {
    for (const address of ['/api/docs-integration', '/api/docs-integration/']) {
      const page = await fetch(`${base}${address}`);
      expect(page.status).toBe(200);
      const html = await page.text();
      const assets = [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((match) => new URL(match[1]!, `${base}${address}`));
      expect(assets.map((asset) => asset.pathname)).toContain('/api/docs-integration/static/swagger-ui.css');
      for (const asset of assets) {
        const answer = await fetch(asset);
        // Read to the end, or the connection stays busy and the server cannot close.
        await answer.arrayBuffer();
        expect(answer.status, `${address}: ${asset.pathname}`).toBe(200);
      }
    }
  });
});

describe('keys of merchants that are not active', () => {
  let ctx: TestContext;
  let call: ReturnType<typeof client>;

  beforeAll(async () => {
    ctx = await createTestContext({ seed: true });
    call = client(await listen(ctx));
  });
  afterAll(async () => ctx?.close());

  it('stop acting while their merchant is suspended or archived, and no key can be created for such a merchant', async () => {
    const adminToken = await ctx.tokenFor('admin@demo.test');
    const fx = await createLedgerFixture(ctx.app.db, { customers: 1 });
    const [row] = await rows<{ card_number: string }>(ctx, sql`select card_number from customers where id = ${fx.customerIds[0]!}`);
    const { secret } = await createKey(ctx, adminToken, { name: 'Cassa', kind: 'merchant', merchantId: fx.merchantId, scopes: ['purchases:write'] });
    const buy = () =>
      call('POST', '/purchases', { key: secret, body: { cardNumber: row!.card_number, amountCents: 1000, programId: fx.pointsProgramId }, headers: { 'idempotency-key': randomUUID() } });
    expect((await buy()).status).toBe(201);
    for (const status of ['suspended', 'archived']) {
      await ctx.app.db.execute(sql`update merchants set status = ${status} where id = ${fx.merchantId}`);
      const refused = await buy();
      expect(refused.status, `${status}: ${JSON.stringify(refused.body)}`).toBe(403);
      expect((refused.body['error'] as { message: string }).message).toMatch(/sospeso o archiviato/);
      const created = await ctx.request({
        method: 'POST',
        url: '/api/admin/api-keys',
        token: adminToken,
        payload: { name: 'Altra cassa', kind: 'merchant', merchantId: fx.merchantId, scopes: ['purchases:write'] },
      });
      expect(created.statusCode, status).toBe(400);
      expect(created.json().error.fields).toEqual([{ field: 'merchantId', message: 'Esercente: scegli un esercente attivo (uno sospeso o archiviato non può avere chiavi)' }]);
    }
    const entries = await rows<{ n: number }>(ctx, sql`select count(*)::int as n from ledger_entries where merchant_id = ${fx.merchantId}`);
    expect(entries[0]!.n).toBe(1);
    await ctx.app.db.execute(sql`update merchants set status = 'active' where id = ${fx.merchantId}`);
    expect((await buy()).status).toBe(201);
  });
});

describe('rewards, vouchers and proofs through the integration API', () => {
  let ctx: TestContext;
  let call: ReturnType<typeof client>;
  let base: string;
  let adminToken: string;
  let fx: LedgerFixture;
  let other: LedgerFixture;
  let cardNumber: string;
  let scanned = '';

  beforeAll(async () => {
    ctx = await createTestContext({ seed: true });
    base = await listen(ctx);
    call = client(base);
    adminToken = await ctx.tokenFor('admin@demo.test');
    fx = await createLedgerFixture(ctx.app.db, { customers: 1 });
    other = await createLedgerFixture(ctx.app.db, { customers: 1 });
    const [row] = await rows<{ card_number: string }>(ctx, sql`select card_number from customers where id = ${fx.customerIds[0]!}`);
    cardNumber = row!.card_number;
    scanned = await scannedCard(ctx, adminToken, fx.customerIds[0]!);
  });
  afterAll(async () => ctx?.close());

  const reward = async (programId: string, cost: number) => {
    const response = await ctx.request({ method: 'POST', url: '/api/admin/rewards', token: adminToken, payload: { programId, name: 'Cappuccino omaggio', cost, status: 'active' } });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id as string;
  };

  it('redeems a reward for a card (once per Idempotency-Key), then checks and uses the voucher once at the till', async () => {
    const till = await createKey(ctx, adminToken, {
      name: 'Cassa premi',
      kind: 'merchant',
      merchantId: fx.merchantId,
      scopes: ['purchases:write', 'cards:read', 'rewards:redeem', 'vouchers:use'],
    });
    const rewardId = await reward(fx.pointsProgramId, 30);
    await call('POST', '/purchases', { key: till.secret, body: { cardNumber, amountCents: 5000, programId: fx.pointsProgramId }, headers: { 'idempotency-key': randomUUID() } });

    const card = await call('GET', `/cards/${cardNumber}`, { key: till.secret });
    expect(card.body['rewardsWithinReach']).toEqual([
      expect.objectContaining({ id: rewardId, costPoints: 30, isAffordable: true, missing: 0 }),
    ]);

    const key = `premio-${randomUUID()}`;
    const redeemed = await call('POST', '/redemptions', { key: till.secret, body: { cardNumber: scanned, rewardId }, headers: { 'idempotency-key': key } });
    expect(redeemed.status, JSON.stringify(redeemed.body)).toBe(201);
    expect(redeemed.body).toMatchObject({ points: -30, balance: 20 });
    const again = await call('POST', '/redemptions', { key: till.secret, body: { cardNumber: scanned, rewardId }, headers: { 'idempotency-key': key } });
    expect(again.body).toEqual(redeemed.body);
    const code = (redeemed.body['voucher'] as { code: string }).code;
    // Redeemed at this merchant's till: the entry says so, and the dashboard filtered to the merchant counts it.
    const [entry] = await rows<{ merchant_id: string | null }>(ctx, sql`select merchant_id from ledger_entries where id = ${redeemed.body['entryId'] as number}`);
    expect(entry!.merchant_id).toBe(fx.merchantId);
    const dashboard = await ctx.request({ method: 'GET', url: `/api/admin/dashboard?merchantId=${fx.merchantId}`, token: adminToken });
    expect(dashboard.json().period).toMatchObject({ merchantId: fx.merchantId, redemptions: 1, pointsRedeemed: 30 });

    const checked = await call('GET', `/vouchers/${code}`, { key: till.secret });
    expect(checked.status).toBe(200);
    expect(checked.body).toMatchObject({ code, status: 'issued', usable: true });
    expect(checked.body).not.toHaveProperty('customerId');
    const used = await call('POST', `/vouchers/${code}/use`, { key: till.secret });
    expect(used.status).toBe(200);
    // A till that trusts `usable` must not offer the voucher again: the answer says what a check now says.
    expect(used.body).toMatchObject({ status: 'used', usable: false, reason: 'voucher_used' });
    const { usedAt: _usedAt, ...checkedAfter } = (await call('GET', `/vouchers/${code}`, { key: till.secret })).body;
    expect(used.body).toMatchObject(checkedAfter);
    const twice = await call('POST', `/vouchers/${code}/use`, { key: till.secret });
    expect(twice.status).toBe(409);
    expect((twice.body['error'] as { code: string }).code).toBe('voucher_used');
  });

  it('answers a till retrying a voucher use with the same Idempotency-Key with its first answer, and uses it once under parallel retries', async () => {
    const till = await createKey(ctx, adminToken, {
      name: 'Cassa che ripete',
      kind: 'merchant',
      merchantId: fx.merchantId,
      scopes: ['purchases:write', 'rewards:redeem', 'vouchers:use'],
    });
    const rewardId = await reward(fx.pointsProgramId, 1);
    await call('POST', '/purchases', { key: till.secret, body: { cardNumber, amountCents: 1000, programId: fx.pointsProgramId }, headers: { 'idempotency-key': randomUUID() } });
    const voucherCode = async () => {
      const redeemed = await call('POST', '/redemptions', { key: till.secret, body: { cardNumber: scanned, rewardId }, headers: { 'idempotency-key': randomUUID() } });
      expect(redeemed.status, JSON.stringify(redeemed.body)).toBe(201);
      return (redeemed.body['voucher'] as { code: string }).code;
    };
    const use = (code: string, idempotencyKey?: string) =>
      call('POST', `/vouchers/${code}/use`, { key: till.secret, ...(idempotencyKey ? { headers: { 'idempotency-key': idempotencyKey } } : {}) });
    const uses = async (code: string) =>
      (await rows<{ n: number }>(ctx, sql`select count(*)::int as n from audit_log a join vouchers v on v.id::text = a.entity_id where a.action = 'voucher.use' and v.code = ${code}`))[0]!.n;

    // A retry after a lost answer: the first answer again, not 409 voucher_used.
    const code = await voucherCode();
    const key = `uso-${randomUUID()}`;
    const first = await use(code, key);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ status: 'used', usable: false });
    const retry = await use(code, key);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await uses(code)).toBe(1);
    // The same key for another voucher is another request: 422. A use without the key is refused as before.
    const reused = await use(await voucherCode(), key);
    expect(reused.status).toBe(422);
    expect((reused.body['error'] as { code: string }).code).toBe('idempotency_key_reused');
    const anotherTill = await use(code);
    expect(anotherTill.status).toBe(409);
    expect((anotherTill.body['error'] as { code: string }).code).toBe('voucher_used');

    // Ten copies of one use at once (a till retrying before its first answer came): one use; each copy is
    // answered the use or, while its twin still runs, 409 idempotency_key_in_flight — never voucher_used.
    const raced = await voucherCode();
    const racedKey = `uso-${randomUUID()}`;
    const answers = await Promise.all(Array.from({ length: 10 }, () => use(raced, racedKey)));
    const succeeded = answers.filter((answer) => answer.status === 200);
    expect(succeeded.length).toBeGreaterThan(0);
    for (const answer of succeeded) expect(answer.body).toEqual(succeeded[0]!.body);
    expect(answers.filter((answer) => answer.status !== 200).map((answer) => (answer.body['error'] as { code: string }).code)).toEqual(
      Array.from({ length: 10 - succeeded.length }, () => 'idempotency_key_in_flight'),
    );
    expect(await uses(raced)).toBe(1);
    const afterRace = await use(raced, racedKey);
    expect(afterRace.status).toBe(200);
    expect(afterRace.body).toEqual(succeeded[0]!.body);
  });

  it('confines rewards and vouchers to the key\'s merchant', async () => {
    const till = await createKey(ctx, adminToken, { name: 'Cassa altrove', kind: 'merchant', merchantId: other.merchantId, scopes: ['rewards:redeem', 'vouchers:use'] });
    const rewardId = await reward(fx.pointsProgramId, 1);
    const redeemed = await call('POST', '/redemptions', { key: till.secret, body: { cardNumber: scanned, rewardId }, headers: { 'idempotency-key': randomUUID() } });
    expect(redeemed.status).toBe(403);
    // A voucher of fx's program, checked at the other merchant: not usable there.
    const home = await createKey(ctx, adminToken, { name: 'Cassa casa', kind: 'merchant', merchantId: fx.merchantId, scopes: ['rewards:redeem'] });
    const ok = await call('POST', '/redemptions', { key: home.secret, body: { cardNumber: scanned, rewardId }, headers: { 'idempotency-key': randomUUID() } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const code = (ok.body['voucher'] as { code: string }).code;
    // A voucher of a program the merchant is not part of: answered exactly as an unknown code (no
    // existence or validity oracle for another merchant's codes).
    const unknown = await call('GET', '/vouchers/ZZZZZZZZZZ', { key: till.secret });
    expect(unknown.status).toBe(404);
    const without = (answer: { status: number; body: Record<string, unknown> }) => {
      const { requestId: _requestId, ...error } = answer.body['error'] as Record<string, unknown>;
      return { status: answer.status, error };
    };
    const checked = await call('GET', `/vouchers/${code}`, { key: till.secret });
    expect(without(checked)).toEqual(without(unknown));
    expect(without(await call('POST', `/vouchers/${code}/use`, { key: till.secret }))).toEqual(without(await call('POST', '/vouchers/ZZZZZZZZZZ/use', { key: till.secret })));
    // The app's key has no merchant: it may not use vouchers at a till.
    const app = await createKey(ctx, adminToken, { name: 'App', kind: 'app', scopes: ['vouchers:use'] });
    expect((await call('GET', `/vouchers/${code}`, { key: app.secret })).status).toBe(403);
  });

  it('files a proof by link, and one by uploaded screenshot, into the Approvazioni queue', async () => {
    const app = await createKey(ctx, adminToken, { name: 'App clienti', kind: 'app', scopes: ['proofs:write'] });
    const key = `prova-${randomUUID()}`;
    const byLink = await call('POST', '/proofs', {
      key: app.secret,
      body: { cardNumber: scanned, programId: fx.pointsProgramId, kind: 'review', url: 'https://example.com/recensione/1' },
      headers: { 'idempotency-key': key },
    });
    expect(byLink.status, JSON.stringify(byLink.body)).toBe(201);
    expect(byLink.body).toMatchObject({ kind: 'review', status: 'pending' });
    const replay = await call('POST', '/proofs', {
      key: app.secret,
      body: { cardNumber: scanned, programId: fx.pointsProgramId, kind: 'review', url: 'https://example.com/recensione/1' },
      headers: { 'idempotency-key': key },
    });
    expect(replay.body['id']).toBe(byLink.body['id']);

    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
    const form = new FormData();
    form.append('file', new Blob([png], { type: 'image/png' }), 'prova.png');
    const upload = await fetch(`${base}/api/integration/v1/proofs/image`, { method: 'POST', headers: { authorization: `Bearer ${app.secret}` }, body: form });
    expect(upload.status).toBe(201);
    const { id: imageId } = (await upload.json()) as { id: string };
    const byImage = await call('POST', '/proofs', { key: app.secret, body: { cardNumber: scanned, programId: fx.pointsProgramId, kind: 'share', imageId } });
    expect(byImage.status).toBe(201);

    const queue = await ctx.request({ method: 'GET', url: `/api/admin/social-proofs?customerId=${fx.customerIds[0]}`, token: adminToken });
    const items = queue.json().items as { kind: string; channel: string; imageId: string | null }[];
    expect(items.map((item) => [item.kind, item.channel]).sort()).toEqual([['review', 'app'], ['share', 'app']]);
    const missing = await call('POST', '/proofs', { key: app.secret, body: { cardNumber: scanned, programId: fx.pointsProgramId, kind: 'share' } });
    expect(missing.status).toBe(400);
    expect((missing.body['error'] as { fields: { field: string }[] }).fields.map((f) => f.field)).toContain('url');
  });
});

describe('the command-line till (npm run till)', () => {
  let ctx: TestContext;
  let base: string;

  beforeAll(async () => {
    ctx = await createTestContext({ seed: true });
    base = await listen(ctx);
  });
  afterAll(async () => ctx?.close());

  const till = (args: string[], key: string) =>
    promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      path.resolve(import.meta.dirname, '../../../../../scripts/till.ts'),
      ...args,
      '--url',
      base,
      ...(key ? ['--key', key] : []),
    ]).then(
      (done) => ({ code: 0, out: done.stdout, err: done.stderr }),
      (failed: { code: number; stdout: string; stderr: string }) => ({ code: failed.code, out: failed.stdout, err: failed.stderr }),
    );

  it('records a purchase in euro, reads the card, and says why the API refused', async () => {
    const adminToken = await ctx.tokenFor('admin@demo.test');
    const fx = await createLedgerFixture(ctx.app.db, { customers: 1 });
    const [row] = await rows<{ card_number: string }>(ctx, sql`select card_number from customers where id = ${fx.customerIds[0]!}`);
    const { secret } = await createKey(ctx, adminToken, { name: 'Cassa CLI', kind: 'merchant', merchantId: fx.merchantId, scopes: ['purchases:write', 'cards:read'] });
    const bought = await till(['purchase', row!.card_number, '24,50', '--program', fx.pointsProgramId, '--receipt', 'R-9'], secret);
    expect(bought.code, bought.err).toBe(0);
    expect(bought.out).toContain('+24 punti');
    const card = await till(['card', row!.card_number], secret);
    expect(card.out).toContain('M. R.');
    expect(card.out).toContain('24 punti');
    const [entry] = await rows<{ amount_cents: number; reason: string }>(ctx, sql`select amount_cents, reason from ledger_entries where customer_id = ${fx.customerIds[0]!}`);
    expect(entry).toMatchObject({ amount_cents: 2450, reason: 'Scontrino R-9' });
    const refused = await till(['check', 'ABCD-EFGH'], secret);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('403');
    const noKey = await till(['card', row!.card_number], '');
    expect(noKey.code).toBe(2);
    // A redemption takes what the scanner read from the card (number-code), passed on verbatim.
    const rewardId = (
      await ctx.request({ method: 'POST', url: '/api/admin/rewards', token: adminToken, payload: { programId: fx.pointsProgramId, name: 'Caffè', cost: 10, status: 'active' } })
    ).json().id as string;
    const redeemer = await createKey(ctx, adminToken, { name: 'Cassa premi CLI', kind: 'merchant', merchantId: fx.merchantId, scopes: ['rewards:redeem'] });
    const bare = await till(['redeem', row!.card_number, rewardId], redeemer.secret);
    expect(bare.code).toBe(2);
    expect(bare.err).toContain('numero-codice');
    const redeemed = await till(['redeem', await scannedCard(ctx, adminToken, fx.customerIds[0]!), rewardId], redeemer.secret);
    expect(redeemed.code, redeemed.err).toBe(0);
    expect(redeemed.out).toContain('Premio riscattato');
  }, 60_000);
});

describe('the integration API rate limits: per key across routes, per address for failed keys', () => {
  let ctx: TestContext;
  let call: ReturnType<typeof client>;

  beforeAll(async () => {
    ctx = await createTestContext({ seed: true, env: { INTEGRATION_RATE_LIMIT: '3', AUTH_RATE_LIMIT: '3' } });
    call = client(await listen(ctx));
  });
  afterAll(async () => ctx?.close());

  it('counts a key\'s requests on every route together: 429 with Retry-After beyond the limit, while another key is still served', async () => {
    const adminToken = await ctx.tokenFor('admin@demo.test');
    const fx = await createLedgerFixture(ctx.app.db, { customers: 1 });
    const scanned = await scannedCard(ctx, adminToken, fx.customerIds[0]!);
    const scopes = ['cards:read', 'vouchers:use'];
    const one = await createKey(ctx, adminToken, { name: 'Cassa A', kind: 'merchant', merchantId: fx.merchantId, scopes });
    const two = await createKey(ctx, adminToken, { name: 'Cassa B', kind: 'merchant', merchantId: fx.merchantId, scopes });
    const statuses: number[] = [];
    for (const path of [`/cards/${scanned}`, '/vouchers/ABCDEFGHJK', `/cards/${scanned}`, '/vouchers/ABCDEFGHJK']) {
      statuses.push((await call('GET', path, { key: one.secret })).status);
    }
    // A counter per route would have let the second voucher check through (404).
    expect(statuses).toEqual([200, 404, 200, 429]);
    const limited = await call('GET', `/cards/${scanned}`, { key: one.secret });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((limited.body['error'] as { code: string }).code).toBe('rate_limited');
    expect((await call('GET', `/cards/${scanned}`, { key: two.secret })).status).toBe(200);
  });

  it('counts failed authentications per address: 429 beyond the limit, while a good key from there is still served', async () => {
    const adminToken = await ctx.tokenFor('admin@demo.test');
    const fx = await createLedgerFixture(ctx.app.db, { customers: 1 });
    const scanned = await scannedCard(ctx, adminToken, fx.customerIds[0]!);
    const good = await createKey(ctx, adminToken, { name: 'Cassa C', kind: 'merchant', merchantId: fx.merchantId, scopes: ['cards:read'] });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      statuses.push((await call('GET', `/cards/${scanned}`, { key: `sfk_${'guess'.repeat(8)}${attempt}` })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    const noKey = await call('GET', `/cards/${scanned}`);
    expect(noKey.status).toBe(429);
    expect(Number(noKey.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await call('GET', `/cards/${scanned}`, { key: good.secret })).status).toBe(200);
  });
});

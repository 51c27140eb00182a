import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
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
  return response.json() as { key: { id: string; prefix: string; lastUsedAt: string | null }; secret: string };
}

const rows = async <T>(ctx: TestContext, query: ReturnType<typeof sql>) => ((await ctx.app.db.execute(query)) as unknown as { rows: T[] }).rows;

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
    const foreignCard = await call('GET', `/cards/${row!.card_number}`, { key: secret });
    expect(foreignCard.status).toBe(200);
    expect(foreignCard.body['memberships']).toEqual([]);
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
    const appCard = await call('GET', `/cards/${cardNumber}`, { key: app.secret });
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
    expect(fields[0]!.message).toMatch(/non è valid|minim/);
  });

  it('publishes its own OpenAPI document, only the integration paths, in Italian', async () => {
    const response = await fetch(`${base}/api/docs-integration/json`);
    expect(response.status).toBe(200);
    const doc = (await response.json()) as { info: { title: string }; paths: Record<string, unknown> };
    expect(doc.info.title).toContain('API di integrazione');
    const paths = Object.keys(doc.paths);
    expect(paths).toContain('/api/integration/v1/purchases');
    expect(paths.every((path) => path.startsWith('/api/integration/v1'))).toBe(true);
    expect(JSON.stringify(doc.paths)).toContain('2026-000123');
    const page = await fetch(`${base}/api/docs-integration`);
    expect(page.status).toBeLessThan(400);
  });
});

describe('the integration API rate limit, per key', () => {
  let ctx: TestContext;
  let call: ReturnType<typeof client>;

  beforeAll(async () => {
    ctx = await createTestContext({ seed: true, env: { INTEGRATION_RATE_LIMIT: '3' } });
    call = client(await listen(ctx));
  });
  afterAll(async () => ctx?.close());

  it('answers 429 with Retry-After beyond the limit, while another key is still served', async () => {
    const adminToken = await ctx.tokenFor('admin@demo.test');
    const fx = await createLedgerFixture(ctx.app.db, { customers: 1 });
    const [row] = await rows<{ card_number: string }>(ctx, sql`select card_number from customers where id = ${fx.customerIds[0]!}`);
    const one = await createKey(ctx, adminToken, { name: 'Cassa A', kind: 'merchant', merchantId: fx.merchantId, scopes: ['cards:read'] });
    const two = await createKey(ctx, adminToken, { name: 'Cassa B', kind: 'merchant', merchantId: fx.merchantId, scopes: ['cards:read'] });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await call('GET', `/cards/${row!.card_number}`, { key: one.secret })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await call('GET', `/cards/${row!.card_number}`, { key: one.secret });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((limited.body['error'] as { code: string }).code).toBe('rate_limited');
    expect((await call('GET', `/cards/${row!.card_number}`, { key: two.secret })).status).toBe(200);
  });
});

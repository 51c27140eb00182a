import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { CSRF_COOKIE } from '@sf/contract/app-info';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture, type LedgerFixture } from '../../../test/ledger-fixtures.ts';
import { PROOF_IMAGES_PURGE_JOB, socialProofJobs } from './social-proofs.service.ts';

/** A 1×1 PNG: 68 bytes. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

function multipart(fileName: string, bytes: Buffer) {
  const boundary = '----sf-proof-image';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: image/png\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/**
 * Issue 30: M3 (a proof may show only a screenshot its own key uploaded for it), the per-key quota
 * of screenshots waiting for their proof, the daily clean-up of the ones never used, and the cache
 * policy of uploads (revalidated on every use, so an erasure is not outlived by a cached copy).
 */
describe('proof screenshots', () => {
  let ctx: TestContext;
  let admin: string;
  let fx: LedgerFixture;
  let scanned: string;
  let appKey: string;
  let otherKey: string;
  // Uploads are stamped by the database's clock: the app's starts from the same instant.
  let now = new Date();

  const keyFor = async (name: string) => {
    const created = await ctx.request({ method: 'POST', url: '/api/admin/api-keys', token: admin, payload: { name, kind: 'app', scopes: ['proofs:write'] } });
    expect(created.statusCode, created.body).toBe(201);
    return created.json().secret as string;
  };
  const uploadWith = async (key: string, fileName = 'prova.png') => {
    const body = multipart(fileName, PNG);
    return ctx.app.inject({ method: 'POST', url: '/api/integration/v1/proofs/image', payload: body.payload, headers: { ...body.headers, authorization: `Bearer ${key}` } });
  };
  const proofWith = (key: string, imageId: string, idempotencyKey = randomUUID()) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/integration/v1/proofs',
      headers: { authorization: `Bearer ${key}`, 'idempotency-key': idempotencyKey },
      payload: { cardNumber: scanned, programId: fx.pointsProgramId, kind: 'share', imageId },
    });
  const files = async () => (await readdir(path.join(ctx.dataDir, 'uploads')).catch(() => [] as string[])).sort();

  beforeAll(async () => {
    // A quota of two of these screenshots per key; a clock the clean-up can be driven by.
    ctx = await createTestContext({ seed: true, env: { UPLOAD_QUOTA_BYTES: String(PNG.length * 2 + 10) }, clock: { now: () => now } });
    admin = await ctx.tokenFor('admin@demo.test');
    fx = await createLedgerFixture(ctx.app.db, { customers: 1 });
    scanned = (await ctx.request({ method: 'GET', url: `/api/admin/customers/${fx.customerIds[0]}/card`, token: admin })).json().barcodeMessage;
    appKey = await keyFor('App clienti');
    otherKey = await keyFor('Altra app');
  });
  afterAll(async () => ctx?.close());

  it("refuses a news cover or another key's screenshot as a proof's image, and a screenshot a second time (M3)", async () => {
    const cover = await ctx.request({ method: 'POST', url: '/api/admin/news/cover', token: admin, ...multipart('copertina.png', PNG) });
    expect(cover.statusCode, cover.body).toBe(201);
    const coverId = cover.json().id as string;
    const unknown = await proofWith(appKey, 'no-such-upload');
    expect(unknown.statusCode).toBe(400);
    const answerOf = (response: typeof unknown) => ({ status: response.statusCode, fields: response.json().error.fields });
    expect(answerOf(await proofWith(appKey, coverId))).toEqual(answerOf(unknown));

    const theirs = (await uploadWith(otherKey)).json().id as string;
    expect(answerOf(await proofWith(appKey, theirs))).toEqual(answerOf(unknown));

    const mine = (await uploadWith(appKey)).json().id as string;
    const idempotencyKey = randomUUID();
    const filed = await proofWith(appKey, mine, idempotencyKey);
    expect(filed.statusCode, filed.body).toBe(201);
    // The same request again is its replay; another proof with the same screenshot is refused.
    expect((await proofWith(appKey, mine, idempotencyKey)).json().id).toBe(filed.json().id);
    expect(answerOf(await proofWith(appKey, mine))).toEqual(answerOf(unknown));
    const [count] = ((await ctx.app.db.execute(sql`select count(*)::int as n from social_proofs where image_id in (${coverId}, ${theirs}, ${mine})`)) as unknown as {
      rows: { n: number }[];
    }).rows;
    expect(count!.n).toBe(1);
    await ctx.app.db.execute(sql`delete from uploads where id = ${theirs}`);
  });

  it('keeps each key within a quota of screenshots waiting for their proof (413), freed as proofs take them', async () => {
    const key = await keyFor('App quota');
    const first = await uploadWith(key);
    const second = await uploadWith(key);
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    const third = await uploadWith(key);
    expect(third.statusCode).toBe(413);
    expect(third.json().error.code).toBe('payload_too_large');
    // Another key has its own quota.
    expect((await uploadWith(await keyFor('App quota 2'))).statusCode).toBe(201);
    expect((await proofWith(key, first.json().id)).statusCode).toBe(201);
    expect((await uploadWith(key)).statusCode).toBe(201);
  });

  it('deletes screenshots no proof took after a day (rows and files), once a day, and keeps the ones in use', async () => {
    const key = await keyFor('App pulizia');
    const used = (await uploadWith(key)).json().id as string;
    const unused = (await uploadWith(key)).json().id as string;
    expect((await proofWith(key, used)).statusCode).toBe(201);
    const job = socialProofJobs(ctx.app);
    const handler = job.handlers[PROOF_IMAGES_PURGE_JOB]!;
    expect(await handler({})).toEqual({ removed: 0 });
    now = new Date(now.getTime() + 25 * 60 * 60 * 1000);
    const removed = (await handler({})) as { removed: number };
    expect(removed.removed).toBeGreaterThanOrEqual(1);
    const left = ((await ctx.app.db.execute(sql`select id from uploads where id in (${used}, ${unused})`)) as unknown as { rows: { id: string }[] }).rows;
    expect(left.map((row) => row.id)).toEqual([used]);
    expect((await files()).some((name) => name.startsWith(unused))).toBe(false);
    expect((await files()).some((name) => name.startsWith(used))).toBe(true);
    await job.schedule?.();
    await job.schedule?.();
    const queued = ((await ctx.app.db.execute(sql`select count(*)::int as n from jobs where kind = ${PROOF_IMAGES_PURGE_JOB}`)) as unknown as { rows: { n: number }[] }).rows;
    expect(queued[0]!.n).toBe(1);
  });

  it('serves uploads revalidated on every use, private for screenshots, without a forgery-protection cookie', async () => {
    const screenshot = (await uploadWith(await keyFor('App cache'))).json().id as string;
    const cover = (await ctx.request({ method: 'POST', url: '/api/admin/news/cover', token: admin, ...multipart('copertina.png', PNG) })).json().id as string;
    const get = (id: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url: `/api/public/uploads/${id}`, headers });
    const first = await get(screenshot);
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    expect(first.headers['set-cookie']).toBeUndefined();
    const etag = String(first.headers['etag']);
    const again = await get(screenshot, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect((await get(cover)).headers['cache-control']).toBe('public, no-cache');
    // Once the file is gone (an erasure), a cache revalidating its copy is told so.
    await ctx.app.db.execute(sql`delete from uploads where id = ${screenshot}`);
    const gone = await get(screenshot, { 'if-none-match': etag });
    expect(gone.statusCode).toBe(404);
    expect(gone.headers['set-cookie']).toBeUndefined();
  });

  it('sets no forgery-protection cookie on integration answers, an unknown integration path included', async () => {
    for (const url of ['/api/integration/v1/cards/2790000000018', '/api/integration/v1/nothing-here']) {
      const answer = await ctx.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${appKey}` } });
      expect(answer.statusCode).toBeGreaterThanOrEqual(400);
      expect(String(answer.headers['set-cookie'] ?? '')).not.toContain(CSRF_COOKIE);
    }
    // The back-office's own answers still get theirs.
    const health = await ctx.app.inject({ method: 'GET', url: '/api/healthz' });
    expect(String(health.headers['set-cookie'] ?? '')).toContain(CSRF_COOKIE);
  });
});

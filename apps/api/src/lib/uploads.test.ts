import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helper.ts';
import { uploads } from '../db/schema.ts';
import { IMAGE_MAX_BYTES, detectImageType, storeImage } from './uploads.ts';

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** A real, decodable 2×2 RGB PNG. */
function buildPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(2, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const rows = Buffer.from([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]);
const GIF = Buffer.concat([Buffer.from('GIF89a', 'ascii'), Buffer.from([1, 0, 1, 0, 0, 0, 0, 0x3b])]);
const WEBP = Buffer.concat([Buffer.from('RIFF', 'ascii'), Buffer.from([26, 0, 0, 0]), Buffer.from('WEBPVP8L', 'ascii'), Buffer.alloc(14)]);

function multipart(field: string, fileName: string, contentType: string, data: Buffer) {
  const boundary = `----sf-test-${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('detectImageType', () => {
  it('recognises PNG, JPEG, GIF and WebP by their first bytes and nothing else', () => {
    expect(detectImageType(buildPng())?.contentType).toBe('image/png');
    expect(detectImageType(JPEG)?.contentType).toBe('image/jpeg');
    expect(detectImageType(GIF)?.contentType).toBe('image/gif');
    expect(detectImageType(WEBP)?.contentType).toBe('image/webp');
    expect(detectImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'))).toBeNull();
    expect(detectImageType(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeNull();
    expect(detectImageType(Buffer.from([0x89, 0x50]))).toBeNull();
    expect(detectImageType(Buffer.alloc(0))).toBeNull();
  });
});

describe('cover image upload', () => {
  let ctx: TestContext;
  let editor: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    editor = await ctx.tokenFor('editor@demo.test');
  });
  afterAll(() => ctx.close());

  const upload = (body: ReturnType<typeof multipart>, token: string | null = editor) =>
    ctx.request({ method: 'POST', url: '/api/admin/news/cover', payload: body.payload, headers: body.headers, ...(token ? { token } : {}) });
  const storedFiles = async () => {
    const dir = path.join(ctx.dataDir, 'uploads');
    return existsSync(dir) ? readdir(dir) : [];
  };

  it('stores a real PNG under the data directory and serves it back with its type, nosniff and a cache policy an erasure can live with (revalidated on every use)', async () => {
    const png = buildPng();
    const response = await upload(multipart('file', 'copertina.png', 'image/png', png));
    expect(response.statusCode).toBe(201);
    const { id, url } = response.json() as { id: string; url: string };
    expect(url).toBe(`/api/public/uploads/${id}`);
    expect(await readFile(path.join(ctx.dataDir, 'uploads', `${id}.png`))).toEqual(png);

    const served = await ctx.request({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['cache-control']).toBe('public, no-cache');
    expect(served.rawPayload).toEqual(png);
  });

  it('trusts the bytes, not the declared type or name, for JPEG, GIF and WebP', async () => {
    for (const [bytes, type] of [
      [JPEG, 'image/jpeg'],
      [GIF, 'image/gif'],
      [WEBP, 'image/webp'],
    ] as const) {
      const response = await upload(multipart('file', 'immagine.bin', 'application/octet-stream', bytes));
      expect(response.statusCode).toBe(201);
      const served = await ctx.request({ method: 'GET', url: response.json().url });
      expect(served.headers['content-type']).toBe(type);
      expect(served.rawPayload).toEqual(bytes);
    }
  });

  it('refuses a text file renamed .png with 415 and stores nothing', async () => {
    const before = await storedFiles();
    const rows = await ctx.app.db.select().from(uploads);
    const response = await upload(multipart('file', 'innocuo.png', 'image/png', Buffer.from('<script>alert(1)</script>\n')));
    expect(response.statusCode).toBe(415);
    expect(response.json().error.code).toBe('unsupported_media_type');
    expect(await storedFiles()).toEqual(before);
    expect(await ctx.app.db.select().from(uploads)).toHaveLength(rows.length);
  });

  it('refuses a file over 5 MB with 413 and stores nothing', async () => {
    const before = await storedFiles();
    const big = Buffer.concat([buildPng(), Buffer.alloc(IMAGE_MAX_BYTES)]);
    const response = await upload(multipart('file', 'enorme.png', 'image/png', big));
    expect(response.statusCode).toBe(413);
    expect(response.json().error.code).toBe('payload_too_large');
    expect(await storedFiles()).toEqual(before);
  });

  it('accepts a file of exactly 5 MB', async () => {
    const png = buildPng();
    const exact = Buffer.concat([png, Buffer.alloc(IMAGE_MAX_BYTES - png.length)]);
    expect((await upload(multipart('file', 'limite.png', 'image/png', exact))).statusCode).toBe(201);
  });

  it('answers 415 for a body that is not multipart and 400 naming the field for a wrong field name', async () => {
    const json = await ctx.request({ method: 'POST', url: '/api/admin/news/cover', payload: { file: 'x' }, token: editor });
    expect(json.statusCode).toBe(415);
    const wrongField = await upload(multipart('image', 'copertina.png', 'image/png', buildPng()));
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json().error.fields).toEqual([{ field: 'file', message: 'File è obbligatorio' }]);
  });

  it('refuses an anonymous caller (401) and a member (403)', async () => {
    const body = multipart('file', 'copertina.png', 'image/png', buildPng());
    expect((await upload(body, null)).statusCode).toBe(401);
    expect((await upload(body, await ctx.tokenFor('member@demo.test'))).statusCode).toBe(403);
  });

  it('links an uploaded cover to a post, in the admin and the public answers', async () => {
    const { id, url } = (await upload(multipart('file', 'copertina.png', 'image/png', buildPng()))).json();
    const post = await ctx.request({
      method: 'POST',
      url: '/api/admin/news',
      payload: { title: 'Con copertina', coverImageId: id, status: 'published' },
      token: editor,
    });
    expect(post.statusCode).toBe(201);
    expect(post.json().coverImageUrl).toBe(url);
    const one = await ctx.request({ method: 'GET', url: `/api/public/news/${post.json().id}` });
    expect(one.json().coverImageUrl).toBe(url);
  });

  it('removes the stored file again when recording the upload fails', async () => {
    const before = await storedFiles();
    const editorId = (await ctx.request({ method: 'GET', url: '/api/admin/news?pageSize=1', token: editor })).json().items[0].author.id;
    await expect(
      storeImage(
        { db: ctx.app.db, dataDir: ctx.dataDir, quotaBytes: ctx.app.env.UPLOAD_QUOTA_BYTES },
        // The audit insert refuses this id, so the whole record is rolled back.
        { id: 'not-a-uuid', email: 'broken@demo.test' },
        { bytes: buildPng(), type: { contentType: 'image/png', extension: 'png' }, fileName: 'x.png', purpose: 'cover', uploadedBy: editorId },
      ),
    ).rejects.toThrow();
    expect(await storedFiles()).toEqual(before);
  });

  it('answers 404 for an unknown upload id', async () => {
    expect((await ctx.request({ method: 'GET', url: '/api/public/uploads/unknown-id' })).statusCode).toBe(404);
    expect((await ctx.request({ method: 'GET', url: '/api/public/uploads/..%2F..%2Fetc%2Fpasswd' })).statusCode).toBe(404);
  });
});

describe('per-user upload quota (issue 6, item 11)', () => {
  const png = buildPng();
  let ctx: TestContext;
  beforeAll(async () => {
    // Room for exactly two images per user.
    ctx = await createTestContext({ env: { UPLOAD_QUOTA_BYTES: String(png.length * 2) } });
  });
  afterAll(() => ctx.close());

  const upload = (token: string) => {
    const body = multipart('file', 'copertina.png', 'image/png', png);
    return ctx.request({ method: 'POST', url: '/api/admin/news/cover', payload: body.payload, headers: body.headers, token });
  };
  const files = async () => {
    const dir = path.join(ctx.dataDir, 'uploads');
    return existsSync(dir) ? (await readdir(dir)).length : 0;
  };

  it('refuses an upload beyond the quota with 413 and keeps nothing of it; other users are not affected', async () => {
    const editor = await ctx.tokenFor('editor@demo.test');
    expect((await upload(editor)).statusCode).toBe(201);
    expect((await upload(editor)).statusCode).toBe(201);
    const over = await upload(editor);
    expect(over.statusCode).toBe(413);
    expect(over.json().error).toMatchObject({ code: 'payload_too_large', message: expect.stringContaining('quota') });
    expect(await files()).toBe(2);
    expect((await upload(await ctx.tokenFor('admin@demo.test'))).statusCode).toBe(201);
  });

  it('counts parallel uploads one by one: only what fits is accepted', async () => {
    const admin = await ctx.tokenFor('admin@demo.test');
    const answers = await Promise.all([upload(admin), upload(admin), upload(admin)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 413, 413]);
  });
});

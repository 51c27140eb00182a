import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewsPost } from '@sf/contract/news';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture } from '../../../test/ledger-fixtures.ts';

describe('public news routes', () => {
  let ctx: TestContext;
  let editor: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    editor = await ctx.tokenFor('editor@demo.test');
  });
  afterAll(() => ctx.close());

  const publicPage = () => ctx.request({ method: 'GET', url: '/api/public/news?pageSize=100' });

  it('lists only published posts, pinned first then newest, without a token', async () => {
    const response = await publicPage();
    expect(response.statusCode).toBe(200);
    const page = response.json() as { items: Array<{ id: number; pinned: boolean; publishedAt: string }>; total: number };
    const admin = (await ctx.request({ method: 'GET', url: '/api/admin/news?status=published&pageSize=100', token: editor })).json();
    expect(page.total).toBe(admin.total);
    expect(new Set(page.items.map((post) => post.id))).toEqual(new Set(admin.items.map((post: NewsPost) => post.id)));
    expect(page.items[0]?.pinned).toBe(true);
    const unpinned = page.items.filter((post) => !post.pinned).map((post) => Date.parse(post.publishedAt));
    expect(unpinned).toEqual([...unpinned].sort((a, b) => b - a));
  });

  it('never leaks drafts, scheduled or archived posts, nor personal or internal fields', async () => {
    const hidden = (await ctx.request({ method: 'GET', url: '/api/admin/news?pageSize=100', token: editor })).json().items.filter(
      (post: NewsPost) => post.status !== 'published',
    ) as NewsPost[];
    expect(hidden.length).toBeGreaterThan(0);
    const body = (await publicPage()).body;
    const ids = JSON.parse(body).items.map((post: { id: number }) => post.id);
    for (const post of hidden) {
      expect(ids).not.toContain(post.id);
      expect((await ctx.request({ method: 'GET', url: `/api/public/news/${post.id}` })).statusCode).toBe(404);
    }
    for (const secret of ['author', 'displayName', 'Marco Bianchi', 'Giulia Rossi', '@demo.test', 'version', 'status']) {
      expect(body).not.toContain(secret);
    }
    expect(Object.keys(JSON.parse(body).items[0]).sort()).toEqual(['body', 'coverImageUrl', 'id', 'pinned', 'publishedAt', 'summary', 'title']);
  });

  it('answers with public caching, a strong ETag and 304 for a matching If-None-Match', async () => {
    const first = await publicPage();
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    const etag = first.headers['etag'] as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await publicPage();
    expect(again.headers['etag']).toBe(etag);

    const notModified = await ctx.request({ method: 'GET', url: '/api/public/news?pageSize=100', headers: { 'if-none-match': etag } });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
    expect(notModified.headers['etag']).toBe(etag);

    const other = await ctx.request({ method: 'GET', url: '/api/public/news?pageSize=100', headers: { 'if-none-match': '"something-else"' } });
    expect(other.statusCode).toBe(200);
  });

  it('changes the ETag when a post is published', async () => {
    const etag = (await publicPage()).headers['etag'] as string;
    await ctx.request({ method: 'POST', url: '/api/admin/news', payload: { title: 'Appena uscito', status: 'published' }, token: editor });
    const response = await ctx.request({ method: 'GET', url: '/api/public/news?pageSize=100', headers: { 'if-none-match': etag } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['etag']).not.toBe(etag);
    expect(response.json().items.map((post: { title: string }) => post.title)).toContain('Appena uscito');
  });

  it('addresses a post to the members of a program or the customers of a merchant; the app asks for its own', async () => {
    const fx = await createLedgerFixture(ctx.app.db, { customers: 0 });
    const create = (payload: object, headers: Record<string, string> = {}) =>
      ctx.request({ method: 'POST', url: '/api/admin/news', payload: { status: 'published', ...payload }, token: editor, headers });

    // The editor's choices come from the news area itself (editors may not read programs or merchants).
    const options = await ctx.request({ method: 'GET', url: '/api/admin/news/audiences', token: editor });
    expect(options.statusCode).toBe(200);
    expect(options.json().programs.map((program: { id: string }) => program.id)).toContain(fx.pointsProgramId);
    expect(options.json().merchants).toContainEqual({ id: fx.merchantId, name: 'Bar Centrale' });

    const missing = await create({ title: 'Senza programma', audience: 'program' }, { 'accept-language': 'en' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.fields[0]).toMatchObject({ field: 'audienceId', message: 'Program or merchant of the audience is required' });
    const unknown = await create({ title: 'Programma ignoto', audience: 'program', audienceId: fx.merchantId });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.fields[0].field).toBe('audienceId');
    expect((await create({ title: 'Per tutti ma con id', audience: 'everyone', audienceId: fx.pointsProgramId })).statusCode).toBe(400);

    const forMembers = await create({ title: 'Solo per i soci', audience: 'program', audienceId: fx.pointsProgramId });
    expect(forMembers.statusCode).toBe(201);
    expect(forMembers.json()).toMatchObject({ audience: 'program', audienceId: fx.pointsProgramId });
    const atTheBar = await create({ title: 'Solo al Bar Centrale', audience: 'merchant', audienceId: fx.merchantId });
    expect(atTheBar.statusCode).toBe(201);

    const titles = async (query: string) =>
      (await ctx.request({ method: 'GET', url: `/api/public/news?pageSize=100${query}` })).json().items.map((post: { title: string }) => post.title);
    const everyone = await titles('');
    expect(everyone).not.toContain('Solo per i soci');
    expect(everyone).not.toContain('Solo al Bar Centrale');
    const members = await titles(`&programId=${fx.pointsProgramId}`);
    expect(members).toContain('Solo per i soci');
    expect(members).not.toContain('Solo al Bar Centrale');
    expect(members.length).toBe(everyone.length + 1);
    expect(await titles(`&merchantId=${fx.merchantId}`)).toContain('Solo al Bar Centrale');
    expect(await titles(`&programId=${fx.stampsProgramId}`)).not.toContain('Solo per i soci');

    // Back to everyone: the program is dropped with it.
    const id = forMembers.json().id as number;
    const back = await ctx.request({ method: 'PATCH', url: `/api/admin/news/${id}`, payload: { audience: 'everyone', version: forMembers.json().version }, token: editor });
    expect(back.statusCode).toBe(200);
    expect(back.json()).toMatchObject({ audience: 'everyone', audienceId: null });
    expect(await titles('')).toContain('Solo per i soci');
  });

  it('answers one published post with an ETag, and 404 with the S12 text for an unknown one', async () => {
    const first = (await publicPage()).json().items[0];
    const one = await ctx.request({ method: 'GET', url: `/api/public/news/${first.id}` });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual(first);
    const cached = await ctx.request({ method: 'GET', url: `/api/public/news/${first.id}`, headers: { 'if-none-match': one.headers['etag'] as string } });
    expect(cached.statusCode).toBe(304);
    const missing = await ctx.request({ method: 'GET', url: '/api/public/news/999999', headers: { 'accept-language': 'en' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toMatchObject({ code: 'not_found', message: 'The requested Post is not found' });
    expect(missing.headers['etag']).toBeUndefined();
  });
});

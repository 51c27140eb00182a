import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewsPost } from '@sf/contract/news';
import { createTestContext, type TestContext } from '../../../test/helper.ts';

const MINUTE = 60_000;

describe('news routes', () => {
  let ctx: TestContext;
  let editor: string;
  let admin: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    editor = await ctx.tokenFor('editor@demo.test');
    admin = await ctx.tokenFor('admin@demo.test');
  });
  afterAll(() => ctx.close());

  const create = async (payload: Record<string, unknown>, token = editor) =>
    ctx.request({ method: 'POST', url: '/api/admin/news', payload, token });
  const list = async (query: string, token = editor) =>
    (await ctx.request({ method: 'GET', url: `/api/admin/news?${query}`, token })).json() as {
      items: NewsPost[];
      total: number;
      page: number;
      pageSize: number;
    };

  describe('create and read', () => {
    it('creates a draft with defaults and answers 201 with the post', async () => {
      const response = await create({ title: 'Nuovo post di prova' });
      expect(response.statusCode).toBe(201);
      const post = response.json() as NewsPost;
      expect(post).toMatchObject({
        title: 'Nuovo post di prova',
        summary: '',
        body: '',
        status: 'draft',
        publishAt: null,
        pinned: false,
        audience: 'everyone',
        coverImageUrl: null,
        version: 1,
        author: { displayName: 'Marco Bianchi' },
      });
      const read = await ctx.request({ method: 'GET', url: `/api/admin/news/${post.id}`, token: editor });
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual(post);
    });

    it('sanitises the body on create and on update', async () => {
      const created = (
        await create({ title: 'Corpo pericoloso', body: '<p onclick="x()">ciao<script>alert(1)</script></p><a href="javascript:alert(1)">x</a>' })
      ).json() as NewsPost;
      expect(created.body).toBe('<p>ciao</p><a rel="noopener noreferrer nofollow">x</a>');
      const updated = await ctx.request({
        method: 'PATCH',
        url: `/api/admin/news/${created.id}`,
        payload: { body: '<img src=x onerror=alert(1)><p>ok</p>', version: created.version },
        token: editor,
      });
      expect(updated.json().body).toBe('<p>ok</p>');
    });

    it('publishes at once a post created as published without a date', async () => {
      const response = await create({ title: 'Subito online', status: 'published' });
      const post = response.json() as NewsPost;
      expect(post.status).toBe('published');
      expect(post.publishAt).not.toBeNull();
      expect(Math.abs(Date.parse(post.publishAt as string) - Date.now())).toBeLessThan(MINUTE);
    });

    it('answers 404 with the S12 text for an unknown post, in Italian by default and in English on request', async () => {
      const italian = await ctx.request({ method: 'GET', url: '/api/admin/news/999999', token: editor });
      expect(italian.statusCode).toBe(404);
      expect(italian.json().error).toMatchObject({ code: 'not_found', message: 'Post richiesto non trovato' });
      const english = await ctx.request({
        method: 'GET',
        url: '/api/admin/news/999999',
        token: editor,
        headers: { 'accept-language': 'en-GB,en;q=0.9' },
      });
      expect(english.json().error.message).toBe('The requested Post is not found');
    });
  });

  describe('validation', () => {
    it('names the title in Italian and English when it is missing or too short', async () => {
      const missing = await create({});
      expect(missing.statusCode).toBe(400);
      expect(missing.json().error.fields).toContainEqual({ field: 'title', message: 'Titolo è obbligatorio' });
      const short = await ctx.request({
        method: 'POST',
        url: '/api/admin/news',
        payload: { title: 'ab' },
        token: editor,
        headers: { 'accept-language': 'en' },
      });
      expect(short.statusCode).toBe(400);
      expect(short.json().error.fields).toContainEqual({ field: 'title', message: 'Title minimum length is 3' });
    });

    it('requires a future publishAt for a scheduled post and names the field', async () => {
      const missing = await create({ title: 'Programmato', status: 'scheduled' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().error.fields).toEqual([{ field: 'publishAt', message: 'Data di pubblicazione è obbligatoria' }]);
      const past = await ctx.request({
        method: 'POST',
        url: '/api/admin/news',
        payload: { title: 'Programmato', status: 'scheduled', publishAt: new Date(Date.now() - MINUTE).toISOString() },
        token: editor,
        headers: { 'accept-language': 'en' },
      });
      expect(past.statusCode).toBe(400);
      expect(past.json().error.fields).toEqual([{ field: 'publishAt', message: 'Publish date is not valid' }]);
    });

    it('rejects unknown fields, a bad date, an unknown cover image and an unknown status', async () => {
      const unknown = await create({ title: 'Campo in più', author: 'me' });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().error.fields[0].field).toBe('author');
      const badDate = await create({ title: 'Data errata', publishAt: 'domani' });
      expect(badDate.json().error.fields[0].field).toBe('publishAt');
      const cover = await create({ title: 'Copertina', coverImageId: 'does-not-exist' });
      expect(cover.statusCode).toBe(400);
      expect(cover.json().error.fields).toEqual([{ field: 'coverImageId', message: 'Immagine di copertina non è valida' }]);
      const status = await create({ title: 'Archiviato', status: 'archived' });
      expect(status.json().error.fields[0].field).toBe('status');
    });

    it('rejects a page size over 100 and an unknown sort field, naming them', async () => {
      const size = await ctx.request({ method: 'GET', url: '/api/admin/news?pageSize=101', token: editor });
      expect(size.statusCode).toBe(400);
      expect(size.json().error.fields[0].field).toBe('pageSize');
      const sort = await ctx.request({ method: 'GET', url: '/api/admin/news?sort=author', token: editor });
      expect(sort.json().error.fields[0].field).toBe('sort');
    });

    it('requires the version on update', async () => {
      const response = await ctx.request({ method: 'PATCH', url: '/api/admin/news/1', payload: { title: 'Senza versione' }, token: editor });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields[0]).toEqual({ field: 'version', message: 'Versione è obbligatoria' });
    });
  });

  describe('list', () => {
    it('pages through the posts with a stable total', async () => {
      const all = await list('pageSize=100');
      const first = await list('page=1&pageSize=5');
      const second = await list('page=2&pageSize=5');
      expect(first.total).toBe(all.total);
      expect(first.items).toHaveLength(5);
      expect(first.page).toBe(1);
      expect(second.page).toBe(2);
      expect(first.items.map((post) => post.id)).toEqual(all.items.slice(0, 5).map((post) => post.id));
      expect(second.items.map((post) => post.id)).toEqual(all.items.slice(5, 10).map((post) => post.id));
    });

    it('sorts by title both ways and by updatedAt newest first by default', async () => {
      const ascending = (await list('sort=title&order=asc&pageSize=100')).items.map((post) => post.title.toLowerCase());
      expect(ascending).toEqual([...ascending].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      const descending = (await list('sort=title&order=desc&pageSize=100')).items.map((post) => post.title.toLowerCase());
      expect(descending).toEqual([...ascending].reverse());
      const updated = (await list('pageSize=100')).items.map((post) => Date.parse(post.updatedAt));
      expect(updated).toEqual([...updated].sort((a, b) => b - a));
    });

    it('sorts by publishAt with undated posts last', async () => {
      const items = (await list('sort=publishAt&order=asc&pageSize=100')).items;
      const dated = items.filter((post) => post.publishAt !== null).map((post) => Date.parse(post.publishAt as string));
      expect(dated).toEqual([...dated].sort((a, b) => a - b));
      const firstUndated = items.findIndex((post) => post.publishAt === null);
      expect(items.slice(firstUndated).every((post) => post.publishAt === null)).toBe(true);
    });

    it('filters by status', async () => {
      for (const status of ['draft', 'scheduled', 'published', 'archived'] as const) {
        const page = await list(`status=${status}&pageSize=100`);
        expect(page.total).toBeGreaterThan(0);
        expect(page.items.every((post) => post.status === status)).toBe(true);
      }
    });

    it('searches title and summary case-insensitively', async () => {
      const byTitle = await list('q=DOPPI%20PUNTI');
      expect(byTitle.items.map((post) => post.title)).toEqual(['Doppi punti nel weekend']);
      const bySummary = await list('q=raddoppiano');
      expect(bySummary.items.map((post) => post.title)).toEqual(['Doppi punti nel weekend']);
    });

    it('treats % and _ in the search as plain characters', async () => {
      await create({ title: 'Sconto 50% oggi', summary: 'prezzo_pieno' });
      expect((await list('q=%25')).items.map((post) => post.title)).toEqual(['Sconto 50% oggi']);
      expect((await list('q=_')).items.map((post) => post.title)).toEqual(['Sconto 50% oggi']);
      expect((await list('q=50%25%20o')).total).toBe(1);
    });
  });

  describe('update', () => {
    it('updates a post, bumps its version and answers 409 for a stale version', async () => {
      const post = (await create({ title: 'Da modificare' })).json() as NewsPost;
      const first = await ctx.request({
        method: 'PATCH',
        url: `/api/admin/news/${post.id}`,
        payload: { title: 'Modificato', pinned: true, version: 1 },
        token: editor,
      });
      expect(first.statusCode).toBe(200);
      expect(first.json()).toMatchObject({ title: 'Modificato', pinned: true, version: 2 });
      const stale = await ctx.request({
        method: 'PATCH',
        url: `/api/admin/news/${post.id}`,
        payload: { title: 'Vecchia versione', version: 1 },
        token: admin,
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().error.code).toBe('version_conflict');
      const read = await ctx.request({ method: 'GET', url: `/api/admin/news/${post.id}`, token: editor });
      expect(read.json().title).toBe('Modificato');
    });

    it('lets exactly one of two simultaneous edits of the same version through', async () => {
      const post = (await create({ title: 'Conteso' })).json() as NewsPost;
      const edit = (title: string, token: string) =>
        ctx.request({ method: 'PATCH', url: `/api/admin/news/${post.id}`, payload: { title, version: 1 }, token });
      const answers = await Promise.all([edit('Prima modifica', editor), edit('Seconda modifica', admin)]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      const winner = answers.find((answer) => answer.statusCode === 200)?.json() as NewsPost;
      const read = (await ctx.request({ method: 'GET', url: `/api/admin/news/${post.id}`, token: editor })).json() as NewsPost;
      expect(read).toMatchObject({ title: winner.title, version: 2 });
      const history = (await ctx.request({ method: 'GET', url: `/api/admin/news/${post.id}/history`, token: editor })).json();
      expect(history.items.map((entry: { action: string }) => entry.action)).toEqual(['news.update', 'news.create']);
    });

    it('schedules a draft for a future date and refuses a past date for it', async () => {
      const post = (await create({ title: 'Da programmare' })).json() as NewsPost;
      const future = new Date(Date.now() + 60 * MINUTE).toISOString();
      const scheduled = await ctx.request({
        method: 'PATCH',
        url: `/api/admin/news/${post.id}`,
        payload: { status: 'scheduled', publishAt: future, version: 1 },
        token: editor,
      });
      expect(scheduled.json()).toMatchObject({ status: 'scheduled', publishAt: future });
      const past = await ctx.request({
        method: 'PATCH',
        url: `/api/admin/news/${post.id}`,
        payload: { publishAt: new Date(Date.now() - MINUTE).toISOString(), version: 2 },
        token: editor,
      });
      expect(past.statusCode).toBe(400);
      expect(past.json().error.fields[0].field).toBe('publishAt');
    });

    it('answers 404 for an unknown post', async () => {
      const response = await ctx.request({ method: 'PATCH', url: '/api/admin/news/999999', payload: { title: 'Nessuno', version: 1 }, token: editor });
      expect(response.statusCode).toBe(404);
    });
  });

  describe('delete', () => {
    it('deletes a draft (204) and a not-yet-published scheduled post', async () => {
      const draft = (await create({ title: 'Bozza da eliminare' })).json() as NewsPost;
      const deleted = await ctx.request({ method: 'DELETE', url: `/api/admin/news/${draft.id}`, token: editor });
      expect(deleted.statusCode).toBe(204);
      expect(deleted.body).toBe('');
      expect((await ctx.request({ method: 'GET', url: `/api/admin/news/${draft.id}`, token: editor })).statusCode).toBe(404);

      const scheduled = (
        await create({ title: 'Programmato da eliminare', status: 'scheduled', publishAt: new Date(Date.now() + 60 * MINUTE).toISOString() })
      ).json() as NewsPost;
      expect((await ctx.request({ method: 'DELETE', url: `/api/admin/news/${scheduled.id}`, token: editor })).statusCode).toBe(204);
    });

    it('archives a published post instead of deleting it', async () => {
      const published = (await create({ title: 'Pubblicato da eliminare', status: 'published' })).json() as NewsPost;
      const response = await ctx.request({ method: 'DELETE', url: `/api/admin/news/${published.id}`, token: editor });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ id: published.id, status: 'archived', version: 2 });
      const again = await ctx.request({ method: 'DELETE', url: `/api/admin/news/${published.id}`, token: editor });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ status: 'archived', version: 2 });
    });

    it('answers 404 for an unknown post', async () => {
      expect((await ctx.request({ method: 'DELETE', url: '/api/admin/news/999999', token: editor })).statusCode).toBe(404);
    });
  });

  describe('actions', () => {
    const act = (id: number, action: string, version: number) =>
      ctx.request({ method: 'POST', url: `/api/admin/news/${id}/actions`, payload: { action, version }, token: editor });

    it('publishes a draft now, unpublishes it back to draft and archives it', async () => {
      const post = (await create({ title: 'Ciclo di vita' })).json() as NewsPost;
      const published = await act(post.id, 'publish', 1);
      expect(published.statusCode).toBe(200);
      expect(published.json()).toMatchObject({ status: 'published', version: 2 });
      expect(Math.abs(Date.parse(published.json().publishAt) - Date.now())).toBeLessThan(MINUTE);
      const draft = await act(post.id, 'unpublish', 2);
      expect(draft.json()).toMatchObject({ status: 'draft', version: 3 });
      const archived = await act(post.id, 'archive', 3);
      expect(archived.json()).toMatchObject({ status: 'archived', version: 4 });
    });

    it('keeps a future publishAt when publishing, so the post reads as scheduled', async () => {
      const future = new Date(Date.now() + 90 * MINUTE).toISOString();
      const post = (await create({ title: 'Con data futura', publishAt: future })).json() as NewsPost;
      expect(post.status).toBe('draft');
      const published = await act(post.id, 'publish', 1);
      expect(published.json()).toMatchObject({ status: 'scheduled', publishAt: future });
    });

    it('answers 409 for a stale version, 404 for an unknown post and 400 for an unknown action', async () => {
      const post = (await create({ title: 'Versione vecchia' })).json() as NewsPost;
      expect((await act(post.id, 'publish', 7)).statusCode).toBe(409);
      expect((await act(999999, 'publish', 1)).statusCode).toBe(404);
      const unknown = await act(post.id, 'explode', 1);
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().error.fields[0].field).toBe('action');
    });
  });

  describe('history and audit', () => {
    it("lists a post's changes newest first, with who did them and before/after", async () => {
      const post = (await create({ title: 'Con storia' })).json() as NewsPost;
      await ctx.request({ method: 'PATCH', url: `/api/admin/news/${post.id}`, payload: { title: 'Con storia 2', version: 1 }, token: admin });
      await ctx.request({ method: 'POST', url: `/api/admin/news/${post.id}/actions`, payload: { action: 'publish', version: 2 }, token: editor });
      const response = await ctx.request({ method: 'GET', url: `/api/admin/news/${post.id}/history`, token: editor });
      expect(response.statusCode).toBe(200);
      const items = response.json().items as Array<{ action: string; actorEmail: string; before: NewsPost | null; after: NewsPost | null }>;
      expect(items.map((entry) => entry.action)).toEqual(['news.publish', 'news.update', 'news.create']);
      expect(items.map((entry) => entry.actorEmail)).toEqual(['editor@demo.test', 'admin@demo.test', 'editor@demo.test']);
      expect(items[1]?.before?.title).toBe('Con storia');
      expect(items[1]?.after?.title).toBe('Con storia 2');
      expect(items[2]?.before).toBeNull();
    });

    it('keeps the history of a deleted post and answers 404 for a post that never existed', async () => {
      const post = (await create({ title: 'Eliminato con storia' })).json() as NewsPost;
      await ctx.request({ method: 'DELETE', url: `/api/admin/news/${post.id}`, token: editor });
      const history = await ctx.request({ method: 'GET', url: `/api/admin/news/${post.id}/history`, token: editor });
      expect(history.json().items.map((entry: { action: string }) => entry.action)).toEqual(['news.delete', 'news.create']);
      expect((await ctx.request({ method: 'GET', url: '/api/admin/news/999999/history', token: editor })).statusCode).toBe(404);
    });

    it('writes nothing when a change fails validation', async () => {
      const post = (await create({ title: 'Nessuna traccia' })).json() as NewsPost;
      await ctx.request({ method: 'PATCH', url: `/api/admin/news/${post.id}`, payload: { status: 'scheduled', version: 1 }, token: editor });
      const history = await ctx.request({ method: 'GET', url: `/api/admin/news/${post.id}/history`, token: editor });
      expect(history.json().items).toHaveLength(1);
      expect((await ctx.request({ method: 'GET', url: `/api/admin/news/${post.id}`, token: editor })).json().version).toBe(1);
    });
  });

  describe('access', () => {
    it('refuses a member (403) and an anonymous caller (401)', async () => {
      const member = await ctx.tokenFor('member@demo.test');
      expect((await ctx.request({ method: 'GET', url: '/api/admin/news', token: member })).statusCode).toBe(403);
      expect((await ctx.request({ method: 'GET', url: '/api/admin/news' })).statusCode).toBe(401);
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { NewsPost } from '@sf/contract/news';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { newsPosts } from '../../db/schema.ts';
import { promoteDuePosts } from './news.scheduler.ts';
import { startBackgroundJobs } from '../../jobs.ts';

const MINUTE = 60_000;

describe('scheduled publishing', () => {
  let ctx: TestContext;
  let current = new Date();
  const clock = { now: () => current };
  let editor: string;
  let admin: string;

  beforeAll(async () => {
    ctx = await createTestContext({ clock });
    editor = await ctx.tokenFor('editor@demo.test');
    admin = await ctx.tokenFor('admin@demo.test');
  });
  afterAll(() => ctx.close());

  const statusInAdminList = async (id: number) => {
    const page = (await ctx.request({ method: 'GET', url: '/api/admin/news?pageSize=100', token: editor })).json();
    return (page.items as NewsPost[]).find((post) => post.id === id)?.status;
  };
  const publicIds = async () =>
    ((await ctx.request({ method: 'GET', url: '/api/public/news?pageSize=100' })).json().items as Array<{ id: number }>).map(
      (post) => post.id,
    );
  const dashboard = async () => (await ctx.request({ method: 'GET', url: '/api/admin/dashboard', token: admin })).json();
  const storedStatus = async (id: number) =>
    (await ctx.app.db.select({ status: newsPosts.status }).from(newsPosts).where(eq(newsPosts.id, id)))[0]?.status;

  it('shows a post scheduled a minute ahead as published everywhere once its time passes, before the scheduler runs, then the scheduler persists it with an audit entry', async () => {
    current = new Date();
    const publishAt = new Date(current.getTime() + MINUTE).toISOString();
    const created = await ctx.request({
      method: 'POST',
      url: '/api/admin/news',
      payload: { title: 'Tra un minuto', status: 'scheduled', publishAt },
      token: editor,
    });
    expect(created.statusCode).toBe(201);
    const post = created.json() as NewsPost;
    expect(post.status).toBe('scheduled');

    const before = await dashboard();
    expect(await statusInAdminList(post.id)).toBe('scheduled');
    expect(await publicIds()).not.toContain(post.id);
    expect(before.nextScheduled[0]).toMatchObject({ id: post.id, title: 'Tra un minuto', publishAt });
    expect((await ctx.request({ method: 'GET', url: `/api/public/news/${post.id}` })).statusCode).toBe(404);

    // Time passes; nobody restarts anything and the scheduler has not run yet.
    current = new Date(current.getTime() + 2 * MINUTE);
    expect(await storedStatus(post.id)).toBe('scheduled');
    expect(await statusInAdminList(post.id)).toBe('published');
    expect((await ctx.request({ method: 'GET', url: `/api/admin/news/${post.id}`, token: editor })).json().status).toBe('published');
    const filtered = (await ctx.request({ method: 'GET', url: '/api/admin/news?status=published&pageSize=100', token: editor })).json();
    expect(filtered.items.map((item: NewsPost) => item.id)).toContain(post.id);
    const scheduledOnly = (await ctx.request({ method: 'GET', url: '/api/admin/news?status=scheduled&pageSize=100', token: editor })).json();
    expect(scheduledOnly.items.map((item: NewsPost) => item.id)).not.toContain(post.id);
    expect(await publicIds()).toContain(post.id);
    expect((await ctx.request({ method: 'GET', url: `/api/public/news/${post.id}` })).json()).toMatchObject({ id: post.id, publishedAt: publishAt });
    const after = await dashboard();
    expect(after.postsByStatus.published).toBe(before.postsByStatus.published + 1);
    expect(after.postsByStatus.scheduled).toBe(before.postsByStatus.scheduled - 1);
    expect(after.nextScheduled.map((item: { id: number }) => item.id)).not.toContain(post.id);

    const promoted = await promoteDuePosts(ctx.app);
    expect(promoted).toEqual([post.id]);
    expect(await storedStatus(post.id)).toBe('published');
    const history = (await ctx.request({ method: 'GET', url: `/api/admin/news/${post.id}/history`, token: editor })).json();
    expect(history.items[0]).toMatchObject({
      action: 'news.publish',
      actorId: null,
      actorEmail: 'system',
      before: { status: 'scheduled' },
      after: { status: 'published', id: post.id },
    });
    // The editor's copy stays valid: promotion is not an edit.
    const edit = await ctx.request({
      method: 'PATCH',
      url: `/api/admin/news/${post.id}`,
      payload: { summary: 'Aggiunto dopo', version: post.version },
      token: editor,
    });
    expect(edit.statusCode).toBe(200);
    expect(edit.json().status).toBe('published');

    expect(await promoteDuePosts(ctx.app)).toEqual([]);
  });

  it('runs the promotion as a background job, which the job runner claims', async () => {
    current = new Date();
    const created = (
      await ctx.request({
        method: 'POST',
        url: '/api/admin/news',
        payload: { title: 'Dal job', status: 'scheduled', publishAt: new Date(current.getTime() + MINUTE).toISOString() },
        token: editor,
      })
    ).json() as NewsPost;
    current = new Date(current.getTime() + 5 * MINUTE);
    const runner = startBackgroundJobs(ctx.app, { isAutomatic: false });
    await runner.tick();
    await runner.stop();
    expect(await storedStatus(created.id)).toBe('published');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { auditLog, newsPosts, users } from '../../db/schema.ts';
import { applyAction, createPost, deletePost, updatePost, type Caller } from './news.service.ts';

/**
 * The change and its audit entry commit together or not at all: an audit write that fails (here an
 * actor id the uuid column refuses) must leave the post exactly as it was.
 */
describe('news changes are atomic with their audit entry', () => {
  let ctx: TestContext;
  let broken: Caller;
  let postId: number;

  beforeAll(async () => {
    ctx = await createTestContext();
    const [editor] = await ctx.app.db.select().from(users).where(eq(users.email, 'editor@demo.test'));
    broken = { actor: { id: 'not-a-uuid', email: 'broken@demo.test' }, authorId: editor!.id, language: 'en' };
    const good: Caller = { ...broken, actor: { id: editor!.id, email: editor!.email } };
    postId = (await createPost(ctx.app, good, { title: 'Intatto', summary: '', body: '', coverImageId: null, audience: 'everyone', audienceId: null, status: 'published', publishAt: null, pinned: false })).id;
  });
  afterAll(() => ctx.close());

  const snapshot = async () => ({
    post: (await ctx.app.db.select().from(newsPosts).where(eq(newsPosts.id, postId)))[0],
    posts: (await ctx.app.db.select({ total: count() }).from(newsPosts))[0]?.total,
    audit: (await ctx.app.db.select({ total: count() }).from(auditLog))[0]?.total,
  });

  it('creates nothing when the audit entry cannot be written', async () => {
    const before = await snapshot();
    await expect(
      createPost(ctx.app, broken, { title: 'Mai scritto', summary: '', body: '', coverImageId: null, audience: 'everyone', audienceId: null, status: 'draft', publishAt: null, pinned: false }),
    ).rejects.toThrow();
    expect(await snapshot()).toEqual(before);
  });

  it('changes nothing on update, action or delete when the audit entry cannot be written', async () => {
    const before = await snapshot();
    await expect(updatePost(ctx.app, broken, postId, { title: 'Cambiato', version: 1 })).rejects.toThrow();
    await expect(applyAction(ctx.app, broken, postId, { action: 'unpublish', version: 1 })).rejects.toThrow();
    await expect(deletePost(ctx.app, broken, postId)).rejects.toThrow();
    expect(await snapshot()).toEqual(before);
    expect(before.post).toMatchObject({ title: 'Intatto', status: 'published', version: 1 });
  });
});

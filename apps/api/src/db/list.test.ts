import { afterAll, describe, expect, it } from 'vitest';
import { like, type sql } from 'drizzle-orm';
import { createTestContext } from '../../test/helper.ts';
import { containsPattern, escapeLike, findPage, type ListDefinition } from './list.ts';
import { users } from './schema.ts';

const ctx = await createTestContext();
afterAll(() => ctx.close());

const byEmail: ListDefinition<'email' | 'role'> = {
  sorts: { email: users.email, role: { expression: users.role, nullsLast: true } },
  tieBreaker: users.id,
};
const select = (total: ReturnType<typeof sql<number>>) => ctx.app.db.select({ email: users.email, _total: total }).from(users).$dynamic();

describe('the list helper', () => {
  it('pages in the declared order with the total of all matching rows', async () => {
    const first = await findPage(ctx.app.db, byEmail, select, undefined, { page: 1, pageSize: 2, sort: 'email', order: 'asc' });
    expect(first.rows.map((row) => row.email)).toEqual(['admin@demo.test', 'editor@demo.test']);
    expect(first.total).toBe(3);
    expect(first.rows[0]).not.toHaveProperty('_total');
    const second = await findPage(ctx.app.db, byEmail, select, undefined, { page: 2, pageSize: 2, sort: 'email', order: 'desc' });
    expect(second.rows.map((row) => row.email)).toEqual(['admin@demo.test']);
  });

  it('still counts past the last page, and counts at most the cap when the list declares one', async () => {
    const past = await findPage(ctx.app.db, byEmail, select, undefined, { page: 5, pageSize: 2, sort: 'email', order: 'asc' });
    expect(past).toEqual({ rows: [], total: 3 });
    const capped = await findPage(ctx.app.db, { ...byEmail, countCap: 2 }, select, undefined, { page: 1, pageSize: 1, sort: 'email', order: 'asc' });
    expect(capped).toMatchObject({ total: 2, totalIsCapped: true });
    const exact = await findPage(ctx.app.db, { ...byEmail, countCap: 3 }, select, undefined, { page: 1, pageSize: 1, sort: 'email', order: 'asc' });
    expect(exact).toMatchObject({ total: 3, totalIsCapped: false });
  });

  it('escapes LIKE wildcards so that they match themselves', async () => {
    expect(escapeLike('50%_a\\b')).toBe('50\\%\\_a\\\\b');
    const none = await findPage(ctx.app.db, byEmail, select, like(users.email, containsPattern('_')), {
      page: 1,
      pageSize: 10,
      sort: 'email',
      order: 'asc',
    });
    expect(none.total).toBe(0);
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestContext, testDatabaseKind } from '../../test/helper.ts';
import { batchedTransaction, inlineStatement } from './batch.ts';

const ctx = await createTestContext();
afterAll(() => ctx.close());

const tricky = `O'Brien \\ $1 ''; commit; -- ${'$2'} \u00e8`;

describe('batched transactions', () => {
  it('writes parameters into the text as literals that PostgreSQL reads back unchanged', async () => {
    const at = new Date('2026-03-29T01:30:00.123Z');
    const statement = sql`select ${tricky}::text as text, ${at}::timestamptz as at, ${-3}::int as minus, ${null}::text as nothing,
      ${true}::boolean as yes, ${JSON.stringify({ a: "it's" })}::jsonb as doc, ${12345678901234n}::bigint as big`;
    // No placeholder is left for the server to fill (it would refuse: the batch carries no values).
    expect(inlineStatement(statement)).not.toMatch(/\$[0-9]+::/u);
    const [rows] = await batchedTransaction(ctx.app.db, (transaction) => transaction.send([statement], { commit: true }));
    const row = rows![0];
    expect(row).toMatchObject({ text: tricky, minus: -3, nothing: null, yes: true, doc: { a: "it's" } });
    expect(new Date(String(row!['at'] instanceof Date ? (row!['at'] as Date).toISOString() : row!['at'])).toISOString()).toBe(at.toISOString());
    expect(String(row!['big'])).toBe('12345678901234');
  });

  it('runs a batch in order, each statement seeing the ones before it, and commits', async () => {
    await ctx.app.db.execute(sql`create table if not exists batch_probe (id int primary key, note text)`);
    const results = await batchedTransaction(ctx.app.db, async (transaction) => {
      const first = await transaction.send([
        sql`insert into batch_probe values (1, ${tricky}) returning id`,
        sql`select count(*)::int as n from batch_probe`,
      ]);
      const second = await transaction.send([sql`insert into batch_probe values (2, 'b') returning id`], { commit: true });
      return [...first, ...second];
    });
    expect(results).toEqual([[{ id: 1 }], [{ n: 1 }], [{ id: 2 }]]);
    const stored = (await ctx.app.db.execute(sql`select id, note from batch_probe order by id`)) as unknown as { rows: unknown[] };
    expect(stored.rows).toEqual([{ id: 1, note: tricky }, { id: 2, note: 'b' }]);
  });

  it('keeps nothing of a transaction whose last batch fails, even with the commit in it', async () => {
    await ctx.app.db.execute(sql`create table if not exists batch_failure (id int primary key)`);
    await expect(
      batchedTransaction(ctx.app.db, async (transaction) => {
        await transaction.send([sql`insert into batch_failure values (1)`]);
        await transaction.send([sql`insert into batch_failure values (2)`, sql`insert into batch_failure values (2)`], { commit: true });
      }),
    ).rejects.toMatchObject({});
    const stored = (await ctx.app.db.execute(sql`select count(*)::int as n from batch_failure`)) as unknown as { rows: { n: number }[] };
    expect(stored.rows[0]!.n).toBe(0);
    // The connection went back clean: the next transaction works.
    const [rows] = await batchedTransaction(ctx.app.db, (transaction) => transaction.send([sql`select 1 as one`]));
    expect(rows).toEqual([{ one: 1 }]);
  });

  it('rolls back when the work throws between batches', async () => {
    await ctx.app.db.execute(sql`create table if not exists batch_thrown (id int primary key)`);
    await expect(
      batchedTransaction(ctx.app.db, async (transaction) => {
        await transaction.send([sql`insert into batch_thrown values (1)`]);
        throw new Error('the rules said no');
      }),
    ).rejects.toThrow('the rules said no');
    const stored = (await ctx.app.db.execute(sql`select count(*)::int as n from batch_thrown`)) as unknown as { rows: { n: number }[] };
    expect(stored.rows[0]!.n).toBe(0);
  });

  it('gives the same answers once its statements are prepared on the connection', async () => {
    const statement = (n: number) => sql`select ${n}::int + 1 as next, ${tricky}::text as text`;
    const answers: unknown[] = [];
    // One transaction at a time: the pool hands the same connection back, which prepared the shape
    // after its first use (on PGlite nothing is prepared, and the answers are the same).
    for (let run = 0; run < 3; run += 1) {
      answers.push(await batchedTransaction(ctx.app.db, (transaction) => transaction.send([statement(run)], { commit: true })));
    }
    expect(answers).toEqual([0, 1, 2].map((n) => [[{ next: n + 1, text: tricky }]]));
    if (testDatabaseKind === 'postgres') {
      const [rows] = await batchedTransaction(ctx.app.db, (transaction) =>
        transaction.send([sql`select count(*)::int as n from pg_prepared_statements where name like 'sf\\_%'`]),
      );
      expect(rows![0]!['n']).toBeGreaterThan(0);
    }
  });
});

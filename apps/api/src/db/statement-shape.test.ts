import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { createTestContext } from '../../test/helper.ts';
import { batchedTransaction } from './batch.ts';
import { StatementShape, shapesBy } from './statement-shape.ts';

const ctx = await createTestContext();
afterAll(() => ctx.close());

const dialect = new PgDialect({ casing: 'snake_case' });
const tricky = `O'Brien \\ $1 ''; commit; -- ${'$2'} \u00e8`;

describe('statement shapes', () => {
  it('builds the text once, then only fills in each request’s values, in the placeholders’ order', () => {
    let builds = 0;
    const shape = new StatementShape<'a' | 'b'>((p) => {
      builds += 1;
      return sql`select ${p('b')}::int as b, ${'fixed'}::text as f, ${p('a')}::text as a, ${p('b')}::int + 1 as c`;
    });
    const first = shape.with({ a: 'x', b: 1 });
    const second = shape.with({ a: 'y', b: 2 });
    expect(builds).toBe(1);
    expect(shape.text).toBe('select $1::int as b, $2::text as f, $3::text as a, $4::int + 1 as c');
    expect(first.params).toEqual([1, 'fixed', 'x', 1]);
    expect(second.params).toEqual([2, 'fixed', 'y', 2]);
    expect(shape.name).toMatch(/^sf_[0-9a-f]{24}$/u);
  });

  it('refuses a request that leaves a placeholder without a value, naming it', () => {
    const shape = new StatementShape<'a' | 'b'>((p) => sql`select ${p('a')}, ${p('b')}`);
    expect(() => shape.with({ a: 1 } as Record<'a' | 'b', unknown>)).toThrow(/placeholder "b"/u);
  });

  it('gives every executor the same text and values as a Drizzle statement', () => {
    const shape = new StatementShape<'a'>((p) => sql`select ${p('a')}::text as a where ${p('a')} <> ''`);
    const query = dialect.sqlToQuery(shape.with({ a: tricky }).getSQL());
    expect({ sql: query.sql, params: query.params }).toEqual({ sql: shape.text, params: [tricky, tricky] });
  });

  it('builds each variant once (shapesBy)', () => {
    let builds = 0;
    const variants = shapesBy((withNote: 'yes' | 'no') => {
      builds += 1;
      return new StatementShape<'id'>((p) => sql`select ${p('id')}::int as id${withNote === 'yes' ? sql`, 'note' as note` : sql``}`);
    });
    expect(variants('yes')).toBe(variants('yes'));
    expect(variants('no').text).toBe('select $1::int as id');
    expect(builds).toBe(2);
  });

  it('runs in a batched transaction, prepared after its first use, with the values of each run', async () => {
    const shape = new StatementShape<'text' | 'n'>((p) => sql`select ${p('text')}::text as text, ${p('n')}::int * 2 as twice`);
    for (const n of [1, 2, 3]) {
      const [rows] = await batchedTransaction(ctx.app.db, (transaction) => transaction.send([shape.with({ text: tricky, n })], { commit: true }));
      expect(rows).toEqual([{ text: tricky, twice: n * 2 }]);
    }
  });
});

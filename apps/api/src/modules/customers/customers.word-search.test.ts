import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { ListCustomersQuery } from '@sf/contract/customers';
import { createTestContext, selectRows } from '../../../test/helper.ts';
import { customerListPlan, SORT_AFTER_SCAN_MAX_ROWS } from './customers.repository.ts';

/**
 * A word search's page is found one of two ways (decision 014): its matches sorted, or the name index
 * walked in order. A surname is one block of that index — at its end, the walk read nearly every
 * customer (0.4–1.5 s on 1,000,000) — so a search expected to match few enough rows sorts them, and
 * one matching a great many walks. Either way, the same customers in the same order.
 */
const ctx = await createTestContext();
let token = '';
const FIRST_NAMES = ['Anna', 'Luca', 'Marco', 'Sara'];
// 40,000 customers: Zanetti (late in the alphabet, 1 in 20) and Abate (first, 1 in 20) among others,
// a quarter of them Anna, every card number starting with 279.
const CUSTOMERS = 40_000;
const LAST_NAMES = ['Abate', 'Bruni', 'Colli', 'Dini', 'Esti', 'Fumi', 'Gori', 'Lodi', 'Moro', 'Neri', 'Orsi', 'Pini', 'Rota', 'Sala', 'Testa', 'Ugo', 'Vasi', 'Villa', 'Volpi', 'Zanetti'];
beforeAll(async () => {
  token = await ctx.tokenFor('admin@demo.test');
  const list = (values: string[]) => sql.raw(`array[${values.map((value) => `'${value}'`).join(',')}]`);
  await ctx.app.db.execute(sql`
    insert into customers (first_name, last_name, card_number, referral_code, service_consent)
    select (${list(FIRST_NAMES)})[1 + i % 4], (${list(LAST_NAMES)})[1 + (i / 4) % 20], '279' || lpad(i::text, 10, '0'), 'W' || i, true
    from generate_series(1, ${CUSTOMERS}::int) i`);
  await ctx.app.db.execute(sql`analyze customers`);
}, 120_000);
afterAll(() => ctx.close());

const search = (q: string, extra: Partial<ListCustomersQuery> = {}): ListCustomersQuery => ({ q, page: 1, pageSize: 25, sort: 'name', order: 'asc', ...extra });

/** The page as plain SQL asks for it: every match, ordered by the list's keys, then the page. */
async function expectedPage(word: string, query: ListCustomersQuery) {
  const direction = sql.raw(query.order);
  const rows = await selectRows<{ id: string }>(
    ctx.app,
    sql`select id from customers where search_text like ${`%${word}%`}
        order by last_name_key ${direction} nulls last, first_name_key ${direction} nulls last, id ${direction}
        limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`,
  );
  return rows.map((row) => row.id);
}

async function apiPage(query: ListCustomersQuery) {
  const params = new URLSearchParams({ q: query.q!, page: String(query.page), pageSize: String(query.pageSize), sort: query.sort, order: query.order });
  const response = await ctx.request({ method: 'GET', url: `/api/admin/customers?${params}`, token });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json().items as { id: string }[]).map((item) => item.id);
}

describe('a one-word search, found by its matches sorted or by the name index', () => {
  it('sorts the matches of a surname, even one at the end of the alphabet, and walks the index for a word most customers share', async () => {
    expect(await customerListPlan(ctx.app.db, search('zanetti'))).toBe('sorted');
    expect(await customerListPlan(ctx.app.db, search('Abate'))).toBe('sorted');
    expect(await customerListPlan(ctx.app.db, search('anna'))).toBe('sorted');
    // Every card number starts with 279: far more matches than a sort should take.
    expect(CUSTOMERS).toBeGreaterThan(SORT_AFTER_SCAN_MAX_ROWS);
    expect(await customerListPlan(ctx.app.db, search('279'))).toBe('index');
  });

  it('gives the same customers in the same order either way, in both directions and on later pages', async () => {
    for (const word of ['zanetti', 'abate', 'anna', '279']) {
      for (const query of [search(word), search(word, { order: 'desc' }), search(word, { page: 3 }), search(word, { page: 2, order: 'desc' })]) {
        expect(await apiPage(query), `${word} ${query.order} page ${query.page}`).toEqual(await expectedPage(word, query));
      }
    }
  });
});

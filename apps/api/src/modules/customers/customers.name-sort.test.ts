import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestContext } from '../../../test/helper.ts';
import { orderFor } from '../../db/list.ts';
import { customerList } from './customers.repository.ts';
import { customers } from './customers.schema.ts';

/**
 * Issue 31: an erased customer (names emptied by the privacy erasure) came first in Clienti sorted by
 * name. Erased customers come after everyone in both directions, the pages neither repeat nor skip
 * anyone, and each direction's order is read from an index (no sort of the whole table).
 */
const ctx = await createTestContext();
let token = '';
const ids = new Map<string, string>();
beforeAll(async () => {
  token = await ctx.tokenFor('admin@demo.test');
  const service = { granted: true, channel: 'counter', noticeVersion: '2026-01' };
  for (const lastName of ['Bianchi', 'Conti', 'Esposito', 'Ferrari', 'Greco']) {
    const created = await ctx.request({ method: 'POST', url: '/api/admin/customers', token, payload: { firstName: 'Anna', lastName, consents: { service } } });
    expect(created.statusCode, created.body).toBe(201);
    ids.set(lastName, created.json().id);
  }
  // Two erased through the privacy requests, as staff do it.
  for (const lastName of ['Conti', 'Ferrari']) {
    const request = await ctx.request({ method: 'POST', url: '/api/admin/privacy-requests', token, payload: { kind: 'erasure', customerId: ids.get(lastName) } });
    expect(request.statusCode, request.body).toBe(201);
    const erased = await ctx.request({ method: 'POST', url: `/api/admin/privacy-requests/${request.json().id}/actions`, token, payload: { action: 'erase', version: request.json().version } });
    expect(erased.statusCode, erased.body).toBe(200);
  }
});
afterAll(() => ctx.close());

type Row = { id: string; lastName: string; status: string };
const page = async (query: string) => {
  const response = await ctx.request({ method: 'GET', url: `/api/admin/customers?${query}`, token });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { items: Row[]; total: number };
};

describe('customers sorted by name, with erased customers', () => {
  for (const order of ['asc', 'desc'] as const) {
    it(`puts the erased after everyone (${order}) on the first page and across pages of 2, none twice or missing`, async () => {
      const named = order === 'asc' ? ['Bianchi', 'Esposito', 'Greco'] : ['Greco', 'Esposito', 'Bianchi'];
      for (const sort of ['name', 'lastName']) {
        const first = await page(`sort=${sort}&order=${order}&pageSize=25`);
        expect(first.items.map((c) => c.lastName)).toEqual([...named, '', '']);
        expect(first.items.slice(3).every((c) => c.status === 'erased')).toBe(true);
        // The erased among themselves: by id, in the list's direction (the tie-breaker).
        const erasedIds = [ids.get('Conti')!, ids.get('Ferrari')!].sort();
        expect(first.items.slice(3).map((c) => c.id)).toEqual(order === 'asc' ? erasedIds : erasedIds.reverse());

        const paged: Row[] = [];
        for (let number = 1; number <= 3; number += 1) paged.push(...(await page(`sort=${sort}&order=${order}&pageSize=2&page=${number}`)).items);
        expect(paged.map((c) => c.id)).toEqual(first.items.map((c) => c.id));
      }
    });

    it(`reads the page's order (${order}) from an index: no sort step`, async () => {
      const query = ctx.app.db
        .select({ id: customers.id })
        .from(customers)
        .orderBy(...orderFor(customerList.sorts, 'name', order, customerList.tieBreaker))
        .limit(25)
        .toSQL();
      const plan = await ctx.app.db.transaction(async (tx) => {
        // Five rows: the planner would rather sort them; forbidding sorts and table scans asks whether an index CAN give the order.
        await tx.execute(sql`set local enable_sort = off`);
        await tx.execute(sql`set local enable_seqscan = off`);
        const explained = (await tx.execute(sql`explain ${sql.raw(inline(query.sql, query.params))}`)) as unknown as { rows: Record<string, string>[] };
        return explained.rows.map((row) => Object.values(row)[0]).join('\n');
      });
      expect(plan).toMatch(order === 'asc' ? /Index (Only )?Scan using customers_name_key_idx/ : /Index (Only )?Scan using customers_name_key_desc_idx/);
      expect(plan).not.toMatch(/Sort/);
    });
  }
});

/** The statement with its parameters written in (here only the limit), for EXPLAIN. */
function inline(text: string, params: unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, index: string) => String(params[Number(index) - 1]));
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext } from './helper.ts';
import { uniquePartitaIva } from './ledger-fixtures.ts';

/** Where merchants and customers meet the ledger: the delete guard and the membership filters. */
const ctx = await createTestContext();
let token = '';
const ids = { merchant: '', idle: '', program: '', maria: '', luca: '' };

const post = (url: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  ctx.request({ method: 'POST', url, token, payload, headers });

beforeAll(async () => {
  token = await ctx.tokenFor('admin@demo.test');
  const merchant = { category: 'bar', address: { street: 'Via Roma 1', city: 'Bologna', province: 'BO', postalCode: '40121' } };
  ids.merchant = (await post('/api/admin/merchants', { ...merchant, vatNumber: uniquePartitaIva(), legalName: 'Bar con movimenti' })).json().id;
  ids.idle = (await post('/api/admin/merchants', { ...merchant, vatNumber: uniquePartitaIva(), legalName: 'Bar senza movimenti' })).json().id;
  const program = await post('/api/admin/programs', {
    name: 'Circuito Bologna',
    type: 'points',
    status: 'active',
    pointsPerEuro: 1,
    merchantIds: [ids.merchant, ids.idle],
    tiers: [
      { name: 'Bronzo', minPoints: 0, multiplier: 1 },
      { name: 'Oro', minPoints: 100, multiplier: 2 },
    ],
  });
  ids.program = program.json().id;
  ids.maria = (await post('/api/admin/customers', { firstName: 'Maria', lastName: 'Rossi' })).json().id;
  ids.luca = (await post('/api/admin/customers', { firstName: 'Luca', lastName: 'Bianchi' })).json().id;
  await post('/api/admin/customers', { firstName: 'Anna', lastName: 'Verdi' });
  for (const [customerId, amountCents, key] of [
    [ids.maria, 25_000, 'key-maria-0001'],
    [ids.luca, 1_000, 'key-luca-00001'],
  ] as const) {
    const entry = await post(
      '/api/admin/ledger',
      { customerId, programId: ids.program, merchantId: ids.merchant, kind: 'purchase', amountCents },
      { 'idempotency-key': key },
    );
    expect(entry.statusCode, entry.body).toBeLessThan(300);
  }
});
afterAll(() => ctx.close());

describe('merchants and the ledger', () => {
  it('refuses to delete a merchant with ledger entries (409 has_ledger_entries) and lets it be archived', async () => {
    const url = `/api/admin/merchants/${ids.merchant}`;
    const refused = await ctx.request({ method: 'DELETE', url, token, headers: { 'accept-language': 'en' } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ code: 'has_ledger_entries', message: expect.stringMatching(/archive it/) });
    expect((await ctx.request({ method: 'GET', url, token })).statusCode).toBe(200);
    const archived = await ctx.request({ method: 'PATCH', url, token, payload: { status: 'archived', version: 1 } });
    expect(archived.json().status).toBe('archived');
  });

  it('still deletes a merchant of the same program that has no entries', async () => {
    expect((await ctx.request({ method: 'DELETE', url: `/api/admin/merchants/${ids.idle}`, token })).statusCode).toBe(204);
  });
});

describe('customers filtered by membership', () => {
  const lastNames = async (query: string) => {
    const response = await ctx.request({ method: 'GET', url: `/api/admin/customers?sort=name&${query}`, token });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().items.map((c: { lastName: string }) => c.lastName);
  };

  it('filters by program and by tier', async () => {
    expect(await lastNames('')).toEqual(['Bianchi', 'Rossi', 'Verdi']);
    expect(await lastNames(`programId=${ids.program}`)).toEqual(['Bianchi', 'Rossi']);
    expect(await lastNames(`programId=${ids.program}&tier=Oro`)).toEqual(['Rossi']);
    expect(await lastNames('tier=Bronzo')).toEqual(['Bianchi']);
  });

  it('exports with the same membership filter', async () => {
    const response = await ctx.request({ method: 'GET', url: `/api/admin/customers/export.csv?programId=${ids.program}&tier=Oro`, token });
    const lines = response.rawPayload.toString('utf8').slice(1).trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(';Rossi;Maria;');
  });
});

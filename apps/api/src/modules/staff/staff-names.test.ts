import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestContext, multipartBody, selectRows, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture, type LedgerFixture } from '../../../test/ledger-fixtures.ts';

const ADMIN = 'admin@demo.test';

/**
 * Who uploaded an import (Importazioni's "Da") and who handled a privacy request ("Gestita da") are
 * answered as people read them: the staff member's name, or their e-mail when they have none.
 */
describe('staff members named on other screens', () => {
  let ctx: TestContext;
  let token: string;
  let fx: LedgerFixture;
  let adminName = '';

  beforeAll(async () => {
    ctx = await createTestContext();
    token = await ctx.tokenFor(ADMIN);
    fx = await createLedgerFixture(ctx.app.db, { customers: 1 });
    const [admin] = await selectRows<{ display_name: string }>(ctx.app, sql`select display_name from users where email = ${ADMIN}`);
    adminName = admin!.display_name;
    expect(adminName).not.toBe('');
  });
  afterAll(async () => ctx?.close());

  const get = (url: string) => ctx.request({ method: 'GET', url, token });

  it('names the uploader of an import, on the list and on the import', async () => {
    const body = multipartBody({ kind: 'customers', dryRun: 'true' }, { name: 'clienti.csv', content: 'Nome;Cognome\r\nAda;Lovelace\r\n' });
    const uploaded = await ctx.request({ method: 'POST', url: '/api/admin/imports', token, payload: body.payload, headers: body.headers });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    expect(uploaded.json()).toMatchObject({ createdBy: ADMIN, createdByName: adminName });
    const list = await get('/api/admin/imports');
    expect(list.json().items.find((item: { id: string }) => item.id === uploaded.json().id)).toMatchObject({ createdBy: ADMIN, createdByName: adminName });
    expect((await get(`/api/admin/imports/${uploaded.json().id}`)).json()).toMatchObject({ createdByName: adminName });
  });

  it('names who handled a privacy request, and says their e-mail when they have no name', async () => {
    const created = await ctx.request({ method: 'POST', url: '/api/admin/privacy-requests', token, payload: { kind: 'objection', customerId: fx.customerIds[0] } });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ handledBy: null, handledByName: null });
    const closed = await ctx.request({
      method: 'POST',
      url: `/api/admin/privacy-requests/${created.json().id}/actions`,
      token,
      payload: { action: 'close', isRejected: true, reason: 'Richiesta non verificabile', version: created.json().version },
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().request).toMatchObject({ handledByEmail: ADMIN, handledByName: adminName });
    const list = await get('/api/admin/privacy-requests?pageSize=100');
    expect(list.json().items.find((item: { id: string }) => item.id === created.json().id)).toMatchObject({ handledByName: adminName });
    const csv = await get(`/api/admin/privacy-requests/export.csv?customerId=${fx.customerIds[0]}`);
    expect(csv.body).toContain(adminName);

    await ctx.app.db.execute(sql`update users set display_name = ' ' where email = ${ADMIN}`);
    try {
      expect((await get(`/api/admin/privacy-requests/${created.json().id}`)).json()).toMatchObject({ handledByName: ADMIN });
      expect((await get('/api/admin/imports')).json().items[0]).toMatchObject({ createdByName: ADMIN });
    } finally {
      await ctx.app.db.execute(sql`update users set display_name = ${adminName} where email = ${ADMIN}`);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestContext } from '../../../test/helper.ts';
import { uniquePartitaIva } from '../../../test/ledger-fixtures.ts';
import { auditLog } from '../../db/schema.ts';

const ctx = await createTestContext();
let token = '';
beforeAll(async () => {
  token = await ctx.tokenFor('admin@demo.test');
});
afterAll(() => ctx.close());

const base = {
  legalName: 'Bar Centrale srl',
  signName: 'Bar Centrale',
  category: 'bar',
  address: { street: 'Via Roma 1', city: 'Milano', province: 'MI', postalCode: '20121' },
};

/** A Partita IVA belongs to one merchant: each new one gets its own unless the test names one. */
async function create(body: Record<string, unknown>, language = 'it') {
  const payload = { vatNumber: uniquePartitaIva(), ...body };
  return ctx.request({ method: 'POST', url: '/api/admin/merchants', token, payload, headers: { 'accept-language': language } });
}

describe('merchants API', () => {
  it('creates a merchant, normalising phone and province, and audits it in the same transaction', async () => {
    const response = await create({ ...base, vatNumber: '00743110157', phone: '02 1234567', address: { ...base.address, province: 'mi' }, sdiCode: 'm5uxcr1' });
    expect(response.statusCode, response.body).toBe(201);
    const merchant = response.json();
    expect(merchant).toMatchObject({
      legalName: 'Bar Centrale srl',
      vatNumber: '00743110157',
      sdiCode: 'M5UXCR1',
      phone: '+39021234567',
      address: { province: 'MI', postalCode: '20121' },
      status: 'active',
      version: 1,
    });
    const audit = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'merchant'), eq(auditLog.entityId, merchant.id)));
    expect(audit.map((row) => row.action)).toEqual(['create']);
  });

  it('answers 400 naming each wrong field, in Italian and in English', async () => {
    const it = await create({ ...base, vatNumber: '00743110158', taxCode: 'RSSMRA85T10A562T', address: { ...base.address, province: 'XX', postalCode: '201' } });
    expect(it.statusCode).toBe(400);
    const fields = it.json().error.fields as { field: string; message: string }[];
    expect(fields).toEqual(
      expect.arrayContaining([
        { field: 'vatNumber', message: 'Partita IVA non è valida' },
        { field: 'taxCode', message: 'Codice fiscale non è valido' },
        { field: 'address.province', message: 'Provincia non è valida' },
        { field: 'address.postalCode', message: 'CAP non è valido' },
      ]),
    );
    const en = await create({ ...base, vatNumber: '00743110158' }, 'en');
    expect(en.json().error.fields).toEqual([{ field: 'vatNumber', message: 'VAT number is not valid' }]);
  });

  it("names a field a client invented as it is, never through Object's prototype (issue 30)", async () => {
    for (const key of ['constructor', 'toString', 'hasOwnProperty']) {
      const response = await create({ ...base, social: { [key]: 1 } });
      expect(response.statusCode).toBe(400);
      const body = response.body;
      expect(body).not.toContain('native code');
      expect(body).not.toContain('function');
      expect(response.json().error.fields.map((f: { field: string }) => f.field)).toEqual([`social.${key}`]);
    }
  });

  it('refuses a merchant name with a right-to-left override or a zero-width character', async () => {
    const response = await create({ ...base, legalName: 'Bar\u202E Centrale', signName: 'Bar\u200DCentrale' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields.map((f: { field: string }) => f.field).sort()).toEqual(['legalName', 'signName']);
  });

  it('normalises a pasted Partita IVA and refuses one another merchant has (409 naming the field); an archived one frees it', async () => {
    const vat = uniquePartitaIva();
    const pasted = await create({ ...base, legalName: 'Gelateria Uno', vatNumber: `IT ${vat.slice(0, 2)} ${vat.slice(2)}` });
    expect(pasted.statusCode, pasted.body).toBe(201);
    expect(pasted.json().vatNumber).toBe(vat);
    for (const [language, text] of [['it', 'Partita IVA già in uso'], ['en', 'VAT number is already in use']] as const) {
      const twin = await create({ ...base, legalName: 'Gelateria Due', vatNumber: `IT${vat}` }, language);
      expect(twin.statusCode).toBe(409);
      expect(twin.json().error).toMatchObject({ code: 'already_used', fields: [{ field: 'vatNumber', message: text }] });
    }
    const other = (await create({ ...base, legalName: 'Gelateria Tre' })).json();
    const onEdit = await ctx.request({ method: 'PATCH', url: `/api/admin/merchants/${other.id}`, token, payload: { vatNumber: vat, version: 1 } });
    expect(onEdit.statusCode).toBe(409);
    expect(onEdit.json().error.fields[0].field).toBe('vatNumber');
    // The company's archived record keeps its number without blocking a new registration.
    const archived = await ctx.request({ method: 'PATCH', url: `/api/admin/merchants/${pasted.json().id}`, token, payload: { status: 'archived', version: 1 } });
    expect(archived.statusCode).toBe(200);
    expect((await create({ ...base, legalName: 'Gelateria Due', vatNumber: vat })).statusCode).toBe(201);
    const back = await ctx.request({ method: 'PATCH', url: `/api/admin/merchants/${pasted.json().id}`, token, payload: { status: 'active', version: 2 } });
    expect(back.statusCode).toBe(409);
    expect(back.json().error.code).toBe('already_used');
  });

  it('wants a PEC with the SDI code 0000000', async () => {
    const response = await create({ ...base, sdiCode: '0000000' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual([{ field: 'pec', message: 'PEC è obbligatoria' }]);
    expect((await create({ ...base, sdiCode: '0000000', pec: 'bar@pec.it' })).statusCode).toBe(201);
  });

  it('edits with optimistic concurrency, suspends and archives, each audited', async () => {
    const merchant = (await create({ ...base, legalName: 'Parrucchiere Anna', category: 'hairdresser' })).json();
    const url = `/api/admin/merchants/${merchant.id}`;
    const edited = await ctx.request({ method: 'PATCH', url, token, payload: { signName: 'Anna Hair', version: 1 } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ signName: 'Anna Hair', version: 2 });

    const stale = await ctx.request({ method: 'PATCH', url, token, payload: { signName: 'Old', version: 1 } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toMatchObject({ code: 'version_conflict' });
    expect(stale.json().error.message).toMatch(/Qualcun altro/);

    const suspended = await ctx.request({ method: 'PATCH', url, token, payload: { status: 'suspended', version: 2 } });
    expect(suspended.json().status).toBe('suspended');
    // Removing the PEC while SDI is 0000000 is refused on the merged merchant.
    const withPec = await ctx.request({ method: 'PATCH', url, token, payload: { sdiCode: '0000000', pec: 'anna@pec.it', version: 3 } });
    expect(withPec.statusCode).toBe(200);
    const noPec = await ctx.request({ method: 'PATCH', url, token, payload: { pec: null, version: 4 } });
    expect(noPec.statusCode).toBe(400);
    expect(noPec.json().error.fields[0].field).toBe('pec');
    const archived = await ctx.request({ method: 'PATCH', url, token, payload: { status: 'archived', version: 4 } });
    expect(archived.json()).toMatchObject({ status: 'archived', version: 5 });
    const actions = await ctx.app.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.entityId, merchant.id));
    expect(actions.map((row) => row.action)).toEqual(['create', 'update', 'suspend', 'update', 'archive']);
  });

  it('deletes a merchant without ledger entries, then answers 404', async () => {
    const merchant = (await create({ ...base, legalName: 'Da cancellare' })).json();
    const url = `/api/admin/merchants/${merchant.id}`;
    expect((await ctx.request({ method: 'DELETE', url, token })).statusCode).toBe(204);
    const again = await ctx.request({ method: 'GET', url, token });
    expect(again.statusCode).toBe(404);
    expect(again.json().error.message).toBe('Esercente richiesto non trovato');
  });

  it('lists with search, filters, sort and paging', async () => {
    await create({ ...base, legalName: 'Zeta Fiori snc', category: 'florist', address: { ...base.address, city: 'Torino', province: 'TO' } });
    await create({ ...base, legalName: 'Alfa 50% Sconti', category: 'clothing' });
    const list = (query: string) => ctx.request({ method: 'GET', url: `/api/admin/merchants?${query}`, token });

    const byName = (await list('sort=legalName&order=asc&pageSize=2')).json();
    expect(byName.items.map((m: { legalName: string }) => m.legalName)).toEqual(['Alfa 50% Sconti', 'Bar Centrale srl']);
    expect(byName.total).toBeGreaterThanOrEqual(5);
    const page2 = (await list('sort=legalName&order=asc&pageSize=2&page=2')).json();
    const ids = (page: { items: { id: string }[] }) => page.items.map((m) => m.id);
    expect(ids(page2)).toHaveLength(2);
    expect(ids(page2).some((id) => ids(byName).includes(id))).toBe(false);

    // A literal % is searched as a character, not a wildcard.
    expect((await list('q=50%25')).json().items.map((m: { legalName: string }) => m.legalName)).toEqual(['Alfa 50% Sconti']);
    expect((await list('province=to')).json().items.map((m: { legalName: string }) => m.legalName)).toEqual(['Zeta Fiori snc']);
    expect((await list('category=florist&status=active')).json().total).toBe(1);
    expect((await list('status=archived')).json().items.map((m: { legalName: string }) => m.legalName)).toEqual(['Gelateria Uno', 'Parrucchiere Anna']);
    const past = (await list('page=99')).json();
    expect(past.items).toEqual([]);
    expect(past.total).toBeGreaterThanOrEqual(5);

    const bad = await list('sort=vatNumber');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields[0].field).toBe('sort');
  });

  it('exports the filtered list as CSV for Italian Excel', async () => {
    const response = await ctx.request({ method: 'GET', url: '/api/admin/merchants/export.csv?category=florist', token });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toContain('esercenti.csv');
    const body = response.rawPayload.toString('utf8');
    expect(body.startsWith('\uFEFF')).toBe(true);
    const lines = body.slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^Ragione sociale;Insegna;Partita IVA;/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^Zeta Fiori snc;Bar Centrale;\d{11};/);
    // The category and the status in the export's language (florist, active are stored).
    expect(lines[1]).toContain(';Fioraio;');
    expect(lines[1]).toContain(';Attivo;');
    expect(lines[1]).toMatch(/;\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);

    const en = await ctx.request({ method: 'GET', url: '/api/admin/merchants/export.csv', token, headers: { 'accept-language': 'en' } });
    expect(en.rawPayload.toString('utf8').slice(1).split('\r\n')[0]).toMatch(/^Legal name;Sign name;VAT number;/);
  });
});

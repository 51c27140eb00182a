import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { isValidCardNumber } from '@sf/contract/customers';
import { createTestContext } from '../../../test/helper.ts';
import { auditLog } from '../../db/schema.ts';

const ctx = await createTestContext();
let token = '';
beforeAll(async () => {
  token = await ctx.tokenFor('admin@demo.test');
});
afterAll(() => ctx.close());

const service = { granted: true, channel: 'counter', noticeVersion: '2026-01' };

async function create(body: Record<string, unknown>, language = 'it') {
  return ctx.request({ method: 'POST', url: '/api/admin/customers', token, payload: body, headers: { 'accept-language': language } });
}
const list = (query: string) => ctx.request({ method: 'GET', url: `/api/admin/customers?${query}`, token });
const names = (response: { json(): { items: { lastName: string }[] } }) => response.json().items.map((c) => c.lastName);

describe('customers API', () => {
  let maria: { id: string; referralCode: string; cardNumber: string; version: number };

  it('creates a customer with a card number, a referral code and the consents given', async () => {
    const response = await create({
      firstName: 'Maria',
      lastName: 'Rossi',
      email: 'Maria.Rossi@Example.it',
      phone: '347 123 4567',
      birthDate: '1985-12-10',
      city: 'Milano',
      province: 'mi',
      consents: { service, marketing: { ...service, granted: true } },
    });
    expect(response.statusCode, response.body).toBe(201);
    maria = response.json();
    expect(maria).toMatchObject({
      email: 'maria.rossi@example.it',
      phone: '+393471234567',
      province: 'MI',
      status: 'active',
      referredBy: null,
      consents: {
        service: { granted: true, channel: 'counter', noticeVersion: '2026-01' },
        marketing: { granted: true },
        profiling: null,
      },
    });
    expect(isValidCardNumber(maria.cardNumber)).toBe(true);
    expect(maria.referralCode).toMatch(/^[34679ACDEFGHJKMNPQRTUVWXY]{8}$/);
  });

  it('links a referee to the referrer by code, and refuses an unknown code naming the field', async () => {
    const luca = await create({ firstName: 'Luca', lastName: 'Bianchi', referrerCode: maria.referralCode.toLowerCase(), consents: { service } });
    expect(luca.statusCode).toBe(201);
    expect(luca.json().referredBy).toBe(maria.id);
    expect(luca.json().consents.marketing).toBeNull();
    expect(luca.json().cardNumber).not.toBe(maria.cardNumber);
    const unknown = await create({ firstName: 'X', lastName: 'Y', referrerCode: 'AAAAAAAA' }, 'en');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.fields).toEqual([{ field: 'referrerCode', message: 'The requested Referrer code is not found' }]);
  });

  it('answers 400 naming wrong fields, and 409 for an e-mail already used', async () => {
    const bad = await create({ firstName: '', lastName: 'Verdi', email: 'not-an-email', phone: '123', province: 'ZZ', birthDate: '1985-13-40' });
    expect(bad.statusCode).toBe(400);
    const fields = (bad.json().error.fields as { field: string; message: string }[]).map((f) => f.field).sort();
    expect(fields).toEqual(['birthDate', 'email', 'firstName', 'phone', 'province']);
    expect(bad.json().error.fields).toContainEqual({ field: 'province', message: 'Provincia non è valida' });
    // A birth date that has not happened, or a year typed with a digit missing.
    for (const birthDate of ['2999-01-01', '0985-03-12']) {
      const unborn = await create({ firstName: 'Anna', lastName: 'Neri', birthDate });
      expect(unborn.statusCode, birthDate).toBe(400);
      expect(unborn.json().error.fields).toEqual([{ field: 'birthDate', message: expect.stringMatching(/^Data di nascita non è valid/) }]);
    }
    const taken = await create({ firstName: 'Altra', lastName: 'Maria', email: 'MARIA.ROSSI@example.it' });
    expect(taken.statusCode).toBe(409);
    // Not a version conflict: the e-mail is someone else's, said on the field.
    expect(taken.json().error).toMatchObject({ code: 'already_used', message: 'Email già in uso', fields: [{ field: 'email', message: 'Email già in uso' }] });
  });

  it('audits every read of a customer detail', async () => {
    const response = await ctx.request({ method: 'GET', url: `/api/admin/customers/${maria.id}`, token });
    expect(response.statusCode).toBe(200);
    expect(response.json().lastName).toBe('Rossi');
    const reads = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, maria.id), eq(auditLog.action, 'read')));
    expect(reads).toHaveLength(1);
    expect(reads[0]?.actorEmail).toBe('admin@demo.test');
  });

  it('records consent changes as history, newest first, and keeps the current state', async () => {
    const url = `/api/admin/customers/${maria.id}/consents`;
    const withdrawn = await ctx.request({
      method: 'POST',
      url,
      token,
      payload: { purpose: 'marketing', granted: false, channel: 'back-office', noticeVersion: '2026-02' },
    });
    expect(withdrawn.statusCode, withdrawn.body).toBe(201);
    expect(withdrawn.json().consents.marketing).toMatchObject({ granted: false, channel: 'back-office', noticeVersion: '2026-02' });
    const history = (await ctx.request({ method: 'GET', url, token })).json().items;
    expect(history.map((h: { purpose: string; granted: boolean }) => `${h.purpose}:${h.granted}`)).toEqual([
      'marketing:false',
      'marketing:true',
      'service:true',
    ]);
    const bad = await ctx.request({ method: 'POST', url, token, payload: { purpose: 'spam', granted: true, channel: 'fax', noticeVersion: '' } });
    expect(bad.statusCode).toBe(400);
    expect((bad.json().error.fields as { field: string }[]).map((f) => f.field).sort()).toEqual(['channel', 'noticeVersion', 'purpose']);
  });

  it('edits, blocks and unblocks with optimistic concurrency', async () => {
    const url = `/api/admin/customers/${maria.id}`;
    const current = (await ctx.request({ method: 'GET', url, token })).json();
    const blocked = await ctx.request({ method: 'PATCH', url, token, payload: { status: 'blocked', city: 'Monza', province: 'MB', version: current.version } });
    expect(blocked.statusCode, blocked.body).toBe(200);
    expect(blocked.json()).toMatchObject({ status: 'blocked', city: 'Monza', version: current.version + 1 });
    const stale = await ctx.request({ method: 'PATCH', url, token, payload: { status: 'active', version: current.version } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('version_conflict');
    const erase = await ctx.request({ method: 'PATCH', url, token, payload: { status: 'erased', version: current.version + 1 } });
    expect(erase.statusCode).toBe(400);
    const unblocked = await ctx.request({ method: 'PATCH', url, token, payload: { status: 'active', version: current.version + 1 } });
    expect(unblocked.json().status).toBe('active');
    const actions = await ctx.app.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.entityId, maria.id));
    expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(['block', 'unblock', 'consent_withdraw']));
  });

  it('searches name, e-mail, phone, card number and referral code', async () => {
    await create({ firstName: 'Giulia', lastName: 'Rossetti', email: 'giulia@example.com', consents: { service } });
    expect(names(await list('q=ross&sort=name'))).toEqual(['Rossetti', 'Rossi']);
    expect(names(await list('q=RO'))).toEqual(['Rossetti', 'Rossi']);
    expect(names(await list('q=giulia@ex'))).toEqual(['Rossetti']);
    // Shaped like an address: the addresses that start with it, whatever its case.
    expect(names(await list('q=Giulia@Example.com'))).toEqual(['Rossetti']);
    expect(names(await list('q=giulia@example.co'))).toEqual(['Rossetti']);
    expect(names(await list('q=iulia@example.com'))).toEqual([]);
    expect(names(await list('q=347 123 4567'))).toEqual(['Rossi']);
    expect(names(await list(`q=${maria.cardNumber}`))).toEqual(['Rossi']);
    // A card scanned at the counter: the reader types what the QR code carries, `<number>-<code>`.
    const scanned = (await ctx.request({ method: 'GET', url: `/api/admin/customers/${maria.id}/card`, token })).json().barcodeMessage as string;
    expect(scanned).toMatch(/^\d{13}-[A-Z0-9]{10}$/);
    expect(names(await list(`q=${encodeURIComponent(scanned)}`))).toEqual(['Rossi']);
    expect(names(await list(`q=${encodeURIComponent(` ${scanned.toLowerCase()} `)}`))).toEqual(['Rossi']);
    // Part of a card number (no check digit) is still found inside the searchable text.
    expect(names(await list(`q=${maria.cardNumber.slice(0, 12)}`))).toEqual(['Rossi']);
    expect(names(await list(`q=${maria.referralCode.toLowerCase()}`))).toEqual(['Rossi']);
    expect(names(await list('q=nessuno'))).toEqual([]);
  });

  it('finds a name typed as the list shows it, surname first: every word, in any order', async () => {
    const full = (response: Awaited<ReturnType<typeof list>>) => response.json().items.map((c: { firstName: string; lastName: string }) => `${c.lastName} ${c.firstName}`);
    expect(full(await list(`q=${encodeURIComponent('Rossi Maria')}`))).toEqual(['Rossi Maria']);
    expect(full(await list(`q=${encodeURIComponent('  maria   ROSSI ')}`))).toEqual(['Rossi Maria']);
    expect(full(await list(`q=${encodeURIComponent('Rossetti Giulia')}`))).toEqual(['Rossetti Giulia']);
    // Each word must be found: a surname with someone else's first name is nobody.
    expect(full(await list(`q=${encodeURIComponent('Rossi Giulia')}`))).toEqual([]);
    // Any word may be part of the e-mail, the card or a short piece of the name.
    expect(full(await list(`q=${encodeURIComponent(`Rossi ${maria.cardNumber.slice(0, 8)}`)}`))).toEqual(['Rossi Maria']);
    expect(full(await list(`q=${encodeURIComponent('Rossi Mar')}`))).toEqual(['Rossi Maria']);
    // Several words sort as the list does (their order is not read from the name index: see wordSearchList).
    expect(names(await list(`q=${encodeURIComponent('ro example')}&sort=name`))).toEqual(['Rossetti', 'Rossi']);
    expect(names(await list(`q=${encodeURIComponent('ro example')}&sort=name&order=desc`))).toEqual(['Rossi', 'Rossetti']);
  });

  it('filters by status and marketing consent, sorts and pages with a total', async () => {
    expect(names(await list('marketingConsent=false&sort=name'))).toEqual(['Bianchi', 'Rossetti', 'Rossi']);
    expect(names(await list('marketingConsent=true'))).toEqual([]);
    expect(names(await list('status=blocked'))).toEqual([]);
    const first = (await list('sort=name&order=desc&pageSize=2')).json();
    expect(first).toMatchObject({ total: 3, page: 1, pageSize: 2, totalIsCapped: false });
    expect(first.items.map((c: { lastName: string }) => c.lastName)).toEqual(['Rossi', 'Rossetti']);
    expect(names(await list('sort=name&order=desc&pageSize=2&page=2'))).toEqual(['Bianchi']);
    const bad = await list('marketingConsent=maybe');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields[0]).toEqual({ field: 'marketingConsent', message: 'Consenso marketing non è valido' });
  });

  it('exports the filtered list with BOM, semicolons and Italian dates, and audits the export', async () => {
    const response = await ctx.request({ method: 'GET', url: '/api/admin/customers/export.csv?q=rossi', token });
    expect(response.statusCode).toBe(200);
    const body = response.rawPayload.toString('utf8');
    expect(body.charCodeAt(0)).toBe(0xfeff);
    const lines = body.slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'Numero tessera;Cognome;Nome;Email;Telefono;Data di nascita;Città;Provincia;Lingua;Codice invito;Stato;Consenso servizio;Consenso marketing;Consenso profilazione;Iscritto il',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`${maria.cardNumber};Rossi;Maria;maria.rossi@example.it;+393471234567;10/12/1985;Monza;MB;Italiano;`);
    expect(lines[1]).toMatch(/;Attivo;sì;no;no;\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
    const exports = await ctx.app.db.select().from(auditLog).where(and(eq(auditLog.entityType, 'customer'), eq(auditLog.action, 'export')));
    expect(exports).toHaveLength(1);
    expect(exports[0]?.after).toMatchObject({ filters: { q: 'rossi' } });
  });

  it('finds surnames by a one- or two-letter prefix, at the edges of the alphabet and with an apostrophe', async () => {
    for (const lastName of ['Rzepka', 'Sala', 'Zanetti', "D'Angelo", 'Dante']) {
      await create({ firstName: 'Prova', lastName, consents: { service } });
    }
    // "rz" is bounded by "s", "z" by nothing; "d'" is not plain letters and is matched by LIKE alone.
    expect(names(await list('q=rz'))).toEqual(['Rzepka']);
    expect(names(await list('q=R&sort=name'))).toEqual(['Rossetti', 'Rossi', 'Rzepka']);
    expect(names(await list('q=z'))).toEqual(['Zanetti']);
    expect(names(await list("q=d'"))).toEqual(["D'Angelo"]);
    expect(names(await list('q=sa'))).toEqual(['Sala']);
  });

  it('refuses names with a right-to-left override or zero-width characters, naming the field (issue 30)', async () => {
    for (const [field, value] of [
      ['lastName', 'Rossi\u202Egpj.exe'],
      ['firstName', 'Ma\u200Bria'],
      ['lastName', '\u2067Bianchi\u2069'],
      ['firstName', 'An\uFEFFna'],
    ] as const) {
      const response = await create({ firstName: 'Maria', lastName: 'Rossi', [field]: value });
      expect(response.statusCode, value).toBe(400);
      expect(response.json().error.fields).toEqual([{ field, message: field === 'firstName' ? 'Nome non è valido' : 'Cognome non è valido' }]);
    }
    // Accents, apostrophes and spaces are names.
    expect((await create({ firstName: 'Nicolò', lastName: "D'Amico De Gasperi" })).statusCode).toBe(201);
  });
});

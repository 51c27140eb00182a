import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture, type LedgerFixture } from '../../../test/ledger-fixtures.ts';
import { verifyLedger } from './ledger.verify.ts';
import { expireDueLots } from './ledger.service.ts';
import type { LedgerPage } from '@sf/contract/ledger';

const ADMIN = 'admin@demo.test';

describe('the ledger API', () => {
  let ctx: TestContext;
  let token: string;
  let fx: LedgerFixture;
  let now = new Date('2026-06-15T10:00:00Z');
  const clock = { now: () => now };

  beforeAll(async () => {
    ctx = await createTestContext({ clock });
    token = await ctx.tokenFor(ADMIN);
    fx = await createLedgerFixture(ctx.app.db, {
      customers: 4,
      expiry: { policy: 'afterDays', days: 30 },
      tiers: [
        { name: 'Base', minPoints: 0, multiplier: 1 },
        { name: 'Oro', minPoints: 100, multiplier: 2 },
      ],
      pointsPerEuro: '1.50',
      minSpendCents: 500,
    });
  });
  afterAll(async () => ctx?.close());

  const post = (body: object, key = randomUUID(), language = 'it') =>
    ctx.request({ method: 'POST', url: '/api/admin/ledger', token, payload: body, headers: { 'idempotency-key': key, 'accept-language': language } });
  const reverse = (id: number, reason: string, key = randomUUID()) =>
    ctx.request({ method: 'POST', url: `/api/admin/ledger/${id}/reversal`, token, payload: { reason }, headers: { 'idempotency-key': key } });

  it('records a purchase with points at the program rate, rounded down, and creates the membership', async () => {
    const customerId = fx.customerIds[0]!;
    const res = await post({ customerId, programId: fx.pointsProgramId, merchantId: fx.merchantId, kind: 'purchase', amountCents: 1234 });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    // 12.34 € × 1.5 = 18.51 → 18
    expect(body.entry).toMatchObject({ kind: 'earn', source: 'purchase', points: 18, amountCents: 1234, balanceAfter: 18, expiresOn: '2026-07-15', createdByLabel: ADMIN });
    expect(body.membership).toMatchObject({ balance: 18, stamps: 0, tier: 'Base' });
  });

  it('answers a retry with the same key and body with the first answer, and writes nothing more', async () => {
    const key = randomUUID();
    const body = { customerId: fx.customerIds[1]!, programId: fx.pointsProgramId, kind: 'purchase', amountCents: 2000 };
    const first = await post(body, key);
    const second = await post(body, key);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json());
    const list = await ctx.request({ method: 'GET', url: `/api/admin/ledger?customerId=${fx.customerIds[1]}`, token });
    expect(list.json().total).toBe(1);
  });

  it('refuses the same key with another body (422 idempotency_key_reused)', async () => {
    const key = randomUUID();
    const body = { customerId: fx.customerIds[1]!, programId: fx.pointsProgramId, kind: 'purchase', amountCents: 700 };
    expect((await post(body, key)).statusCode).toBe(201);
    const reused = await post({ ...body, amountCents: 701 }, key);
    expect(reused.statusCode).toBe(422);
    expect(reused.json().error.code).toBe('idempotency_key_reused');
  });

  it('gives no points below the minimum spend but records the purchase', async () => {
    const res = await post({ customerId: fx.customerIds[2]!, programId: fx.pointsProgramId, kind: 'purchase', amountCents: 499 });
    expect(res.json().entry).toMatchObject({ points: 0, amountCents: 499 });
  });

  it('refuses a redemption beyond the balance (409 insufficient_balance) and accepts one within it', async () => {
    const customerId = fx.customerIds[0]!;
    const tooMuch = await post({ customerId, programId: fx.pointsProgramId, kind: 'redeem', points: 19 });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().error).toMatchObject({ code: 'insufficient_balance', message: 'Saldo insufficiente: 18 punti disponibili, 19 richiesti' });
    const ok = await post({ customerId, programId: fx.pointsProgramId, kind: 'redeem', points: 10 });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().membership.balance).toBe(8);
    // Figures as the screen writes them (99.999, not 99999).
    const huge = await post({ customerId, programId: fx.pointsProgramId, kind: 'redeem', points: 99_999 });
    expect(huge.json().error.message).toBe('Saldo insufficiente: 8 punti disponibili, 99.999 richiesti');
  });

  it('refuses a purchase of 0 € or less (400 naming Importo), writing nothing, and says the largest amount in euro', async () => {
    const customerId = fx.customerIds[2]!;
    const before = (await ctx.request({ method: 'GET', url: `/api/admin/ledger?customerId=${customerId}`, token })).json().total;
    for (const amountCents of [0, -500]) {
      const res = await post({ customerId, programId: fx.pointsProgramId, kind: 'purchase', amountCents });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields).toEqual([{ field: 'amountCents', message: 'Importo deve essere maggiore di zero' }]);
    }
    const huge = await post({ customerId, programId: fx.pointsProgramId, kind: 'purchase', amountCents: 100_000_001 });
    expect(huge.json().error.fields[0].message).toBe('Importo deve essere al massimo 100.000,00\u00a0€');
    const english = await post({ customerId, programId: fx.pointsProgramId, kind: 'purchase', amountCents: 0 }, randomUUID(), 'en');
    expect(english.json().error.fields[0].message).toBe('Amount must be greater than zero');
    expect((await ctx.request({ method: 'GET', url: `/api/admin/ledger?customerId=${customerId}`, token })).json().total).toBe(before);
  });

  it('names the missing field in the user language', async () => {
    const it = await post({ customerId: fx.customerIds[0]!, programId: fx.pointsProgramId, kind: 'adjust', points: 5 });
    expect(it.statusCode).toBe(400);
    expect(it.json().error.fields).toEqual([{ field: 'reason', message: 'Motivo è obbligatorio' }]);
    const en = await post({ customerId: fx.customerIds[0]!, programId: fx.pointsProgramId, kind: 'purchase' }, randomUUID(), 'en');
    expect(en.json().error.fields).toEqual([{ field: 'amountCents', message: 'Amount is required' }]);
    const noKey = await ctx.request({ method: 'POST', url: '/api/admin/ledger', token, payload: { customerId: fx.customerIds[0], programId: fx.pointsProgramId, kind: 'purchase', amountCents: 1 } });
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json().error.fields[0].field).toBe('idempotency-key');
    const unknown = await post({ customerId: randomUUID(), programId: fx.pointsProgramId, kind: 'purchase', amountCents: 100 });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.fields[0]).toEqual({ field: 'customerId', message: 'Cliente non è valido' });
  });

  it('reverses an entry once: a new entry of the opposite sign, then 409 already_reversed', async () => {
    const customerId = fx.customerIds[3]!;
    const earn = (await post({ customerId, programId: fx.pointsProgramId, kind: 'purchase', amountCents: 10_000 })).json();
    expect(earn.membership.balance).toBe(150);
    const reversal = await reverse(earn.entry.id, 'Reso della merce');
    expect(reversal.statusCode).toBe(201);
    expect(reversal.json().entry).toMatchObject({ kind: 'reversal', points: -150, reversesId: earn.entry.id, reason: 'Reso della merce' });
    expect(reversal.json().membership.balance).toBe(0);
    const again = await reverse(earn.entry.id, 'Di nuovo');
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('already_reversed');
    const original = await ctx.request({ method: 'GET', url: `/api/admin/ledger?customerId=${customerId}&kind=earn`, token });
    expect(original.json().items[0].reversedById).toBe(reversal.json().entry.id);
  });

  it('refuses to reverse an earning whose points were already spent', async () => {
    const customerId = fx.customerIds[3]!;
    const earn = (await post({ customerId, programId: fx.pointsProgramId, kind: 'purchase', amountCents: 1000 })).json();
    await post({ customerId, programId: fx.pointsProgramId, kind: 'redeem', points: earn.membership.balance });
    const res = await reverse(earn.entry.id, 'Errore');
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('insufficient_balance');
  });

  it('raises the tier from points earned in the window, multiplies later earnings, and keeps the manual floor', async () => {
    const customerId = fx.customerIds[2]!;
    const big = (await post({ customerId, programId: fx.pointsProgramId, kind: 'purchase', amountCents: 10_000 })).json();
    expect(big.membership.tier).toBe('Oro');
    const doubled = (await post({ customerId, programId: fx.pointsProgramId, kind: 'purchase', amountCents: 1000 })).json();
    // 10 € × 1.5 × 2 = 30
    expect(doubled.entry.points).toBe(30);
    await ctx.app.db.execute(sql`update memberships set tier_floor = 'Oro' where id = ${big.membership.id}`);
    const back = (await reverse(big.entry.id, 'Storno')).json();
    expect(back.membership.tier).toBe('Oro');
    await ctx.app.db.execute(sql`update memberships set tier_floor = null where id = ${big.membership.id}`);
    const adjust = (await post({ customerId, programId: fx.pointsProgramId, kind: 'adjust', points: -1, reason: 'Correzione' })).json();
    expect(adjust.membership.tier).toBe('Base');
  });

  it('caps stamps per transaction and per day (Rome)', async () => {
    const customerId = fx.customerIds[0]!;
    const one = (await post({ customerId, programId: fx.stampsProgramId, kind: 'purchase', amountCents: 150, stamps: 5 })).json();
    expect(one.entry.stamps).toBe(2);
    const two = (await post({ customerId, programId: fx.stampsProgramId, kind: 'purchase', amountCents: 150, stamps: 2 })).json();
    expect(two.entry.stamps).toBe(1);
    const three = (await post({ customerId, programId: fx.stampsProgramId, kind: 'purchase', amountCents: 150 })).json();
    expect(three.entry.stamps).toBe(0);
    expect(three.membership.stamps).toBe(3);
    const redeem = await post({ customerId, programId: fx.stampsProgramId, kind: 'redeem', stamps: 4 });
    expect(redeem.json().error.code).toBe('insufficient_balance');
  });

  it('shows memberships with expiring points, expires them FIFO by the job, once, and stays verifiable', async () => {
    const customerId = fx.customerIds[1]!;
    const memberships = await ctx.request({ method: 'GET', url: `/api/admin/customers/${customerId}/memberships`, token });
    expect(memberships.statusCode).toBe(200);
    const points = memberships.json().items.find((m: { programId: string }) => m.programId === fx.pointsProgramId);
    expect(points.balance).toBe(40);
    expect(points.expiring).toEqual([{ points: 40, expiresOn: '2026-07-15' }]);

    now = new Date('2026-07-01T10:00:00Z');
    // A sign-in lasts 10 days (S2) on the test's clock, and the guard checks that it is live: sign in again.
    token = await ctx.tokenFor(ADMIN);
    await post({ customerId, programId: fx.pointsProgramId, kind: 'purchase', amountCents: 1000 });
    await post({ customerId, programId: fx.pointsProgramId, kind: 'redeem', points: 5 });
    // 15 July is the last day; on 16 July (Rome) the rest of the first lots goes.
    now = new Date('2026-07-15T21:59:00Z');
    expect(await expireDueLots({ db: ctx.app.db, clock, timeZone: 'Europe/Rome' })).toBe(0);
    now = new Date('2026-07-15T22:00:00Z');
    // A sign-in lasts 10 days (S2) on the test's clock, and the guard checks that it is live: sign in again.
    token = await ctx.tokenFor(ADMIN);
    const [a, b] = await Promise.all([
      expireDueLots({ db: ctx.app.db, clock, timeZone: 'Europe/Rome' }),
      expireDueLots({ db: ctx.app.db, clock, timeZone: 'Europe/Rome' }),
    ]);
    // Two processes at once: every due lot (of every member) is written off exactly once.
    const everyExpiry = (await ctx.request({ method: 'GET', url: '/api/admin/ledger?kind=expire', token })).json();
    expect(everyExpiry.total).toBe(a + b);
    expect(a + b).toBeGreaterThanOrEqual(2);
    expect(await expireDueLots({ db: ctx.app.db, clock, timeZone: 'Europe/Rome' })).toBe(0);
    const list = (await ctx.request({ method: 'GET', url: `/api/admin/ledger?customerId=${customerId}&kind=expire`, token })).json();
    // Lots of 30 and 10 points; the redemption of 5 took from the oldest (30 → 25).
    expect(list.items.map((e: { points: number }) => e.points).sort()).toEqual([-10, -25]);
    const after = (await ctx.request({ method: 'GET', url: `/api/admin/customers/${customerId}/memberships`, token })).json();
    expect(after.items.find((m: { programId: string }) => m.programId === fx.pointsProgramId).expiring).toEqual([{ points: 15, expiresOn: '2026-07-31' }]);
    expect(await verifyLedger(ctx.app.db)).toEqual([]);
  });

  it('filters and pages the list, and exports it for Italian Excel', async () => {
    const page = await ctx.request({ method: 'GET', url: `/api/admin/ledger?programId=${fx.stampsProgramId}&pageSize=2`, token });
    expect(page.json()).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(page.json().items).toHaveLength(2);
    const bad = await ctx.request({ method: 'GET', url: '/api/admin/ledger?kind=gift', token });
    expect(bad.statusCode).toBe(400);
    const csv = await ctx.request({ method: 'GET', url: `/api/admin/ledger/export.csv?customerId=${fx.customerIds[0]}&programId=${fx.pointsProgramId}&kind=earn`, token });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.charCodeAt(0)).toBe(0xfeff);
    const lines = csv.body.slice(1).trim().split('\r\n');
    expect(lines[0]).toBe(
      'ID;Data;Tipo;Origine;Cliente;Numero tessera;Programma;Esercente;Punti;Timbri;Importo (€);Saldo dopo;Motivo;Storno di;Scadenza;Operatore;ID cliente;ID programma;ID esercente',
    );
    expect(lines).toHaveLength(2);
    // Words and names rather than stored values and ids (the ids stay, last).
    const cells = lines[1]!.split(';');
    const card = (await ctx.app.db.execute(sql`select card_number from customers where id = ${fx.customerIds[0]!}`)).rows[0] as { card_number: string };
    expect(cells.slice(2, 8)).toEqual(['Accredito', 'Acquisto', 'Mario Rossi 0', card.card_number, 'Circuito Punti', 'Bar Centrale']);
    expect(cells.slice(-3)).toEqual([fx.customerIds[0], fx.pointsProgramId, fx.merchantId]);
    const english = await ctx.request({ method: 'GET', url: `/api/admin/ledger/export.csv?customerId=${fx.customerIds[0]}&kind=earn`, token, headers: { 'accept-language': 'en' } });
    expect(english.body.split('\r\n')[1]!.split(';').slice(2, 4)).toEqual(['Earn', 'Purchase']);
    expect(lines.some((line) => line.includes(';12,34;') && line.includes('15/06/2026 12:00') && line.includes('15/07/2026'))).toBe(true);
  });

  it("adds up what it lists: the same total and sums from the rollups (whole business days) as from the entries", async () => {
    const list = async (query: string) => (await ctx.request({ method: 'GET', url: `/api/admin/ledger?${query}&pageSize=100`, token })).json() as LedgerPage;
    const sumOf = (page: LedgerPage) => ({
      total: page.items.length,
      points: page.items.reduce((sum, e) => sum + e.points, 0),
      stamps: page.items.reduce((sum, e) => sum + e.stamps, 0),
    });
    // July 2026 as Rome's business days: from its first instant to its last millisecond, so the
    // rollups answer; then the same period one millisecond wider, which only the entries answer.
    const from = '2026-06-30T22:00:00.000Z';
    const to = '2026-07-31T21:59:59.999Z';
    for (const filter of ['', `&programId=${fx.pointsProgramId}`, '&kind=expire', '&kind=earn&source=purchase']) {
      const aligned = await list(`from=${from}&to=${to}${filter}`);
      const counted = await list(`from=${from}&to=2026-07-31T22:00:00.000Z${filter}`);
      expect(aligned.items.length).toBeGreaterThan(0);
      expect({ total: aligned.total, ...aligned.sums }).toEqual(sumOf(aligned));
      expect({ total: counted.total, ...counted.sums }).toEqual(sumOf(counted));
      expect(aligned.totalIsCapped).toBe(false);
    }
    // Whose entry it is: the customer's name and card.
    const [first] = (await list(`customerId=${fx.customerIds[1]}`)).items;
    expect(first!.customer).toEqual({ firstName: 'Mario', lastName: 'Rossi 1', cardNumber: expect.stringMatching(/^\d{13}$/) });
  });

  it('keeps entries append-only in the database itself', async () => {
    await expect(ctx.app.db.execute(sql`update ledger_entries set points = points + 1`)).rejects.toThrow();
    await expect(ctx.app.db.execute(sql`delete from ledger_entries`)).rejects.toThrow();
  });

  it('answers 404 for an unknown customer or entry', async () => {
    expect((await ctx.request({ method: 'GET', url: `/api/admin/customers/${randomUUID()}/memberships`, token })).statusCode).toBe(404);
    expect((await reverse(987654, 'x')).statusCode).toBe(404);
  });

  it('refuses a purchase at a suspended or archived merchant by name, member or first earning, and still replays an earlier answer', async () => {
    const body = (customerId: string) => ({ customerId, programId: fx.pointsProgramId, merchantId: fx.merchantId, kind: 'purchase', amountCents: 1000 });
    const key = randomUUID();
    expect((await post(body(fx.customerIds[0]!), key)).statusCode).toBe(201);
    const count = async () => (await ctx.app.db.execute(sql`select count(*)::int as n from ledger_entries`)).rows[0] as { n: number };
    const before = await count();
    try {
      for (const status of ['suspended', 'archived']) {
        await ctx.app.db.execute(sql`update merchants set status = ${status} where id = ${fx.merchantId}`);
        // A member (the usual case, one read) and a stamp card nobody holds yet (the long way).
        for (const request of [body(fx.customerIds[0]!), { ...body(fx.customerIds[1]!), programId: fx.stampsProgramId }]) {
          const res = await post(request);
          expect(res.statusCode, `${status}: ${res.body}`).toBe(400);
          expect(res.json().error.fields).toEqual([{ field: 'merchantId', message: 'Esercente: scegli un esercente attivo (uno sospeso o archiviato non registra nuovi movimenti)' }]);
        }
        expect((await post(body(fx.customerIds[0]!), key)).statusCode).toBe(201);
      }
      expect(await count()).toEqual(before);
    } finally {
      await ctx.app.db.execute(sql`update merchants set status = 'active' where id = ${fx.merchantId}`);
    }
  });
});

describe('purchases too large for the ledger (issue 30)', () => {
  let ctx: TestContext;
  let token: string;
  let fx: LedgerFixture;

  beforeAll(async () => {
    ctx = await createTestContext();
    token = await ctx.tokenFor(ADMIN);
    // The largest rules a program may have: 1,000 points per euro, a tier multiplying by 10.
    fx = await createLedgerFixture(ctx.app.db, { customers: 2, pointsPerEuro: '1000', tiers: [{ name: 'Platino', minPoints: 0, multiplier: 10 }] });
  });
  afterAll(async () => ctx?.close());

  const post = (body: object) =>
    ctx.request({ method: 'POST', url: '/api/admin/ledger', token, payload: body, headers: { 'idempotency-key': randomUUID(), 'accept-language': 'it' } });

  it('refuses with 400 naming the amount, never a 500, whatever the program multiplies it by', async () => {
    const customerId = fx.customerIds[0]!;
    const purchase = (amountCents: number) => post({ customerId, programId: fx.pointsProgramId, kind: 'purchase', amountCents });
    // A first purchase puts the member in the ×10 tier.
    expect((await purchase(100)).statusCode).toBe(201);
    // Beyond the largest amount the contract takes, the bound is said; within it, a product past what a
    // request may move is refused as not valid.
    const refusals = [
      [100_000_000, 'Importo deve essere al massimo 100.000,00\u00a0€'],
      [10_000_000, 'Importo non è valido'],
      [1_000_000, 'Importo non è valido'],
    ] as const;
    for (const [amountCents, message] of refusals) {
      const refused = await purchase(amountCents);
      expect(refused.statusCode, `${amountCents}: ${refused.body}`).toBe(400);
      expect(refused.json().error.fields).toEqual([{ field: 'amountCents', message }]);
    }
    // 100 € × 1,000 × 10 = 1,000,000 points: the most a request may move.
    const largest = await purchase(10_000);
    expect(largest.statusCode, largest.body).toBe(201);
    expect(largest.json().entry.points).toBe(1_000_000);
    const [{ n } = { n: -1 }] = ((await ctx.app.db.execute(sql`select count(*)::int as n from ledger_entries where customer_id = ${customerId}`)) as unknown as {
      rows: { n: number }[];
    }).rows;
    expect(n).toBe(2);
  });

  it('refuses a write that would carry a balance past what its column holds (400 naming the field)', async () => {
    const customerId = fx.customerIds[1]!;
    expect((await post({ customerId, programId: fx.pointsProgramId, kind: 'adjust', points: 10, reason: 'Avvio' })).statusCode).toBe(201);
    await ctx.app.db.execute(sql`update memberships set balance = 2147000000 where customer_id = ${customerId}`);
    const refused = await post({ customerId, programId: fx.pointsProgramId, kind: 'adjust', points: 1_000_000, reason: 'Troppi' });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error.fields.map((f: { field: string }) => f.field)).toEqual(['points']);
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestContext } from '../../../test/helper.ts';
import { uniquePartitaIva } from '../../../test/ledger-fixtures.ts';
import { verifyLedger } from '../ledger/ledger.verify.ts';
import { auditLog } from '../../db/schema.ts';

const ctx = await createTestContext();
let token = '';
const merchantIds: string[] = [];
beforeAll(async () => {
  token = await ctx.tokenFor('admin@demo.test');
  for (const [legalName, category] of [
    ['Bar Sport', 'bar'],
    ['Salone Lucia', 'hairdresser'],
  ] as const) {
    const response = await ctx.request({
      method: 'POST',
      url: '/api/admin/merchants',
      token,
      payload: { legalName, vatNumber: uniquePartitaIva(), category, address: { street: 'Via Po 2', city: 'Torino', province: 'TO', postalCode: '10123' } },
    });
    merchantIds.push(response.json().id);
  }
});
afterAll(() => ctx.close());

const create = (body: Record<string, unknown>, language = 'it') =>
  ctx.request({ method: 'POST', url: '/api/admin/programs', token, payload: body, headers: { 'accept-language': language } });

describe('programs API', () => {
  it('creates a points circuit with tiers, expiry and bonuses', async () => {
    const response = await create({
      name: 'Circuito Torino',
      type: 'points',
      merchantIds,
      status: 'active',
      pointsPerEuro: 1.5,
      minSpendCents: 500,
      tiers: [
        { name: 'Bronzo', minPoints: 0, multiplier: 1 },
        { name: 'Oro', minPoints: 1000, multiplier: 1.5 },
      ],
      expiry: { policy: 'afterDays', days: 365 },
      bonuses: {
        referrer: { points: 100, capPerMonth: 5 },
        referee: { points: 50, capPerMonth: 1 },
        share: { points: 10, capPerMonth: 4 },
        review: { points: 20, capPerMonth: 2 },
        checkIn: { points: 5, capPerMonth: 10 },
        birthday: { points: 200, capPerMonth: 1 },
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      type: 'points',
      pointsPerEuro: 1.5,
      merchantIds: [...merchantIds].sort(),
      expiry: { policy: 'afterDays', days: 365 },
      tierWindow: 'rolling12',
      version: 1,
    });
  });

  it('creates a stamp card with defaults for what is not given', async () => {
    const response = await create({ name: 'Tessera caffè', type: 'stamps', merchantIds: [merchantIds[0]], stampsRequired: 10, maxStampsPerDay: 2 });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ status: 'draft', pointsPerEuro: null, stampsRequired: 10, expiry: { policy: 'never', days: null } });
    expect(response.json().bonuses.birthday).toEqual({ points: 0, capPerMonth: 0 });
  });

  it('names the fields the rules across fields need, in both languages', async () => {
    const points = await create({ name: 'Senza tasso', type: 'points', merchantIds, expiry: { policy: 'afterDays', days: null } });
    expect(points.statusCode).toBe(400);
    expect(points.json().error.fields).toEqual(
      expect.arrayContaining([
        { field: 'pointsPerEuro', message: 'Punti per euro sono obbligatori' },
        { field: 'expiry.days', message: 'Giorni sono obbligatori' },
      ]),
    );
    const tiers = await create(
      {
        name: 'Livelli storti',
        type: 'stamps',
        stampsRequired: 8,
        merchantIds,
        tiers: [
          { name: 'A', minPoints: 10_000, multiplier: 1 },
          { name: 'B', minPoints: 50, multiplier: 1 },
          { name: 'a', minPoints: 20_000, multiplier: 1 },
        ],
      },
      'en',
    );
    // Each error says the rule it breaks.
    expect(tiers.json().error.fields).toEqual([
      { field: 'tiers.1.minPoints', message: "Minimum points must be more than 10,000, the previous tier's" },
      { field: 'tiers.2.name', message: 'Another tier has this name: each tier needs its own' },
    ]);
    const italian = await create({ name: 'Livelli storti', type: 'stamps', stampsRequired: 8, merchantIds, tiers: [{ name: 'A', minPoints: 10_000, multiplier: 1 }, { name: 'B', minPoints: 50, multiplier: 1 }] });
    expect(italian.json().error.fields).toEqual([{ field: 'tiers.1.minPoints', message: 'Punti minimi deve essere più di 10.000, quelli del livello precedente' }]);
    const unknownMerchant = await create({ name: 'X', type: 'stamps', stampsRequired: 5, merchantIds: ['7d3a4e2c-9b1f-4c6a-8e5d-2f0b1a9c8e7d'] });
    expect(unknownMerchant.statusCode).toBe(400);
    expect(unknownMerchant.json().error.fields[0].field).toBe('merchantIds.0');
  });

  it('edits with the version read, checking the rules on the merged program', async () => {
    const program = (await create({ name: 'Da modificare', type: 'stamps', stampsRequired: 5, merchantIds: [merchantIds[1]] })).json();
    const url = `/api/admin/programs/${program.id}`;
    const toPoints = await ctx.request({ method: 'PATCH', url, token, payload: { type: 'points', version: 1 } });
    expect(toPoints.statusCode).toBe(400);
    expect(toPoints.json().error.fields[0].field).toBe('pointsPerEuro');
    const changed = await ctx.request({ method: 'PATCH', url, token, payload: { status: 'active', merchantIds, version: 1 } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ status: 'active', version: 2, merchantIds: [...merchantIds].sort() });
    const stale = await ctx.request({ method: 'PATCH', url, token, payload: { status: 'closed', version: 1 } });
    expect(stale.json().error.code).toBe('version_conflict');
    const audit = await ctx.app.db.select().from(auditLog).where(eq(auditLog.entityId, program.id));
    expect(audit.map((a) => a.action)).toEqual(['create', 'update']);
  });

  it('gives every member the tier the new rules give when the tiers change, as its next movement would', async () => {
    const program = (
      await create({
        name: 'Zona a livelli',
        type: 'points',
        merchantIds: [merchantIds[0]],
        status: 'active',
        pointsPerEuro: 1,
        tiers: [
          { name: 'Base', minPoints: 0, multiplier: 1 },
          { name: 'Oro', minPoints: 100, multiplier: 1 },
        ],
      })
    ).json() as { id: string };
    // Two customers, through the API (a ledger fixture's own programs would join this file's lists).
    const customerIds: string[] = [];
    for (const lastName of ['Tieri', 'Livelli']) {
      const customer = await ctx.request({ method: 'POST', url: '/api/admin/customers', token, payload: { firstName: 'Ada', lastName, consents: { service: { granted: true, channel: 'counter', noticeVersion: 'v1' } } } });
      expect(customer.statusCode, customer.body).toBe(201);
      customerIds.push(customer.json().id);
    }
    const fx = { customerIds, pointsProgramId: program.id };
    const buy = (customerId: string, amountCents: number) =>
      ctx.request({ method: 'POST', url: '/api/admin/ledger', token, payload: { customerId, programId: fx.pointsProgramId, kind: 'purchase', amountCents }, headers: { 'idempotency-key': randomUUID() } });
    await buy(fx.customerIds[0]!, 6000);
    await buy(fx.customerIds[1]!, 1000);
    const tiers = async () =>
      ((await ctx.app.db.execute(sql`select customer_id, tier from memberships where program_id = ${fx.pointsProgramId} order by customer_id`)) as unknown as {
        rows: { customer_id: string; tier: string }[];
      }).rows.map((row) => [row.customer_id, row.tier]);
    expect(await tiers()).toEqual([...fx.customerIds].sort().map((id) => [id, 'Base']));
    const changed = await ctx.request({
      method: 'PATCH',
      url: `/api/admin/programs/${fx.pointsProgramId}`,
      token,
      payload: { version: 1, tiers: [{ name: 'Base', minPoints: 0, multiplier: 1 }, { name: 'Oro', minPoints: 50, multiplier: 1 }] },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(Object.fromEntries(await tiers())).toEqual({ [fx.customerIds[0]!]: 'Oro', [fx.customerIds[1]!]: 'Base' });
    // In the member's tier history, by whom, like a change made by a movement.
    const audit = await ctx.app.db.select().from(auditLog).where(eq(auditLog.action, 'membership.tier'));
    expect(audit.filter((a) => (a.after as { programRules?: boolean }).programRules).map((a) => [a.before, a.actorEmail])).toEqual([
      [{ tier: 'Base' }, 'admin@demo.test'],
    ]);
    expect(await verifyLedger(ctx.app.db)).toEqual([]);
  });

  it('lists with search, filters by merchant and type, and exports with comma decimals', async () => {
    const list = (query: string) => ctx.request({ method: 'GET', url: `/api/admin/programs?${query}`, token });
    const byMerchant = (await list(`merchantId=${merchantIds[1]}&sort=name`)).json();
    expect(byMerchant.items.map((p: { name: string }) => p.name)).toEqual(['Circuito Torino', 'Da modificare']);
    expect((await list('type=stamps&q=caff')).json().total).toBe(1);
    const csv = await ctx.request({ method: 'GET', url: '/api/admin/programs/export.csv?type=points', token });
    const lines = csv.rawPayload.toString('utf8').slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe('Nome;Tipo;Stato;Punti per euro;Spesa minima (€);Timbri richiesti;Esercenti;Scadenza;Giorni di validità;Creato il');
    expect(lines[1]).toMatch(/^Circuito Torino;Punti;Attivo;1,50;5,00;;2;Dopo N giorni dall'accredito;365;\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
  });
});

describe('a circuit and its merchants that are not active', () => {
  it('refuses a suspended or archived merchant joining a circuit, and keeps one already in it', async () => {
    const added = await ctx.request({
      method: 'POST',
      url: '/api/admin/merchants',
      token,
      payload: { legalName: 'Forno Chiuso', vatNumber: uniquePartitaIva(), category: 'bakery', address: { street: 'Via Po 3', city: 'Torino', province: 'TO', postalCode: '10123' } },
    });
    const closed = added.json().id as string;
    const program = (await create({ name: 'Circuito con forno', type: 'stamps', stampsRequired: 5, merchantIds: [merchantIds[0], closed] })).json();
    for (const status of ['suspended', 'archived']) {
      await ctx.app.db.execute(sql`update merchants set status = ${status} where id = ${closed}`);
      const refused = await create({ name: `Nuovo ${status}`, type: 'stamps', stampsRequired: 5, merchantIds: [merchantIds[0], closed] });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error.fields).toEqual([{ field: 'merchantIds.1', message: 'Esercenti del circuito: un esercente sospeso o archiviato non può entrare in un circuito' }]);
    }
    const url = `/api/admin/programs/${program.id}`;
    const kept = await ctx.request({ method: 'PATCH', url, token, payload: { name: 'Circuito con forno (chiuso)', merchantIds: [closed, merchantIds[0]], version: program.version } });
    expect(kept.statusCode, kept.body).toBe(200);
    const other = (await create({ name: 'Senza forno', type: 'stamps', stampsRequired: 5, merchantIds: [merchantIds[1]] })).json();
    const joining = await ctx.request({ method: 'PATCH', url: `/api/admin/programs/${other.id}`, token, payload: { merchantIds: [merchantIds[1], closed], version: other.version } });
    expect(joining.statusCode, joining.body).toBe(400);
    expect(joining.json().error.fields[0].field).toBe('merchantIds.1');
  });
});

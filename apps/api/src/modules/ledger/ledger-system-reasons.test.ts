import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { LedgerListEntry } from '@sf/contract/ledger';
import { createTestContext, selectRows, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture, type LedgerFixture } from '../../../test/ledger-fixtures.ts';
import { SYSTEM_ACTOR } from '../../lib/audit.ts';
import { payBirthdayBonuses, payReferralBonuses } from '../bonuses/bonuses.service.ts';
import { awardBonusInTransaction, createEntry } from './ledger.service.ts';

const ADMIN = 'admin@demo.test';
const ADMIN_NAME = 'Giulia Rossi';

/**
 * Movimenti says the reasons the platform wrote itself in the reader's language (`systemReason`, read
 * from the entry's key and source, so old entries too) and names the operator (`createdByName`); a
 * reason a person typed stays as typed.
 */
describe('system-written reasons and operators in Movimenti', () => {
  let ctx: TestContext;
  let token: string;
  let fx: LedgerFixture;
  let adminId: string;
  const now = new Date('2027-03-10T09:00:00Z');
  const importId = randomUUID();

  beforeAll(async () => {
    ctx = await createTestContext({ clock: { now: () => now } });
    token = await ctx.tokenFor(ADMIN);
    fx = await createLedgerFixture(ctx.app.db, { customers: 3 });
    [{ id: adminId }] = (await selectRows<{ id: string }>(ctx.app, sql`select id from users where email = ${ADMIN}`)) as [{ id: string }];
    const none = { points: 0, capPerMonth: 0 };
    const bonuses = { referrer: { points: 50, capPerMonth: 0 }, referee: { points: 20, capPerMonth: 0 }, share: none, review: none, checkIn: none, birthday: { points: 30, capPerMonth: 0 } };
    await ctx.app.db.execute(sql`update programs set bonuses = ${JSON.stringify(bonuses)}::jsonb where id = ${fx.pointsProgramId}`);
    const [referrer, referee, birthdayMember] = fx.customerIds as [string, string, string];
    await ctx.app.db.execute(sql`update customers set referred_by = ${referrer} where id = ${referee}`);
    await ctx.app.db.execute(sql`update customers set birth_date = '1990-03-25' where id = ${birthdayMember}`);

    const staffWrite = async (payload: object) => {
      const res = await ctx.request({ method: 'POST', url: '/api/admin/ledger', token, payload: { programId: fx.pointsProgramId, ...payload }, headers: { 'idempotency-key': randomUUID() } });
      expect(res.statusCode, res.body).toBe(201);
    };
    // The referee's first purchase (by staff), then the jobs as they run: both referral bonuses, the birthday bonus.
    await staffWrite({ customerId: referee, kind: 'purchase', amountCents: 1000 });
    await staffWrite({ customerId: birthdayMember, kind: 'purchase', amountCents: 1000 });
    await staffWrite({ customerId: birthdayMember, kind: 'adjust', points: 5, reason: 'Omaggio' });
    const deps = { db: ctx.app.db, clock: ctx.app.clock, timeZone: 'Europe/Rome' };
    expect((await payReferralBonuses(deps)).entries).toBe(2);
    expect((await payBirthdayBonuses(deps)).entries).toBe(1);
    // A birthday bonus of an earlier year, written as the demo seed writes them: its year is its key's.
    await ctx.app.db.transaction((tx) =>
      awardBonusInTransaction(tx, deps, {
        customerId: birthdayMember,
        programId: fx.pointsProgramId,
        points: 30,
        source: 'birthday',
        reason: 'Bonus compleanno 2025',
        idempotencyKey: `birthday:${birthdayMember}:${fx.pointsProgramId}:2025`,
      }),
    );

    // A till's purchase with its receipt, through the integration API.
    const key = await ctx.request({
      method: 'POST',
      url: '/api/admin/api-keys',
      token,
      payload: { name: 'Cassa 1', kind: 'merchant', merchantId: fx.merchantId, scopes: ['purchases:write'] },
    });
    expect(key.statusCode, key.body).toBe(201);
    const [card] = await selectRows<{ card_number: string }>(ctx.app, sql`select card_number from customers where id = ${referrer}`);
    const till = await ctx.request({
      method: 'POST',
      url: '/api/integration/v1/purchases',
      headers: { authorization: `Bearer ${key.json().secret}`, 'idempotency-key': randomUUID() },
      payload: { cardNumber: card!.card_number, programId: fx.pointsProgramId, amountCents: 2450, receipt: 'R-77' },
    });
    expect(till.statusCode, till.body).toBe(201);

    // Opening balances as an import writes them (imports.run): its default reason, and a file's own.
    const importer = { id: adminId, label: `import saldi.csv`, audit: SYSTEM_ACTOR };
    const opening = (customerId: string, row: number, reason: string) =>
      createEntry(deps, importer, { customerId, programId: fx.pointsProgramId, kind: 'adjust', points: 100, reason }, `import:${importId}:${row}`);
    await opening(referrer, 2, 'Saldo iniziale');
    await opening(referee, 3, 'Saldo dal vecchio gestionale');
  });
  afterAll(async () => ctx?.close());

  const get = (url: string, language: string) => ctx.request({ method: 'GET', url, token, headers: { 'accept-language': language } });

  it('describes each reason the platform wrote, keeps the typed ones, and names the operator', async () => {
    const res = await get(`/api/admin/ledger?programId=${fx.pointsProgramId}&order=asc&pageSize=50`, 'en');
    expect(res.statusCode, res.body).toBe(200);
    const rows = (res.json().items as LedgerListEntry[]).map((e) => [e.kind, e.source, e.reason, e.systemReason, e.createdByLabel, e.createdByName]);
    expect(rows).toEqual([
      ['earn', 'purchase', null, null, ADMIN, ADMIN_NAME],
      ['earn', 'purchase', null, null, ADMIN, ADMIN_NAME],
      ['adjust', 'manual', 'Omaggio', null, ADMIN, ADMIN_NAME],
      ['earn', 'referral', 'Bonus presentazione (invitato)', { kind: 'referralReferee' }, 'system', null],
      ['earn', 'referral', 'Bonus presentazione (presentatore)', { kind: 'referralReferrer' }, 'system', null],
      ['earn', 'birthday', 'Bonus compleanno 2027', { kind: 'birthday', year: 2027 }, 'system', null],
      ['earn', 'birthday', 'Bonus compleanno 2025', { kind: 'birthday', year: 2025 }, 'system', null],
      ['earn', 'purchase', 'Scontrino R-77', { kind: 'receipt', receipt: 'R-77' }, expect.stringMatching(/^API: Cassa 1 /), null],
      ['adjust', 'manual', 'Saldo iniziale', { kind: 'openingBalance' }, 'import saldi.csv', ADMIN_NAME],
      ['adjust', 'manual', 'Saldo dal vecchio gestionale', null, 'import saldi.csv', ADMIN_NAME],
    ]);
  });

  it('writes those reasons and operators in the language of the export', async () => {
    const url = `/api/admin/ledger/export.csv?programId=${fx.pointsProgramId}`;
    const italian = (await get(url, 'it')).body;
    for (const words of ['Bonus presentazione (invitato)', 'Bonus presentazione (presentatore)', 'Bonus compleanno 2027', 'Bonus compleanno 2025', 'Scontrino R-77', 'Saldo iniziale', 'Saldo dal vecchio gestionale', 'Omaggio', `;${ADMIN_NAME};`, ';Sistema;', ';API: Cassa 1 ']) {
      expect(italian).toContain(words);
    }
    expect(italian).not.toContain(ADMIN);

    const english = (await get(url, 'en')).body;
    for (const words of ['Referral bonus (invited)', 'Referral bonus (referrer)', 'Birthday bonus 2027', 'Birthday bonus 2025', 'Receipt R-77', 'Opening balance', 'Saldo dal vecchio gestionale', 'Omaggio', `;${ADMIN_NAME};`, ';System;']) {
      expect(english).toContain(words);
    }
    for (const words of ['Bonus presentazione', 'Bonus compleanno', 'Scontrino', 'Saldo iniziale', ';system;']) expect(english).not.toContain(words);
  });
});

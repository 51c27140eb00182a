import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture } from '../../../test/ledger-fixtures.ts';
import { purchase } from '../../../test/wallet-helpers.ts';
import { createWalletFixtures, unzipPass, type WalletFixtures } from '../../../test/wallet-fixtures.ts';
import { solidPng } from './solid-png.ts';

describe("what the card page and the pass show: expiring points, vouchers, stamps, the program's look (issue 27)", () => {
  let ctx: TestContext;
  let wallet: WalletFixtures;
  let token = '';
  const now = new Date('2027-03-10T10:00:00Z');

  beforeAll(async () => {
    wallet = createWalletFixtures();
    ctx = await createTestContext({ clock: { now: () => now }, env: wallet.env() });
    token = await ctx.tokenFor('admin@demo.test');
  });
  afterAll(async () => {
    await ctx?.close();
    wallet?.remove();
  });

  const linkOf = async (membershipId: string) =>
    new URL(((await ctx.request({ method: 'GET', url: `/api/admin/memberships/${membershipId}/card-link`, token })).json() as { url: string }).url).pathname;

  it('lists the points that expire and the vouchers the customer can use, and uses the program colours and logo', async () => {
    const fx = await createLedgerFixture(ctx.app.db, { customers: 1, expiry: { policy: 'afterDays', days: 30 } });
    const customerId = fx.customerIds[0]!;
    const { entry } = await purchase(ctx, token, customerId, fx.pointsProgramId, 5000);
    const reward = await ctx.request({ method: 'POST', url: '/api/admin/rewards', token, payload: { programId: fx.pointsProgramId, name: 'Caffè omaggio', cost: 10, status: 'active' } });
    expect(reward.statusCode).toBe(201);
    const redeemed = await ctx.request({
      method: 'POST',
      url: '/api/admin/redemptions',
      token,
      headers: { 'idempotency-key': randomUUID() },
      payload: { customerId, rewardId: reward.json().id },
    });
    expect(redeemed.statusCode).toBe(201);
    const code = (redeemed.json() as { voucher: { code: string } }).voucher.code;
    const logo = `data:image/png;base64,${solidPng(4, 4, '#00aa00').toString('base64')}`;
    await ctx.app.db.execute(sql`update programs set wallet_background_color = '#a01b2c', wallet_logo = ${logo}, terms = 'Punti validi 30 giorni.' where id = ${fx.pointsProgramId}`);

    const html = (await ctx.app.inject({ method: 'GET', url: await linkOf(entry.membershipId) })).body;
    expect(html).toContain('<p class="balance">40</p>');
    // The redemption took its 10 points from that lot (first in, first out).
    expect(html).toContain('40 punti scadono il 09/04/2027');
    expect(html).toContain(`Caffè omaggio: <span class="num">${code}</span>`);
    expect(html).toContain('--bg:#a01b2c');
    expect(html).toContain(`<img src="/api/wallet/programs/${fx.pointsProgramId}/logo.png"`);
    expect(html).toContain('Punti validi 30 giorni.');

    const pass = unzipPass((await ctx.request({ method: 'GET', url: `/api/admin/memberships/${entry.membershipId}/pass.pkpass`, token })).rawPayload);
    expect(pass.get('logo.png')!.equals(solidPng(4, 4, '#00aa00'))).toBe(true);
    const json = JSON.parse(pass.get('pass.json')!.toString());
    expect(json.backgroundColor).toBe('rgb(160, 27, 44)');
    expect(json.storeCard.backFields[0]).toMatchObject({ key: 'terms', value: 'Punti validi 30 giorni.' });
  });

  it('shows a stamp card as "stamps/required" on the page and on the pass, and a full one as a reward to collect', async () => {
    const fx = await createLedgerFixture(ctx.app.db, { customers: 1 });
    const { entry } = await purchase(ctx, token, fx.customerIds[0]!, fx.stampsProgramId, 500);
    const html = (await ctx.app.inject({ method: 'GET', url: await linkOf(entry.membershipId) })).body;
    expect(html).toContain('<p class="balance">1/10</p>');
    expect(html).not.toContain('premio');
    // A full card: the page says the reward waits at the till (the stamps written straight, as ten
    // purchases would leave them; the page only reads them).
    await ctx.app.db.execute(sql`update memberships set stamps = 12 where id = ${entry.membershipId}`);
    const full = (await ctx.app.inject({ method: 'GET', url: await linkOf(entry.membershipId) })).body;
    expect(full).toContain('<p class="balance">12/10</p><p class="ready">Hai un premio da ritirare: mostra la tessera alla cassa</p>');
    const passJson = async () =>
      JSON.parse(unzipPass((await ctx.request({ method: 'GET', url: `/api/admin/memberships/${entry.membershipId}/pass.pkpass`, token })).rawPayload).get('pass.json')!.toString());
    // So does the pass in the phone's wallet.
    expect((await passJson()).storeCard.auxiliaryFields).toEqual([{ key: 'rewardsReady', label: 'Alla cassa', value: '1 premio da ritirare' }]);
    const saveUrl = ((await ctx.request({ method: 'GET', url: `/api/admin/memberships/${entry.membershipId}/google-wallet`, token })).json() as { saveUrl: string }).saveUrl;
    const saved = decodeJwt(saveUrl.split('/save/')[1]!) as { payload: { loyaltyObjects: { textModulesData: unknown[] }[] } };
    expect(saved.payload.loyaltyObjects[0]!.textModulesData).toContainEqual({ id: 'rewardsReady', header: 'Alla cassa', body: '1 premio da ritirare' });
    await ctx.app.db.execute(sql`update memberships set stamps = 1 where id = ${entry.membershipId}`);
    const pass = await passJson();
    expect(pass.storeCard.primaryFields[0]).toMatchObject({ label: 'Timbri', value: '1/10' });
    expect(pass.storeCard.auxiliaryFields).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { createWalletMember, purchase, simulatedDevice, type WalletMember } from '../../../test/wallet-helpers.ts';
import { createWalletFixtures, unzipPass, type WalletFixtures } from '../../../test/wallet-fixtures.ts';
import { syncWallet, walletDepsOf } from './wallet.service.ts';

type PassJson = { serialNumber: string; authenticationToken: string; voided: boolean; storeCard: { primaryFields: { value: unknown }[] } };

describe("Apple's PassKit web service, end to end with a simulated device (issue 27)", () => {
  let ctx: TestContext;
  let wallet: WalletFixtures;
  let member: WalletMember;
  let pass: PassJson;

  beforeAll(async () => {
    wallet = createWalletFixtures();
    ctx = await createTestContext({ env: wallet.env() });
    member = await createWalletMember(ctx, { amountCents: 2000 });
    const download = await ctx.request({ method: 'GET', url: `/api/admin/memberships/${member.membershipId}/pass.pkpass`, token: member.token });
    pass = JSON.parse(unzipPass(download.rawPayload).get('pass.json')!.toString()) as PassJson;
  });
  afterAll(async () => {
    await ctx?.close();
    wallet?.remove();
  });

  const passJsonOf = (bytes: Buffer) => JSON.parse(unzipPass(bytes).get('pass.json')!.toString()) as PassJson;

  it('registers (201 new, 200 known, 401 wrong token) → a purchase → the serial listed as updated → the new pass has the new balance → 304 unchanged', async () => {
    const device = simulatedDevice(ctx, { deviceLibraryId: 'device-one', pushToken: 'a1b2c3', passTypeId: wallet.passTypeId });
    expect((await device.register(pass.serialNumber, 'x'.repeat(43))).statusCode).toBe(401);
    expect((await device.register(pass.serialNumber, pass.authenticationToken)).statusCode).toBe(201);
    expect((await device.register(pass.serialNumber, pass.authenticationToken)).statusCode).toBe(200);

    const all = await device.updatedSince();
    expect(all.statusCode).toBe(200);
    const { serialNumbers, lastUpdated } = all.json() as { serialNumbers: string[]; lastUpdated: string };
    expect(serialNumbers).toEqual([pass.serialNumber]);
    expect((await device.updatedSince(lastUpdated)).statusCode).toBe(204);

    const first = await device.latest(pass.serialNumber, pass.authenticationToken);
    expect(first.statusCode).toBe(200);
    expect(passJsonOf(first.rawPayload).storeCard.primaryFields[0]!.value).toBe(20);
    const lastModified = String(first.headers['last-modified']);
    expect((await device.latest(pass.serialNumber, pass.authenticationToken, lastModified)).statusCode).toBe(304);

    // Wait past the second of Last-Modified, then a purchase: 20 + 15 points.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await purchase(ctx, member.token, member.customerId, member.fx.pointsProgramId, 1500);
    // Nothing is listed until the sync job has seen the change (after the purchase's commit).
    expect((await device.updatedSince(lastUpdated)).statusCode).toBe(204);
    expect(await syncWallet(walletDepsOf(ctx.app))).toMatchObject({ passes: 1, pushes: 1 });
    const updated = await device.updatedSince(lastUpdated);
    expect(updated.statusCode).toBe(200);
    expect(updated.json().serialNumbers).toEqual([pass.serialNumber]);
    expect(Number(updated.json().lastUpdated)).toBeGreaterThan(Number(lastUpdated));

    const fresh = await device.latest(pass.serialNumber, pass.authenticationToken, lastModified);
    expect(fresh.statusCode).toBe(200);
    expect(passJsonOf(fresh.rawPayload).storeCard.primaryFields[0]!.value).toBe(35);
    expect(Date.parse(String(fresh.headers['last-modified']))).toBeGreaterThan(Date.parse(lastModified));
    expect((await device.latest(pass.serialNumber, pass.authenticationToken, String(fresh.headers['last-modified']))).statusCode).toBe(304);
    // A second sync with nothing new changes nothing and pushes nothing.
    expect(await syncWallet(walletDepsOf(ctx.app))).toMatchObject({ passes: 0, pushes: 0 });
  });

  it('answers 401 to a wrong token for the latest pass and for unregistering, and forgets an unregistered device', async () => {
    const device = simulatedDevice(ctx, { deviceLibraryId: 'device-two', pushToken: 'd4e5f6', passTypeId: wallet.passTypeId });
    expect((await device.register(pass.serialNumber, pass.authenticationToken)).statusCode).toBe(201);
    expect((await device.latest(pass.serialNumber, 'wrong')).statusCode).toBe(401);
    expect((await device.latest('00000000-0000-4000-8000-000000000000', pass.authenticationToken)).statusCode).toBe(401);
    expect((await device.unregister(pass.serialNumber, 'wrong')).statusCode).toBe(401);
    expect((await device.unregister(pass.serialNumber, pass.authenticationToken)).statusCode).toBe(200);
    expect((await device.updatedSince()).statusCode).toBe(204);
  });

  it('accepts the devices\' logs, with no cookie and no forgery-protection token', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/api/wallet/apple/v1/log', payload: { logs: ['Web service error for pass.test: 401'] } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('marks the pass updated when the card code is regenerated (the barcode changes)', async () => {
    const before = await ctx.app.db.execute(sql`select update_tag from wallet_passes where membership_id = ${member.membershipId}`);
    const regenerated = await ctx.request({ method: 'POST', url: `/api/admin/customers/${member.customerId}/card-code`, token: member.token });
    expect(regenerated.statusCode).toBe(200);
    expect(await syncWallet(walletDepsOf(ctx.app))).toMatchObject({ passes: 1 });
    const after = await ctx.app.db.execute(sql`select update_tag from wallet_passes where membership_id = ${member.membershipId}`);
    expect(Number((after as unknown as { rows: { update_tag: string }[] }).rows[0]!.update_tag)).toBeGreaterThan(
      Number((before as unknown as { rows: { update_tag: string }[] }).rows[0]!.update_tag),
    );
  });
});

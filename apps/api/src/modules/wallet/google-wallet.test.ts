import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { importSPKI, jwtVerify } from 'jose';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { barcodeMessageOf, createWalletMember, purchase, simulatedDevice, type WalletMember } from '../../../test/wallet-helpers.ts';
import { createWalletFixtures, unzipPass, type WalletFixtures } from '../../../test/wallet-fixtures.ts';
import { startGoogleStandIn, type GoogleStandIn } from '../../../test/google-wallet-stand-in.ts';
import { startApnsStandIn, type ApnsStandIn } from '../../../test/apns-stand-in.ts';
import { createJobRunner, type JobRunner } from '../../lib/job-runner.ts';
import { walletJobs } from './wallet.jobs.ts';
import { syncWallet, walletDepsOf } from './wallet.service.ts';

type LoyaltyObject = { id: string; classId: string; state: string; accountId: string; barcode: { type: string; value: string }; loyaltyPoints: { balance: { int?: number } } };

describe('Google Wallet: the save link, the patches, and erasure voiding both wallets (issue 27)', () => {
  let ctx: TestContext;
  let wallet: WalletFixtures;
  let google: GoogleStandIn;
  let apns: ApnsStandIn;
  let member: WalletMember;
  let runner: JobRunner;

  beforeAll(async () => {
    wallet = createWalletFixtures();
    google = await startGoogleStandIn(wallet);
    apns = await startApnsStandIn(wallet);
    ctx = await createTestContext({
      env: wallet.env({ APP_URL: 'https://carte.example.it', APNS_URL: apns.url, GOOGLE_WALLET_API_URL: google.apiUrl, GOOGLE_OAUTH_TOKEN_URL: google.tokenUrl }),
    });
    runner = createJobRunner({ db: ctx.app.db, handlers: walletJobs(ctx.app).handlers, log: ctx.app.log, intervalMs: 60_000, isAutomatic: false });
    member = await createWalletMember(ctx, { amountCents: 2500 });
  });
  afterAll(async () => {
    await runner?.stop();
    await ctx?.close();
    await google?.close();
    await apns?.close();
    wallet?.remove();
  });

  const saveLink = async () => {
    const response = await ctx.request({ method: 'GET', url: `/api/admin/memberships/${member.membershipId}/google-wallet`, token: member.token });
    expect(response.statusCode).toBe(200);
    return (response.json() as { saveUrl: string }).saveUrl;
  };

  it('signs the save link RS256 with the service account: aud google, typ savetowallet, our origin, the card as barcode and account id', async () => {
    const saveUrl = await saveLink();
    expect(saveUrl).toMatch(/^https:\/\/pay\.google\.com\/gp\/v\/save\/[\w-]+\.[\w-]+\.[\w-]+$/);
    const { payload, protectedHeader } = await jwtVerify(saveUrl.split('/save/')[1]!, await importSPKI(wallet.serviceAccount.public_key, 'RS256'), {
      audience: 'google',
      issuer: wallet.serviceAccount.client_email,
    });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload).toMatchObject({ typ: 'savetowallet', origins: ['https://carte.example.it'] });
    const card = await barcodeMessageOf(ctx, member.token, member.customerId);
    const { loyaltyObjects, loyaltyClasses } = payload['payload'] as { loyaltyObjects: LoyaltyObject[]; loyaltyClasses: { id: string; programName: string }[] };
    expect(loyaltyClasses[0]).toMatchObject({ id: `${wallet.issuerId}.program-${member.fx.pointsProgramId}`, programName: 'Circuito Punti' });
    expect(loyaltyObjects[0]).toMatchObject({
      id: `${wallet.issuerId}.member-${member.membershipId}`,
      classId: loyaltyClasses[0]!.id,
      state: 'ACTIVE',
      accountId: card.cardNumber,
      barcode: { type: 'QR_CODE', value: card.barcodeMessage },
      loyaltyPoints: { balance: { int: 25 } },
    });
  });

  it('patches the saved object with the new balance after a purchase, with a token from the JWT-bearer grant', async () => {
    google.saved.add(`${wallet.issuerId}.member-${member.membershipId}`);
    await purchase(ctx, member.token, member.customerId, member.fx.pointsProgramId, 1000);
    expect(await syncWallet(walletDepsOf(ctx.app))).toMatchObject({ passes: 1, patches: 1 });
    await runner.tick();
    expect(google.refused).toEqual([]);
    expect(google.patches).toHaveLength(1);
    expect(google.patches[0]!.body).toMatchObject({ state: 'ACTIVE', loyaltyPoints: { balance: { int: 35 } } });
  });

  it('erasure revokes the card link, voids the Apple pass (pushed) and the Google object (INACTIVE), and forgets the devices', async () => {
    const download = await ctx.request({ method: 'GET', url: `/api/admin/memberships/${member.membershipId}/pass.pkpass`, token: member.token });
    const pass = JSON.parse(unzipPass(download.rawPayload).get('pass.json')!.toString()) as { serialNumber: string; authenticationToken: string };
    const device = simulatedDevice(ctx, { deviceLibraryId: 'phone-e', pushToken: 'token-e', passTypeId: wallet.passTypeId });
    expect((await device.register(pass.serialNumber, pass.authenticationToken)).statusCode).toBe(201);
    const { url } = (await ctx.request({ method: 'GET', url: `/api/admin/memberships/${member.membershipId}/card-link`, token: member.token })).json() as { url: string };
    const { lastUpdated } = (await device.updatedSince()).json() as { lastUpdated: string };

    const request = await ctx.request({ method: 'POST', url: '/api/admin/privacy-requests', token: member.token, payload: { kind: 'erasure', customerId: member.customerId } });
    expect(request.statusCode).toBe(201);
    const erased = await ctx.request({
      method: 'POST',
      url: `/api/admin/privacy-requests/${request.json().id}/actions`,
      token: member.token,
      payload: { action: 'erase', version: request.json().version },
    });
    expect(erased.statusCode).toBe(200);

    expect((await ctx.app.inject({ method: 'GET', url: new URL(url).pathname })).statusCode).toBe(404);
    await runner.tick();
    expect(apns.pushes.map((push) => push.token)).toEqual(['token-e']);
    expect(google.patches.at(-1)!.body).toMatchObject({ state: 'INACTIVE' });
    // The device, pushed, finds its pass updated and fetches it: voided.
    const updated = await device.updatedSince(lastUpdated);
    expect(updated.json().serialNumbers).toEqual([pass.serialNumber]);
    const voided = await device.latest(pass.serialNumber, pass.authenticationToken);
    expect(JSON.parse(unzipPass(voided.rawPayload).get('pass.json')!.toString())).toMatchObject({ voided: true });
    // A voided pass takes no new device, and the sync never brings it back.
    expect((await simulatedDevice(ctx, { deviceLibraryId: 'phone-f', pushToken: 'token-f', passTypeId: wallet.passTypeId }).register(pass.serialNumber, pass.authenticationToken)).statusCode).toBe(401);
    expect(await syncWallet(walletDepsOf(ctx.app))).toMatchObject({ passes: 0, forgotten: 0 });
    // The devices are forgotten once they had a day to fetch the voided pass.
    await ctx.app.db.execute(sql`update wallet_registrations set forget_after = now() - interval '1 second' where forget_after is not null`);
    expect(await syncWallet(walletDepsOf(ctx.app))).toMatchObject({ forgotten: 1 });
    expect((await device.updatedSince()).statusCode).toBe(204);
    // And staff can no longer make a link or a pass for the erased customer.
    expect((await ctx.request({ method: 'GET', url: `/api/admin/memberships/${member.membershipId}/google-wallet`, token: member.token })).statusCode).toBe(409);
  });
});

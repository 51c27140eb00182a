import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { barcodeMessageOf, createWalletMember, type WalletMember } from '../../../test/wallet-helpers.ts';
import { createWalletFixtures, unzipPass, verifySignature, type WalletFixtures } from '../../../test/wallet-fixtures.ts';
import { loadEnv } from '../../config/env.ts';
import { loadWalletConfig } from './wallet-config.ts';

describe("Apple Wallet's pass (issue 27)", () => {
  let ctx: TestContext;
  let wallet: WalletFixtures;
  let member: WalletMember;

  beforeAll(async () => {
    wallet = createWalletFixtures({ passphrase: 'pass-phrase-2026' });
    ctx = await createTestContext({ env: wallet.env({ APP_URL: 'https://carte.example.it' }) });
    member = await createWalletMember(ctx, { amountCents: 7000 });
  });
  afterAll(async () => {
    await ctx?.close();
    wallet?.remove();
  });

  const download = () => ctx.request({ method: 'GET', url: `/api/admin/memberships/${member.membershipId}/pass.pkpass`, token: member.token });

  it('is a storeCard signed with the pass certificate: manifest has the SHA-1 of every file, openssl cms accepts the signature', async () => {
    const response = await download();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.apple.pkpass');
    const files = unzipPass(response.rawPayload);
    expect([...files.keys()].sort()).toEqual(['icon.png', 'manifest.json', 'pass.json', 'signature']);
    const manifest = JSON.parse(files.get('manifest.json')!.toString()) as Record<string, string>;
    expect(Object.keys(manifest).sort()).toEqual(['icon.png', 'pass.json']);
    for (const [name, sha1] of Object.entries(manifest)) expect(createHash('sha1').update(files.get(name)!).digest('hex')).toBe(sha1);
    expect(verifySignature(files, wallet.files.caCert)).toBe('');
    // A pass signed by another authority is refused by the same check (the check is not a formality).
    const stranger = createWalletFixtures();
    try {
      expect(() => verifySignature(files, stranger.files.caCert)).toThrow();
    } finally {
      stranger.remove();
    }
  });

  it('shows the balance, the holder and the card barcode message (QR and Code 128), with a stable serial and the web service', async () => {
    const first = JSON.parse(unzipPass((await download()).rawPayload).get('pass.json')!.toString());
    const second = JSON.parse(unzipPass((await download()).rawPayload).get('pass.json')!.toString());
    const card = await barcodeMessageOf(ctx, member.token, member.customerId);
    expect(first).toMatchObject({
      formatVersion: 1,
      passTypeIdentifier: wallet.passTypeId,
      teamIdentifier: wallet.teamId,
      webServiceURL: 'https://carte.example.it/api/wallet/apple',
      organizationName: 'Circuito Punti',
      voided: false,
      barcodes: [
        { format: 'PKBarcodeFormatQR', message: card.barcodeMessage, altText: card.cardNumber },
        { format: 'PKBarcodeFormatCode128', message: card.barcodeMessage },
      ],
    });
    expect(first.storeCard.primaryFields[0]).toMatchObject({ key: 'balance', label: 'Punti', value: 70 });
    expect(first.storeCard.secondaryFields[0].value).toMatch(/^Mario Rossi/);
    expect(first.storeCard.backFields.map((field: { key: string }) => field.key)).toEqual(['merchants', 'cardNumber', 'cardPage']);
    expect(second.serialNumber).toBe(first.serialNumber);
    expect(first.authenticationToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('is downloadable from the card page, signed out', async () => {
    const { url } = (await ctx.request({ method: 'GET', url: `/api/admin/memberships/${member.membershipId}/card-link`, token: member.token })).json() as { url: string };
    const page = await ctx.app.inject({ method: 'GET', url: new URL(url).pathname });
    expect(page.body).toContain(`href="${new URL(url).pathname}/pass.pkpass"`);
    const pass = await ctx.app.inject({ method: 'GET', url: `${new URL(url).pathname}/pass.pkpass` });
    expect(pass.statusCode).toBe(200);
    expect(unzipPass(pass.rawPayload).has('signature')).toBe(true);
  });
});

describe('the wallet settings at start', () => {
  let wallet: WalletFixtures;
  beforeAll(() => {
    wallet = createWalletFixtures();
  });
  afterAll(() => wallet?.remove());

  const load = (settings: Record<string, string>) => () => loadWalletConfig(loadEnv({ NODE_ENV: 'test', ...settings }));

  it('starts without any wallet setting: both wallets off', () => {
    expect(load({})()).toEqual({ apple: null, google: null });
  });

  it('stops the start with a message naming the setting: a missing file, a non-certificate, a key of another certificate, half the settings', () => {
    expect(load(wallet.env({ APPLE_PASS_CERT: '/nonexistent/pass.pem' }))).toThrow(/APPLE_PASS_CERT: cannot read \/nonexistent\/pass.pem/);
    expect(load(wallet.env({ APPLE_PASS_CERT: wallet.files.serviceAccount }))).toThrow(/APPLE_PASS_CERT: not a PEM certificate/);
    expect(load(wallet.env({ APPLE_PASS_KEY: wallet.files.serverKey }))).toThrow(/APPLE_PASS_KEY: is not the key of APPLE_PASS_CERT/);
    expect(load({ APPLE_PASS_TYPE_ID: wallet.passTypeId })).toThrow(/APPLE_TEAM_ID, APPLE_PASS_CERT, APPLE_PASS_KEY, APPLE_WWDR_CERT: needed with the other Apple Wallet settings/);
    expect(load(wallet.env({ GOOGLE_WALLET_SERVICE_ACCOUNT: wallet.files.passCert }))).toThrow(/GOOGLE_WALLET_SERVICE_ACCOUNT: not a JSON file/);
  });

  it('refuses a passphrase-protected key without its passphrase', () => {
    const locked = createWalletFixtures({ passphrase: 'secret-words' });
    try {
      expect(load(locked.env({ APPLE_PASS_KEY_PASSPHRASE: '' }))).toThrow(/APPLE_PASS_KEY: not a PEM private key, or APPLE_PASS_KEY_PASSPHRASE does not open it/);
      expect(load(locked.env())().apple?.passTypeId).toBe(locked.passTypeId);
    } finally {
      locked.remove();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture } from '../../../test/ledger-fixtures.ts';
import { solidPng } from './solid-png.ts';

describe("a program's wallet look: two colours, a logo and terms (issue 27)", () => {
  let ctx: TestContext;
  let token = '';
  let programId = '';
  beforeAll(async () => {
    ctx = await createTestContext();
    token = await ctx.tokenFor('admin@demo.test');
    const { merchantId } = await createLedgerFixture(ctx.app.db, { customers: 0 });
    const created = await ctx.request({
      method: 'POST',
      url: '/api/admin/programs',
      token,
      payload: { name: 'Circuito Wallet', type: 'points', merchantIds: [merchantId], pointsPerEuro: 1 },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ walletBackgroundColor: null, walletForegroundColor: null, walletLogo: null, terms: null });
    programId = created.json().id;
  });
  afterAll(async () => ctx?.close());

  const patch = (payload: Record<string, unknown>, language = 'it') =>
    ctx.request({ method: 'PATCH', url: `/api/admin/programs/${programId}`, token, payload, headers: { 'accept-language': language } });

  it('keeps the colours lower-cased, the PNG logo and the terms, and serves the logo publicly', async () => {
    const logo = `data:image/png;base64,${solidPng(16, 16, '#ff8800').toString('base64')}`;
    const saved = await patch({ version: 1, walletBackgroundColor: '#A01B2C', walletForegroundColor: '#ffffff', walletLogo: logo, terms: 'Punti validi 12 mesi.' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ walletBackgroundColor: '#a01b2c', walletForegroundColor: '#ffffff', walletLogo: logo, terms: 'Punti validi 12 mesi.' });
    const served = await ctx.app.inject({ method: 'GET', url: `/api/wallet/programs/${programId}/logo.png` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(solidPng(16, 16, '#ff8800'))).toBe(true);
  });

  it('refuses a colour that is not #rrggbb and a logo that is not a PNG data URL, naming the field', async () => {
    const colour = await patch({ version: 2, walletBackgroundColor: 'red' });
    expect(colour.statusCode).toBe(400);
    expect(colour.json().error.fields[0]).toMatchObject({ field: 'walletBackgroundColor', message: 'Colore di sfondo della tessera non è valido' });
    const jpeg = await patch({ version: 2, walletLogo: 'data:image/jpeg;base64,AAAA' }, 'en');
    expect(jpeg.statusCode).toBe(400);
    expect(jpeg.json().error.fields[0]).toMatchObject({ field: 'walletLogo', message: 'Card logo is not valid' });
  });
});

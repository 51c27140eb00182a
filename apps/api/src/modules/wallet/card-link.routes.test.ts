import path from 'node:path';
import { readdir, readFile } from 'node:fs/promises';
import QRCode from 'qrcode';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { barcodeMessageOf, createWalletMember, setCustomerStatus, type WalletMember } from '../../../test/wallet-helpers.ts';

describe("the customer's card link and card page (issue 27)", () => {
  let ctx: TestContext;
  let member: WalletMember;

  beforeAll(async () => {
    ctx = await createTestContext({ env: { APP_URL: 'https://carte.example.it' } });
    member = await createWalletMember(ctx, { amountCents: 4250 });
  });
  afterAll(async () => ctx?.close());

  const linkUrl = (id: string) => `/api/admin/memberships/${id}/card-link`;
  const pathOf = (url: string) => new URL(url).pathname;

  it('gives staff one stable, unguessable link per membership, made on first use', async () => {
    const first = await ctx.request({ method: 'GET', url: linkUrl(member.membershipId), token: member.token });
    expect(first.statusCode).toBe(200);
    const { url } = first.json() as { url: string };
    expect(url).toMatch(/^https:\/\/carte\.example\.it\/c\/[A-Za-z0-9_-]{43}$/);
    const again = await ctx.request({ method: 'GET', url: linkUrl(member.membershipId), token: member.token });
    expect(again.json()).toEqual({ url, emailRefusal: 'Il cliente non ha un indirizzo e-mail' });
    // Nothing of the token is stored: only its SHA-256 (decision record 033).
    const stored = await ctx.app.db.execute(`select encode(token_hash, 'hex') as hash from wallet_card_links` as never);
    expect(JSON.stringify(stored)).not.toContain(url.split('/c/')[1]);
  });

  it('shows the card signed out: program, balance, the number and the QR of <number>-<code>, noindex, no cookie', async () => {
    const { url } = (await ctx.request({ method: 'GET', url: linkUrl(member.membershipId), token: member.token })).json() as { url: string };
    const page = await ctx.app.inject({ method: 'GET', url: pathOf(url) });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['set-cookie']).toBeUndefined();
    const html = page.body;
    expect(html).toContain('<html lang="it">');
    expect(html).toContain('<meta name="robots" content="noindex,nofollow">');
    expect(html).toContain('Circuito Punti');
    expect(html).toMatch(/<p class="balance">42<\/p>/);
    expect(html).not.toContain('<script');
    const card = await barcodeMessageOf(ctx, member.token, member.customerId);
    expect(html).toContain(card.cardNumber.replace(/(\d{4})(?=\d)/g, '$1 '));
    // The QR code carries the barcode message of decision 030, never the bare number.
    expect(html).toContain(await QRCode.toString(card.barcodeMessage, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }));
    expect(html).not.toContain(await QRCode.toString(card.cardNumber, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }));
  });

  it('speaks English to an English browser', async () => {
    const { url } = (await ctx.request({ method: 'GET', url: linkUrl(member.membershipId), token: member.token })).json() as { url: string };
    const page = await ctx.app.inject({ method: 'GET', url: pathOf(url), headers: { 'accept-language': 'en-GB,en;q=0.9' } });
    expect(page.body).toContain('<html lang="en">');
    expect(page.body).toContain('Show this code at the till');
  });

  it('regenerates the link: the old one answers 404 at once, the new one works', async () => {
    const old = (await ctx.request({ method: 'GET', url: linkUrl(member.membershipId), token: member.token })).json() as { url: string };
    const regenerated = await ctx.request({ method: 'POST', url: linkUrl(member.membershipId), token: member.token });
    expect(regenerated.statusCode).toBe(200);
    const fresh = regenerated.json() as { url: string };
    expect(fresh.url).not.toBe(old.url);
    expect((await ctx.app.inject({ method: 'GET', url: pathOf(old.url) })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: pathOf(fresh.url) })).statusCode).toBe(200);
    expect((await ctx.request({ method: 'GET', url: linkUrl(member.membershipId), token: member.token })).json()).toEqual(fresh);
  });

  it('sends the link by e-mail only to an address with the service consent, and the link says beforehand why not', async () => {
    const send = () => ctx.request({ method: 'POST', url: `${linkUrl(member.membershipId)}/email`, token: member.token });
    const refusalNow = async (language = 'it') =>
      ((await ctx.request({ method: 'GET', url: linkUrl(member.membershipId), token: member.token, headers: { 'accept-language': language } })).json() as { emailRefusal: string | null }).emailRefusal;
    const noAddress = await send();
    expect(noAddress.statusCode).toBe(409);
    expect(noAddress.json().error.message).toBe('Il cliente non ha un indirizzo e-mail');
    expect(await refusalNow()).toBe('Il cliente non ha un indirizzo e-mail');
    expect(await refusalNow('en')).toBe('The customer has no e-mail address');
    await ctx.app.db.execute(sql`update customers set email = 'mario.rossi@example.it' where id = ${member.customerId}`);
    const noConsent = (await send()).json().error.message;
    expect(noConsent).toContain('consenso al servizio');
    expect(await refusalNow()).toBe(noConsent);
    await ctx.app.db.execute(sql`update customers set service_consent = true where id = ${member.customerId}`);
    expect(await refusalNow()).toBeNull();
    const sent = await send();
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ sentTo: 'mario.rossi@example.it' });
    const { url } = (await ctx.request({ method: 'GET', url: linkUrl(member.membershipId), token: member.token })).json() as { url: string };
    const outbox = path.join(ctx.dataDir, 'outbox');
    const texts = (await readdir(outbox)).filter((name) => name.endsWith('.txt'));
    const mail = await readFile(path.join(outbox, texts.at(-1)!), 'utf8');
    expect(mail).toContain(url);
    expect(mail).toContain('Ciao Mario');
  });

  it('answers an unknown or malformed token with the same 404 page', async () => {
    const unknown = await ctx.app.inject({ method: 'GET', url: `/c/${'A'.repeat(43)}` });
    const malformed = await ctx.app.inject({ method: 'GET', url: '/c/short' });
    expect(unknown.statusCode).toBe(404);
    expect(malformed.statusCode).toBe(404);
    expect(unknown.body).toBe(malformed.body);
    expect(unknown.body).toContain('Tessera non trovata');
  });

  it("revokes the link when the customer is blocked, and refuses a new one while blocked", async () => {
    const other = await createWalletMember(ctx);
    const { url } = (await ctx.request({ method: 'GET', url: linkUrl(other.membershipId), token: other.token })).json() as { url: string };
    await setCustomerStatus(ctx, other.token, other.customerId, 'blocked');
    expect((await ctx.app.inject({ method: 'GET', url: pathOf(url) })).statusCode).toBe(404);
    const refused = await ctx.request({ method: 'GET', url: linkUrl(other.membershipId), token: other.token });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('card_unavailable');
    // Unblocked: a new link (the revoked one stays dead).
    await setCustomerStatus(ctx, other.token, other.customerId, 'active');
    const renewed = (await ctx.request({ method: 'GET', url: linkUrl(other.membershipId), token: other.token })).json() as { url: string };
    expect(renewed.url).not.toBe(url);
    expect((await ctx.app.inject({ method: 'GET', url: pathOf(url) })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: pathOf(renewed.url) })).statusCode).toBe(200);
  });

  it('answers 404 for an unknown membership and 503 wallet_not_configured naming the settings for the passes', async () => {
    const unknown = await ctx.request({ method: 'GET', url: linkUrl('00000000-0000-4000-8000-000000000000'), token: member.token });
    expect(unknown.statusCode).toBe(404);
    const apple = await ctx.request({ method: 'GET', url: `/api/admin/memberships/${member.membershipId}/pass.pkpass`, token: member.token });
    expect(apple.statusCode).toBe(503);
    expect(apple.json().error).toMatchObject({ code: 'wallet_not_configured' });
    expect(apple.json().error.message).toContain('APPLE_PASS_TYPE_ID');
    const google = await ctx.request({ method: 'GET', url: `/api/admin/memberships/${member.membershipId}/google-wallet`, token: member.token, headers: { 'accept-language': 'en' } });
    expect(google.statusCode).toBe(503);
    expect(google.json().error.message).toBe('Google Wallet is not configured: set GOOGLE_WALLET_ISSUER_ID, GOOGLE_WALLET_SERVICE_ACCOUNT');
    const status = await ctx.request({ method: 'GET', url: '/api/admin/wallet/status', token: member.token });
    expect(status.json()).toMatchObject({ apple: { isConfigured: false }, google: { isConfigured: false } });
    expect(status.json().apple.message).toBe(apple.json().error.message);
    // A device never gets a 503 it would retry for ever: no pass can be authenticated, none is listed.
    const base = '/api/wallet/apple/v1/devices/phone/registrations/pass.example';
    const register = await ctx.app.inject({ method: 'POST', url: `${base}/00000000-0000-4000-8000-000000000000`, headers: { authorization: 'ApplePass x' }, payload: { pushToken: 't' } });
    expect(register.statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'GET', url: base })).statusCode).toBe(204);
  });
});

describe('the card page is rate-limited per address', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ seed: false, env: { CARD_PAGE_RATE_LIMIT: '3' } });
  });
  afterAll(async () => ctx?.close());

  it('answers 429 beyond CARD_PAGE_RATE_LIMIT requests a minute, so tokens cannot be tried in bulk', async () => {
    const codes: number[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) codes.push((await ctx.app.inject({ method: 'GET', url: `/c/${'B'.repeat(43)}` })).statusCode);
    expect(codes).toEqual([404, 404, 404, 429]);
  });
});

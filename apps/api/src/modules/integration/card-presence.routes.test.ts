import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { CARD_CODE_ALPHABET } from '@sf/contract/customer-cards';
import { cardNumberFor, isValidCardNumber } from '@sf/contract/customers';
import { VOUCHER_ALPHABET } from '@sf/contract/rewards';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture, type LedgerFixture } from '../../../test/ledger-fixtures.ts';
import { cardCodeFor } from '../customers/customer-cards.service.ts';

/**
 * Issue 30, H1 (decision record 030): spending points through the integration API needs the card's
 * secret code (what its QR code and barcode carry), an `app` key needs it for everything, a merchant's
 * key reads only its members by number alone, a wrong code answers as an unknown card, and new card
 * numbers are random.
 */
describe('the card presence code on the integration API', () => {
  let ctx: TestContext;
  let admin: string;
  let fx: LedgerFixture;
  let member: { id: string; cardNumber: string; scanned: string; code: string };
  let stranger: { id: string; cardNumber: string; scanned: string; code: string };
  let rewardId: string;
  let appKey: string;
  let till: string;

  const api = (method: 'GET' | 'POST', url: string, payload?: object, headers: Record<string, string> = {}) =>
    ctx.request({ method, url, token: admin, ...(payload ? { payload } : {}), headers });
  const call = (method: 'GET' | 'POST', path: string, key: string, payload?: object, headers: Record<string, string> = {}) =>
    ctx.app.inject({
      method,
      url: `/api/integration/v1${path}`,
      headers: { authorization: `Bearer ${key}`, 'accept-language': 'it', ...headers },
      ...(payload ? { payload } : {}),
    });
  const keyFor = async (body: object) => {
    const response = await api('POST', '/api/admin/api-keys', body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().secret as string;
  };
  const cardOf = async (customerId: string) => {
    const response = await api('GET', `/api/admin/customers/${customerId}/card`);
    expect(response.statusCode, response.body).toBe(200);
    const card = response.json() as { cardNumber: string; cardCode: string; barcodeMessage: string };
    return { id: customerId, cardNumber: card.cardNumber, scanned: card.barcodeMessage, code: card.cardCode };
  };
  /** An error answer without its request id: what a client could compare. */
  const errorOf = (response: { statusCode: number; json: () => { error: Record<string, unknown> } }) => {
    const { requestId: _requestId, ...rest } = response.json().error;
    return { status: response.statusCode, ...rest };
  };
  const redeem = (key: string, body: object) => call('POST', '/redemptions', key, { rewardId, ...body }, { 'idempotency-key': randomUUID() });

  beforeAll(async () => {
    ctx = await createTestContext({ seed: true });
    admin = await ctx.tokenFor('admin@demo.test');
    fx = await createLedgerFixture(ctx.app.db, { customers: 2 });
    member = await cardOf(fx.customerIds[0]!);
    stranger = await cardOf(fx.customerIds[1]!);
    // The member has points in the merchant's program; the stranger is in no program at all.
    const earned = await api(
      'POST',
      '/api/admin/ledger',
      { customerId: member.id, programId: fx.pointsProgramId, kind: 'purchase', amountCents: 50_000 },
      { 'idempotency-key': randomUUID() },
    );
    expect(earned.statusCode).toBe(201);
    const reward = await api('POST', '/api/admin/rewards', { programId: fx.pointsProgramId, name: 'Caffè', cost: 10, status: 'active' });
    rewardId = reward.json().id;
    appKey = await keyFor({ name: 'App clienti', kind: 'app', scopes: ['cards:read', 'rewards:redeem', 'proofs:write'] });
    till = await keyFor({ name: 'Cassa', kind: 'merchant', merchantId: fx.merchantId, scopes: ['cards:read', 'rewards:redeem', 'purchases:write', 'proofs:write'] });
  });
  afterAll(async () => ctx?.close());

  it('derives a 10-character code in the vouchers\' alphabet, and the card encodes <number>-<code>', async () => {
    expect(CARD_CODE_ALPHABET).toBe(VOUCHER_ALPHABET);
    expect(member.code).toMatch(new RegExp(`^[${CARD_CODE_ALPHABET}]{10}$`));
    expect(member.scanned).toBe(`${member.cardNumber}-${member.code}`);
    expect(member.code).toBe(cardCodeFor(ctx.app.cardCodeSecret, member.id, 1));
    expect(cardCodeFor(ctx.app.cardCodeSecret, member.id, 2)).not.toBe(member.code);
    expect(cardCodeFor('another secret of at least thirty-two chars', member.id, 1)).not.toBe(member.code);
    // The code is nowhere in the customer's row: derived, not stored.
    const [row] = ((await ctx.app.db.execute(sql`select * from customers where id = ${member.id}`)) as unknown as { rows: Record<string, unknown>[] }).rows;
    expect(JSON.stringify(row)).not.toContain(member.code);
  });

  it('refuses a redemption by card number alone, for every key kind, before looking the card up (403 card_code_required)', async () => {
    for (const key of [appKey, till]) {
      const refused = await redeem(key, { cardNumber: member.cardNumber });
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json().error.code).toBe('card_code_required');
      // The same answer for a card that does not exist: it reveals nothing.
      expect(errorOf(await redeem(key, { cardNumber: '2799999999999' }))).toEqual(errorOf(refused));
    }
    const [entries] = ((await ctx.app.db.execute(sql`select count(*)::int as n from ledger_entries where customer_id = ${member.id} and kind = 'redeem'`)) as unknown as {
      rows: { n: number }[];
    }).rows;
    expect(entries!.n).toBe(0);
  });

  it('redeems with the scanned form, or with the code apart, and answers a wrong code exactly as an unknown card', async () => {
    const scanned = await redeem(till, { cardNumber: member.scanned });
    expect(scanned.statusCode, scanned.body).toBe(201);
    const apart = await redeem(appKey, { cardNumber: member.cardNumber, cardCode: member.code.toLowerCase() });
    expect(apart.statusCode, apart.body).toBe(201);

    const unknown = errorOf(await redeem(appKey, { cardNumber: '2799999999999', cardCode: member.code }));
    expect(unknown).toMatchObject({ status: 404, code: 'not_found' });
    const wrong = `${member.code.slice(0, 9)}${member.code.endsWith('A') ? 'B' : 'A'}`;
    expect(errorOf(await redeem(appKey, { cardNumber: `${member.cardNumber}-${wrong}` }))).toEqual(unknown);
    // Another card's (valid) code does not open this card.
    expect(errorOf(await redeem(till, { cardNumber: member.cardNumber, cardCode: stranger.code }))).toEqual(unknown);
    // The scanned form and a different cardCode: a client bug, named.
    const both = await redeem(till, { cardNumber: member.scanned, cardCode: stranger.code });
    expect(both.statusCode).toBe(400);
    expect(both.json().error.fields[0].field).toBe('cardCode');
  });

  it('lets an app key read a card only with its code (scanned form in the path, or X-Card-Code)', async () => {
    const bare = await call('GET', `/cards/${member.cardNumber}`, appKey);
    expect(bare.statusCode).toBe(403);
    expect(bare.json().error.code).toBe('card_code_required');
    const inPath = await call('GET', `/cards/${member.scanned}`, appKey);
    expect(inPath.statusCode, inPath.body).toBe(200);
    expect(inPath.json()).toMatchObject({ cardNumber: member.cardNumber, initials: 'M. R.' });
    expect(inPath.body).not.toContain(member.code);
    const inHeader = await call('GET', `/cards/${member.cardNumber}`, appKey, undefined, { 'x-card-code': member.code });
    expect(inHeader.statusCode).toBe(200);
    expect(inHeader.json()).toEqual(inPath.json());
    const wrongHeader = await call('GET', `/cards/${member.cardNumber}`, appKey, undefined, { 'x-card-code': stranger.code });
    expect(errorOf(wrongHeader)).toEqual(errorOf(await call('GET', `/cards/2799999999999-${member.code}`, appKey)));
    // Proofs through the app need the code as well.
    const proof = await call('POST', '/proofs', appKey, { cardNumber: member.cardNumber, programId: fx.pointsProgramId, kind: 'review', url: 'https://example.com/r/1' });
    expect(proof.json().error.code).toBe('card_code_required');
    const withCode = await call('POST', '/proofs', appKey, { cardNumber: member.scanned, programId: fx.pointsProgramId, kind: 'review', url: 'https://example.com/r/1' });
    expect(withCode.statusCode, withCode.body).toBe(201);
  });

  it("lets a merchant's key read its members by number alone, and answers any other card as an unknown one", async () => {
    const own = await call('GET', `/cards/${member.cardNumber}`, till);
    expect(own.statusCode, own.body).toBe(200);
    const unknown = errorOf(await call('GET', '/cards/2799999999999', till));
    expect(unknown).toMatchObject({ status: 404 });
    // The stranger exists but is no member of this merchant's programs: no initials, no existence.
    expect(errorOf(await call('GET', `/cards/${stranger.cardNumber}`, till))).toEqual(unknown);
    const proof = await call('POST', '/proofs', till, { cardNumber: stranger.cardNumber, programId: fx.pointsProgramId, kind: 'share', url: 'https://example.com/s/1' });
    expect(errorOf(proof)).toEqual(unknown);
    // With the card in hand (its code), the till sees the card.
    expect((await call('GET', `/cards/${stranger.scanned}`, till)).statusCode).toBe(200);
  });

  it('keeps enrolment on a first purchase by card number alone, after which the till reads the card', async () => {
    const newcomer = await createLedgerFixture(ctx.app.db, { customers: 1 });
    const card = await cardOf(newcomer.customerIds[0]!);
    const ownTill = await keyFor({ name: 'Cassa nuova', kind: 'merchant', merchantId: newcomer.merchantId, scopes: ['cards:read', 'purchases:write'] });
    expect((await call('GET', `/cards/${card.cardNumber}`, ownTill)).statusCode).toBe(404);
    const bought = await call('POST', '/purchases', ownTill, { cardNumber: card.cardNumber, amountCents: 1000, programId: newcomer.pointsProgramId }, { 'idempotency-key': randomUUID() });
    expect(bought.statusCode, bought.body).toBe(201);
    expect(bought.json().cardNumber).toBe(card.cardNumber);
    expect((await call('GET', `/cards/${card.cardNumber}`, ownTill)).statusCode).toBe(200);
  });

  it('regenerates a card code from the back-office: audited, the old code stops working at once', async () => {
    const customer = await createLedgerFixture(ctx.app.db, { customers: 1 });
    const before = await cardOf(customer.customerIds[0]!);
    expect((await call('GET', `/cards/${before.scanned}`, appKey)).statusCode).toBe(200);
    const regenerated = await api('POST', `/api/admin/customers/${before.id}/card-code`);
    expect(regenerated.statusCode, regenerated.body).toBe(200);
    const after = regenerated.json() as { cardNumber: string; cardCode: string; barcodeMessage: string; cardCodeVersion: number };
    expect(after).toMatchObject({ cardNumber: before.cardNumber, cardCodeVersion: 2 });
    expect(after.cardCode).not.toBe(before.code);
    expect((await call('GET', `/cards/${before.scanned}`, appKey)).statusCode).toBe(404);
    expect((await call('GET', `/cards/${after.barcodeMessage}`, appKey)).statusCode).toBe(200);
    const audit = ((await ctx.app.db.execute(
      sql`select action, before, after from audit_log where entity_id = ${before.id} and action = 'card_code.regenerate'`,
    )) as unknown as { rows: { before: unknown; after: unknown }[] }).rows;
    expect(audit).toEqual([expect.objectContaining({ before: { cardCodeVersion: 1 }, after: { cardCodeVersion: 2 } })]);
    expect(JSON.stringify(audit)).not.toContain(after.cardCode);
  });

  it('issues random card numbers with the check digit, while cards numbered by the old counter keep working', async () => {
    const numbers: string[] = [];
    for (let index = 0; index < 4; index += 1) {
      const created = await api('POST', '/api/admin/customers', { firstName: 'Nuova', lastName: `Tessera ${index}` });
      expect(created.statusCode, created.body).toBe(201);
      numbers.push(created.json().cardNumber);
    }
    expect(numbers.every((number) => isValidCardNumber(number))).toBe(true);
    const bodies = numbers.map((number) => Number(number.slice(3, 12))).sort((a, b) => a - b);
    // Four draws from 10^9 numbers: consecutive ones would mean a counter.
    expect(bodies.slice(1).some((body, index) => body - bodies[index]! > 1)).toBe(true);
    // A card printed before, numbered by the counter, still reads and spends with its code.
    const legacy = cardNumberFor(987_654);
    await ctx.app.db.execute(sql`update customers set card_number = ${legacy} where id = ${member.id}`);
    const card = await cardOf(member.id);
    expect(card.cardNumber).toBe(legacy);
    expect((await redeem(till, { cardNumber: card.scanned })).statusCode).toBe(201);
  });
});

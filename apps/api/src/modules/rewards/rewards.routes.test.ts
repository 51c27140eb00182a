import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { VOUCHER_ALPHABET } from '@sf/contract/rewards';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture, uniquePartitaIva, type LedgerFixture } from '../../../test/ledger-fixtures.ts';
import { verifyLedger } from '../ledger/ledger.verify.ts';

const ADMIN = 'admin@demo.test';

describe('the rewards API (Premi, vouchers, redemptions)', () => {
  let ctx: TestContext;
  let token: string;
  let fx: LedgerFixture;
  let now = new Date('2026-06-15T10:00:00Z');
  const clock = { now: () => now };
  let otherMerchantId: string;

  beforeAll(async () => {
    ctx = await createTestContext({ clock });
    token = await ctx.tokenFor(ADMIN);
    fx = await createLedgerFixture(ctx.app.db, { customers: 4 });
    otherMerchantId = randomUUID();
    await ctx.app.db.execute(
      sql`insert into merchants (id, legal_name, vat_number, category, street, city, province, postal_code)
          values (${otherMerchantId}, 'Altro S.r.l.', ${uniquePartitaIva()}, 'bar', 'Via Po 2', 'Torino', 'TO', '10121')`,
    );
  });
  afterAll(async () => ctx?.close());

  const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, headers: Record<string, string> = {}) =>
    ctx.request({ method, url, token, ...(payload ? { payload } : {}), headers });
  const earn = (customerId: string, amountCents: number) =>
    api('POST', '/api/admin/ledger', { customerId, programId: fx.pointsProgramId, kind: 'purchase', amountCents }, { 'idempotency-key': randomUUID() });
  const redeem = (customerId: string, rewardId: string, key = randomUUID()) =>
    api('POST', '/api/admin/redemptions', { customerId, rewardId }, { 'idempotency-key': key });
  const createReward = async (fields: object = {}) => {
    const res = await api('POST', '/api/admin/rewards', { programId: fx.pointsProgramId, name: 'Caffè omaggio', cost: 50, status: 'active', ...fields });
    expect(res.statusCode).toBe(201);
    return res.json() as { id: string; version: number; stock: number | null };
  };
  const multipart = (boundary: string, fileName: string, content: Buffer | string, type = 'text/csv') =>
    Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`),
      Buffer.isBuffer(content) ? content : Buffer.from(content),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);

  it('creates, reads, lists and changes a reward, refusing a stale version with 409 version_conflict', async () => {
    const created = await createReward({ name: 'Cornetto', stock: 5, limitPerCustomer: 2, description: 'Uno a scelta' });
    expect(created).toMatchObject({ name: 'Cornetto', cost: 50, stock: 5, costUnit: 'points', programName: 'Circuito Punti', status: 'active', version: 1 });
    const patched = await api('PATCH', `/api/admin/rewards/${created.id}`, { version: 1, cost: 60 });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ cost: 60, version: 2 });
    const stale = await api('PATCH', `/api/admin/rewards/${created.id}`, { version: 1, cost: 70 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('version_conflict');
    const list = await api('GET', `/api/admin/rewards?q=corn&programId=${fx.pointsProgramId}`);
    expect(list.json()).toMatchObject({ total: 1, items: [{ id: created.id, cost: 60 }] });
    const csv = await api('GET', '/api/admin/rewards/export.csv?q=corn');
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.body).toContain('Cornetto;Circuito Punti;Punti;60;5;2;;;Attivo;');
    const english = await api('GET', '/api/admin/rewards/export.csv?q=corn', undefined, { 'accept-language': 'en' });
    expect(english.body).toContain('Cornetto;Circuito Punti;Points;60;5;2;;;Active;');
  });

  it('answers bad input with 400 naming the field in Italian, and an unknown program too', async () => {
    const res = await api('POST', '/api/admin/rewards', { programId: fx.pointsProgramId, name: 'X', cost: 0 }, { 'accept-language': 'it' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields[0].field).toBe('cost');
    const window = await api('POST', '/api/admin/rewards', {
      programId: fx.pointsProgramId,
      name: 'X',
      cost: 1,
      validFrom: '2026-07-01',
      validUntil: '2026-06-01',
    }, { 'accept-language': 'it' });
    expect(window.statusCode).toBe(400);
    // The same words as the form, naming the field by its label and saying why.
    expect(window.json().error.fields[0]).toMatchObject({ field: 'validUntil', message: 'Valido fino al: la data non può venire prima di Valido dal' });
    const unknown = await api('POST', '/api/admin/rewards', { programId: randomUUID(), name: 'X', cost: 1 }, { 'accept-language': 'it' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.fields[0]).toMatchObject({ field: 'programId' });
  });

  it('generates 20 distinct codes from the unambiguous alphabet and lists them as available', async () => {
    const reward = await createReward({ name: 'Gelato' });
    const res = await api('POST', `/api/admin/rewards/${reward.id}/vouchers`, { count: 20 });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ created: 20, errors: [] });
    const list = await api('GET', `/api/admin/rewards/${reward.id}/vouchers?pageSize=100`);
    const codes = (list.json().items as { code: string; status: string }[]).map((v) => v.code);
    expect(new Set(codes).size).toBe(20);
    for (const code of codes) expect([...code].every((c) => VOUCHER_ALPHABET.includes(c))).toBe(true);
    expect(list.json().items.every((v: { status: string }) => v.status === 'available')).toBe(true);
    const detail = await api('GET', `/api/admin/rewards/${reward.id}`);
    expect(detail.json().vouchers).toEqual({ available: 20, issued: 0, used: 0, expired: 0, void: 0 });
    const none = await api('POST', `/api/admin/rewards/${reward.id}/vouchers`, {});
    expect(none.statusCode).toBe(400);
  });

  it('refuses 0 or more than 10.000 codes naming the bound, and says when the codes waiting exceed the stock', async () => {
    const reward = await createReward({ name: 'Scorta piccola', stock: 5 });
    const zero = await api('POST', `/api/admin/rewards/${reward.id}/vouchers`, { count: 0 }, { 'accept-language': 'it' });
    expect(zero.statusCode).toBe(400);
    expect(zero.json().error.fields).toEqual([{ field: 'count', message: 'Numero di codici deve essere almeno 1' }]);
    const many = await api('POST', `/api/admin/rewards/${reward.id}/vouchers`, { count: 100_000 }, { 'accept-language': 'it' });
    expect(many.json().error.fields).toEqual([{ field: 'count', message: 'Numero di codici deve essere al massimo 10.000' }]);
    expect((await api('GET', `/api/admin/rewards/${reward.id}/vouchers`)).json().total).toBe(0);
    const seven = await api('POST', `/api/admin/rewards/${reward.id}/vouchers`, { count: 7 });
    expect(seven.statusCode).toBe(201);
    expect(seven.json()).toMatchObject({ created: 7, stock: { waiting: 7, left: 5 } });
    const unlimited = await createReward({ name: 'Scorta infinita' });
    expect((await api('POST', `/api/admin/rewards/${unlimited.id}/vouchers`, { count: 3 })).json().stock).toBeNull();
  });

  it('imports codes from an Italian Excel CSV with a dry run first, reporting bad, repeated and existing rows', async () => {
    const reward = await createReward({ name: 'Pizza' });
    const boundary = 'b0undary';
    const csv = '\uFEFFcodice;note\r\nPIZZA-0001;prima\r\npizza0002;\r\nPIZZA0001;doppio\r\n!!;male\r\n';
    const send = (dryRun: boolean) =>
      ctx.request({
        method: 'POST',
        url: `/api/admin/rewards/${reward.id}/vouchers${dryRun ? '?dryRun=true' : ''}`,
        token,
        payload: multipart(boundary, 'codici.csv', csv),
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'accept-language': 'it' },
      });
    const dry = await send(true);
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json()).toMatchObject({ dryRun: true, created: 2 });
    expect(dry.json().errors.map((e: { row: number; code: string }) => [e.row, e.code])).toEqual([
      [4, 'duplicate'],
      [5, 'invalid'],
    ]);
    expect((await api('GET', `/api/admin/rewards/${reward.id}/vouchers`)).json().total).toBe(0);
    // Codes stored otherwise than written are reported, not changed silently.
    expect(dry.json().rewritten).toEqual([
      { row: 2, from: 'PIZZA-0001', to: 'PIZZA0001' },
      { row: 3, from: 'pizza0002', to: 'PIZZA0002' },
    ]);
    expect(dry.json().rewrittenCount).toBe(2);
    const real = await send(false);
    expect(real.statusCode).toBe(201);
    expect(real.json()).toMatchObject({ dryRun: false, created: 2, rewrittenCount: 2 });
    // A comma-separated UTF-8 file without a header: the existing code is refused by row.
    const again = await ctx.request({
      method: 'POST',
      url: `/api/admin/rewards/${reward.id}/vouchers`,
      token,
      payload: multipart(boundary, 'codici.csv', 'PIZZA0002,x\nPIZZA0003,y\n'),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(again.json()).toMatchObject({ created: 1, errors: [{ row: 1, code: 'exists' }] });
    const list = await api('GET', `/api/admin/rewards/${reward.id}/vouchers?sort=code&order=asc`);
    expect(list.json().items.map((v: { code: string }) => v.code)).toEqual(['PIZZA0001', 'PIZZA0002', 'PIZZA0003']);
  });

  it("reports a row by the file's line number, blank lines included", async () => {
    const reward = await createReward({ name: 'Righe vuote' });
    const boundary = 'b0undary';
    // Line 5 is blank; the bad code is on line 6, the repeated one on line 9 (after two more blanks).
    const csv = 'codice\r\nRIGA0002\r\nRIGA0003\r\nRIGA0004\r\n\r\n!!\r\n\r\n\r\nRIGA0002\r\n';
    const dry = await ctx.request({
      method: 'POST',
      url: `/api/admin/rewards/${reward.id}/vouchers?dryRun=true`,
      token,
      payload: multipart(boundary, 'codici.csv', csv),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'accept-language': 'it' },
    });
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json().errors.map((e: { row: number; code: string; message: string }) => [e.row, e.code, e.message])).toEqual([
      [6, 'invalid', expect.stringContaining('!!')],
      [9, 'duplicate', expect.stringContaining('riga 2')],
    ]);
  });

  it('redeems: takes the points with a reward entry, hands out the oldest waiting code, takes one from the stock', async () => {
    const customerId = fx.customerIds[0]!;
    await earn(customerId, 20_000);
    const reward = await createReward({ name: 'Cena', cost: 120, stock: 3 });
    await api('POST', `/api/admin/rewards/${reward.id}/vouchers`, { count: 2 });
    const oldest = (await api('GET', `/api/admin/rewards/${reward.id}/vouchers?sort=createdAt&order=asc`)).json().items[0].code;
    const key = randomUUID();
    const res = await redeem(customerId, reward.id, key);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.entry).toMatchObject({ kind: 'redeem', source: 'reward', points: -120, balanceAfter: 80, reason: 'Cena', createdByLabel: ADMIN });
    expect(body.voucher.code).toBe(oldest);
    // The retry answers the same, once.
    const retry = await redeem(customerId, reward.id, key);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(body);
    const reused = await redeem(fx.customerIds[1]!, reward.id, key);
    expect(reused.statusCode).toBe(422);
    expect(reused.json().error.code).toBe('idempotency_key_reused');
    const detail = (await api('GET', `/api/admin/rewards/${reward.id}`)).json();
    expect(detail).toMatchObject({ stock: 2, vouchers: { available: 1, issued: 1 } });
    const issued = (await api('GET', `/api/admin/rewards/${reward.id}/vouchers?status=issued`)).json().items;
    expect(issued).toMatchObject([{ code: oldest, customerId, entryId: body.entry.id }]);
  });

  it('mints a new code when none waits, and refuses out_of_stock, reward_limit_reached and insufficient_balance', async () => {
    const rich = fx.customerIds[1]!;
    await earn(rich, 50_000);
    const limited = await createReward({ name: 'Limitato', cost: 10, stock: 5, limitPerCustomer: 1 });
    const first = await redeem(rich, limited.id);
    expect(first.statusCode).toBe(201);
    expect(first.json().voucher.code).toMatch(/^[A-Z2-9]{10}$/);
    const second = await redeem(rich, limited.id);
    expect(second.statusCode).toBe(409);
    expect(second.json().error.code).toBe('reward_limit_reached');

    const scarce = await createReward({ name: 'Ultimo', cost: 10, stock: 1 });
    expect((await redeem(rich, scarce.id)).statusCode).toBe(201);
    const empty = await redeem(rich, scarce.id);
    expect(empty.statusCode).toBe(409);
    expect(empty.json().error).toMatchObject({ code: 'out_of_stock', message: 'Questo premio è esaurito' });

    const costly = await createReward({ name: 'Caro', cost: 1_000_000 });
    const poor = await redeem(rich, costly.id);
    expect(poor.statusCode).toBe(409);
    expect(poor.json().error.code).toBe('insufficient_balance');
    // Nothing of a refused redemption stays: no voucher, stock untouched.
    expect((await api('GET', `/api/admin/rewards/${costly.id}`)).json().vouchers.issued).toBe(0);

    const draft = await createReward({ name: 'Bozza', status: 'draft' });
    expect((await redeem(rich, draft.id)).json().error.code).toBe('reward_not_available');
    expect((await redeem(rich, randomUUID())).statusCode).toBe(404);
  });

  it('records where a reward was handed over: the merchant named, an active one of the reward\'s program (else 400 on merchantId)', async () => {
    const customerId = fx.customerIds[3]!;
    await earn(customerId, 10_000);
    const reward = await createReward({ name: 'Brioche', cost: 5 });
    const atMerchant = await api('POST', '/api/admin/redemptions', { customerId, rewardId: reward.id, merchantId: fx.merchantId }, { 'idempotency-key': randomUUID() });
    expect(atMerchant.statusCode, atMerchant.body).toBe(201);
    expect(atMerchant.json().entry.merchantId).toBe(fx.merchantId);
    const listed = await api('GET', `/api/admin/ledger?merchantId=${fx.merchantId}&kind=redeem`);
    expect(listed.json().items.map((item: { id: number }) => item.id)).toContain(atMerchant.json().entry.id);
    // Without one, as before: no merchant.
    expect((await redeem(customerId, reward.id)).json().entry.merchantId).toBeNull();

    const notInProgram = await api('POST', '/api/admin/redemptions', { customerId, rewardId: reward.id, merchantId: otherMerchantId }, { 'idempotency-key': randomUUID() });
    expect(notInProgram.statusCode).toBe(400);
    expect(notInProgram.json().error.fields.map((field: { field: string }) => field.field)).toEqual(['merchantId']);
    await ctx.app.db.execute(sql`update merchants set status = 'suspended' where id = ${fx.merchantId}`);
    try {
      const suspended = await api('POST', '/api/admin/redemptions', { customerId, rewardId: reward.id, merchantId: fx.merchantId }, { 'idempotency-key': randomUUID() });
      expect(suspended.statusCode).toBe(400);
      expect(suspended.json().error.fields.map((field: { field: string }) => field.field)).toEqual(['merchantId']);
    } finally {
      await ctx.app.db.execute(sql`update merchants set status = 'active' where id = ${fx.merchantId}`);
    }
  });

  it('uses a voucher once, at a merchant of the program, within the window', async () => {
    const customerId = fx.customerIds[2]!;
    await earn(customerId, 10_000);
    const reward = await createReward({ name: 'Aperitivo', cost: 10, validUntil: '2026-06-30' });
    const { voucher } = (await redeem(customerId, reward.id)).json();
    const use = (merchantId: string, code = voucher.code) => api('POST', `/api/admin/vouchers/${code}/use`, { merchantId });

    const check = await api('GET', `/api/admin/vouchers/${voucher.code}?merchantId=${otherMerchantId}`);
    expect(check.json()).toMatchObject({ status: 'issued', usable: false, reason: 'voucher_wrong_merchant' });
    const wrong = await use(otherMerchantId);
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json().error.code).toBe('voucher_wrong_merchant');
    const unknownMerchant = await use(randomUUID());
    expect(unknownMerchant.statusCode).toBe(400);
    expect(unknownMerchant.json().error.fields[0].field).toBe('merchantId');

    // Typed with a dash and in lower case, as from paper.
    const typed = `${voucher.code.slice(0, 5).toLowerCase()}-${voucher.code.slice(5)}`;
    const useKey = `uso-${randomUUID()}`;
    const ok = await api('POST', `/api/admin/vouchers/${typed}/use`, { merchantId: fx.merchantId }, { 'idempotency-key': useKey });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'used', code: voucher.code, usable: false, reason: 'voucher_used' });
    // The same use sent again (the session refreshed, the answer lost): its answer, not 409.
    const resent = await api('POST', `/api/admin/vouchers/${typed}/use`, { merchantId: fx.merchantId }, { 'idempotency-key': useKey });
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toEqual(ok.json());
    expect(resent.headers['idempotent-replayed']).toBe('true');
    const twice = await use(fx.merchantId);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.code).toBe('voucher_used');
    expect((await api('POST', '/api/admin/vouchers/NOSUCHCODE/use', { merchantId: fx.merchantId })).statusCode).toBe(404);

    const later = (await redeem(customerId, reward.id)).json().voucher.code;
    now = new Date('2026-07-01T10:00:00Z');
    const laterToken = await ctx.tokenFor(ADMIN);
    try {
      const expired = await ctx.request({ method: 'POST', url: `/api/admin/vouchers/${later}/use`, token: laterToken, payload: { merchantId: fx.merchantId } });
      expect(expired.statusCode).toBe(409);
      expect(expired.json().error.code).toBe('voucher_expired');
      const listed = await ctx.request({ method: 'GET', url: `/api/admin/rewards/${reward.id}/vouchers?status=expired`, token: laterToken });
      expect(listed.json().items.map((v: { code: string }) => v.code)).toEqual([later]);
    } finally {
      now = new Date('2026-06-15T10:00:00Z');
    }
  });

  it('keeps a validity as business days: valid through the end of its last day in Rome, the same day in the API and the export', async () => {
    const customerId = fx.customerIds[3]!;
    await earn(customerId, 10_000);
    const reward = await createReward({ name: 'Gelato estivo', cost: 5, validFrom: '2026-06-01', validUntil: '2026-06-30' });
    expect(reward).toMatchObject({ validFrom: '2026-06-01', validUntil: '2026-06-30' });
    const csv = await api('GET', '/api/admin/rewards/export.csv?q=gelato%20estivo');
    expect(csv.body).toContain(';01/06/2026;30/06/2026;');
    const { voucher } = (await redeem(customerId, reward.id)).json();
    expect(voucher.validUntil).toBe('2026-06-30');
    try {
      // 23:30 of 30/06 in Rome (21:30 UTC): still the last day.
      now = new Date('2026-06-30T21:30:00Z');
      const lastEvening = await ctx.request({ method: 'GET', url: `/api/admin/vouchers/${voucher.code}?merchantId=${fx.merchantId}`, token: await ctx.tokenFor(ADMIN) });
      expect(lastEvening.json()).toMatchObject({ status: 'issued', usable: true, validUntil: '2026-06-30' });
      // 00:30 of 01/07 in Rome (22:30 UTC of 30/06): over.
      now = new Date('2026-06-30T22:30:00Z');
      const nextDay = await ctx.request({ method: 'GET', url: `/api/admin/vouchers/${voucher.code}?merchantId=${fx.merchantId}`, token: await ctx.tokenFor(ADMIN) });
      expect(nextDay.json()).toMatchObject({ status: 'expired', usable: false, reason: 'voucher_expired' });
      // 00:30 of 01/06 in Rome (22:30 UTC of 31/05) is already the first day.
      now = new Date('2026-05-31T22:30:00Z');
      const opening = await ctx.request({ method: 'POST', url: '/api/admin/redemptions', token: await ctx.tokenFor(ADMIN), payload: { customerId, rewardId: reward.id }, headers: { 'idempotency-key': randomUUID() } });
      expect(opening.statusCode).toBe(201);
    } finally {
      now = new Date('2026-06-15T10:00:00Z');
    }
    // A one-day window is a window; an instant is not a day.
    expect((await api('POST', '/api/admin/rewards', { programId: fx.pointsProgramId, name: 'Un giorno', cost: 1, validFrom: '2026-08-15', validUntil: '2026-08-15' })).statusCode).toBe(201);
    const instant = await api('POST', '/api/admin/rewards', { programId: fx.pointsProgramId, name: 'Istante', cost: 1, validUntil: '2026-06-30T21:59:59Z' });
    expect(instant.statusCode).toBe(400);
    expect(instant.json().error.fields[0].field).toBe('validUntil');
  });

  it('voids an available voucher, which then cannot be used; a used one cannot be voided', async () => {
    const reward = await createReward({ name: 'Annullabile', cost: 5 });
    await api('POST', `/api/admin/rewards/${reward.id}/vouchers`, { count: 1 });
    const [available] = (await api('GET', `/api/admin/rewards/${reward.id}/vouchers`)).json().items;
    const voided = await api('POST', `/api/admin/rewards/${reward.id}/vouchers/${available.id}/void`);
    expect(voided.statusCode).toBe(200);
    expect(voided.json()).toMatchObject({ status: 'void' });
    const use = await api('POST', `/api/admin/vouchers/${available.code}/use`, { merchantId: fx.merchantId });
    expect(use.json().error.code).toBe('voucher_void');
    const audit = await ctx.app.db.execute(sql`select action from audit_log where entity_type = 'voucher' and entity_id = ${String(available.id)}`);
    expect(audit.rows).toEqual([{ action: 'voucher.void' }]);
  });

  it('reverses a redemption with its voucher voided and its stock back, at once; a used voucher refuses it (409 redemption_voucher_used)', async () => {
    const customerId = fx.customerIds[3]!;
    await earn(customerId, 20_000);
    const reward = await createReward({ name: 'Stornabile', cost: 40, stock: 3, limitPerCustomer: 1 });
    const balanceOf = async () =>
      Number(
        (((await ctx.app.db.execute(sql`select balance from memberships where customer_id = ${customerId} and program_id = ${fx.pointsProgramId}`)) as unknown as {
          rows: { balance: number }[];
        }).rows[0]?.balance),
      );
    const before = await balanceOf();
    const redeemed = (await redeem(customerId, reward.id)).json();
    expect((await api('GET', `/api/admin/rewards/${reward.id}`)).json().stock).toBe(2);
    const reverse = (entryId: number) => api('POST', `/api/admin/ledger/${entryId}/reversal`, { reason: 'Errore di cassa' }, { 'idempotency-key': randomUUID() });

    const reversed = await reverse(redeemed.entry.id);
    expect(reversed.statusCode, reversed.body).toBe(201);
    expect(await balanceOf()).toBe(before);
    const afterReversal = (await api('GET', `/api/admin/rewards/${reward.id}`)).json();
    expect(afterReversal).toMatchObject({ stock: 3, vouchers: { issued: 0, void: 1 } });
    const use = await api('POST', `/api/admin/vouchers/${redeemed.voucher.code}/use`, { merchantId: fx.merchantId });
    expect(use.statusCode).toBe(409);
    expect(use.json().error.code).toBe('voucher_void');

    // The limit per customer counts the voucher no more: the customer may redeem again. This time the
    // voucher is used at the till before anyone reverses: the reversal is refused and changes nothing.
    const again = await redeem(customerId, reward.id);
    expect(again.statusCode, again.body).toBe(201);
    const used = await api('POST', `/api/admin/vouchers/${again.json().voucher.code}/use`, { merchantId: fx.merchantId });
    expect(used.statusCode).toBe(200);
    const balance = await balanceOf();
    const refused = await reverse(again.json().entry.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ code: 'redemption_voucher_used', message: expect.stringContaining('già stato usato') });
    expect(await balanceOf()).toBe(balance);
    expect((await api('GET', `/api/admin/rewards/${reward.id}`)).json()).toMatchObject({ stock: 2, vouchers: { used: 1, void: 1 } });
    const reversals = await ctx.app.db.execute(sql`select count(*)::int as n from ledger_entries where reverses_id = ${again.json().entry.id}`);
    expect(reversals.rows).toEqual([{ n: 0 }]);
  });

  it('keeps the stock equal to what staff made available minus the vouchers redemptions hold: restocked, and voided', async () => {
    const customerId = fx.customerIds[0]!;
    await earn(customerId, 10_000);
    const reward = await createReward({ name: 'Scorta', cost: 5, stock: 3 });
    const { voucher } = (await redeem(customerId, reward.id)).json();
    await redeem(customerId, reward.id);
    expect((await api('GET', `/api/admin/rewards/${reward.id}`)).json().stock).toBe(1);
    // Staff restock: 4 left from now (two already taken).
    const { version } = (await api('GET', `/api/admin/rewards/${reward.id}`)).json();
    expect((await api('PATCH', `/api/admin/rewards/${reward.id}`, { version, stock: 4 })).statusCode).toBe(200);
    expect(await verifyLedger(ctx.app.db)).toEqual([]);
    // A redemption's voucher voided: its unit is available again.
    expect((await api('POST', `/api/admin/rewards/${reward.id}/vouchers/${voucher.id}/void`)).statusCode).toBe(200);
    expect((await api('GET', `/api/admin/rewards/${reward.id}`)).json().stock).toBe(5);
    expect(await verifyLedger(ctx.app.db)).toEqual([]);
  });

  it('keeps the ledger check clean after redemptions (npm run ledger:verify)', async () => {
    expect(await verifyLedger(ctx.app.db)).toEqual([]);
  });
});

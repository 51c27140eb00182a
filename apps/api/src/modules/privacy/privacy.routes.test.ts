import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { createTestContext } from '../../../test/helper.ts';
import { createLedgerFixture } from '../../../test/ledger-fixtures.ts';
import { verifyLedger } from '../ledger/ledger.verify.ts';

let now = new Date('2026-03-02T10:00:00Z');
const ctx = await createTestContext({ clock: { now: () => now } });
let token = '';
let programId = '';
beforeAll(async () => {
  token = await ctx.tokenFor('admin@demo.test');
  programId = (await createLedgerFixture(ctx.app.db, { customers: 0 })).pointsProgramId;
});
afterAll(() => ctx.close());

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await ctx.app.db.execute(query)) as unknown as { rows: T[] }).rows;
}

const service = { granted: true, channel: 'counter', noticeVersion: '2026-01' };

async function newCustomer(lastName: string) {
  const response = await ctx.request({
    method: 'POST',
    url: '/api/admin/customers',
    token,
    payload: {
      firstName: 'Giulia',
      lastName,
      email: `${lastName.toLowerCase()}@example.it`,
      phone: '347 765 4321',
      birthDate: '1990-04-01',
      city: 'Bologna',
      province: 'BO',
      consents: { service, marketing: service, profiling: service },
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; cardNumber: string; referralCode: string; version: number };
}

async function newRequest(customerId: string, kind: string, extra: Record<string, unknown> = {}) {
  const response = await ctx.request({ method: 'POST', url: '/api/admin/privacy-requests', token, payload: { kind, customerId, ...extra } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; version: number; dueAt: string; daysLeft: number; status: string };
}

const act = (id: string, payload: Record<string, unknown>, language = 'it') =>
  ctx.request({ method: 'POST', url: `/api/admin/privacy-requests/${id}/actions`, token, payload, headers: { 'accept-language': language } });

async function ledgerTotals() {
  const [totals] = await rows<Record<string, string>>(
    sql`select count(*)::text as n, coalesce(sum(points), 0)::text as points, coalesce(sum(stamps), 0)::text as stamps,
               coalesce(sum(amount_cents), 0)::text as amount from ledger_entries`,
  );
  const byProgram = await rows<Record<string, string>>(
    sql`select program_id, kind, sum(points)::text as points from ledger_entries group by 1, 2 order by 1, 2`,
  );
  const balances = await rows<Record<string, string>>(sql`select coalesce(sum(balance), 0)::text as balance from memberships`);
  return { totals, byProgram, balances };
}

describe('privacy requests API', () => {
  it('records a request due one month after receipt, extends it once by two months with a reason', async () => {
    const customer = await newCustomer('Bianchi');
    const request = await newRequest(customer.id, 'access', { receivedAt: '2026-01-31T09:00:00Z' });
    expect(request.dueAt).toBe('2026-02-28T09:00:00.000Z');
    expect(request.daysLeft).toBeLessThan(0);
    expect(request.status).toBe('open');

    const noReason = await ctx.request({
      method: 'PATCH',
      url: `/api/admin/privacy-requests/${request.id}`,
      token,
      payload: { extensionReason: '', version: request.version },
      headers: { 'accept-language': 'en' },
    });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error.fields[0].field).toBe('extensionReason');
    expect(noReason.json().error.message).toContain('Extension reason');

    const extended = await ctx.request({
      method: 'PATCH',
      url: `/api/admin/privacy-requests/${request.id}`,
      token,
      payload: { extensionReason: 'Richiesta complessa: dati su più esercenti', version: request.version },
    });
    expect(extended.statusCode, extended.body).toBe(200);
    expect(extended.json()).toMatchObject({ dueAt: '2026-04-30T09:00:00.000Z', extensionReason: 'Richiesta complessa: dati su più esercenti' });
    const again = await ctx.request({
      method: 'PATCH',
      url: `/api/admin/privacy-requests/${request.id}`,
      token,
      payload: { extensionReason: 'Ancora', version: extended.json().version },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('invalid_state');
    const audit = await rows<{ action: string }>(sql`select action from audit_log where entity_type = 'privacy_request' and entity_id = ${request.id} order by id`);
    expect(audit.map((row) => row.action)).toEqual(['create', 'extend']);
  });

  it('answers 404 naming the customer for an unknown customer, and 400 for an unknown kind', async () => {
    const unknown = await ctx.request({ method: 'POST', url: '/api/admin/privacy-requests', token, payload: { kind: 'access', customerId: randomUUID() } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.fields[0].field).toBe('customerId');
    const badKind = await ctx.request({ method: 'POST', url: '/api/admin/privacy-requests', token, payload: { kind: 'forget', customerId: randomUUID() } });
    expect(badKind.statusCode).toBe(400);
    expect(badKind.json().error.fields[0].field).toBe('kind');
    // Received tomorrow: not yet, and its deadline would move a day later.
    const customer = await newCustomer('Futuro');
    const ahead = await ctx.request({ method: 'POST', url: '/api/admin/privacy-requests', token, payload: { kind: 'access', customerId: customer.id, receivedAt: new Date(now.getTime() + 86_400_000).toISOString() } });
    expect(ahead.statusCode).toBe(400);
    expect(ahead.json().error.fields).toEqual([{ field: 'receivedAt', message: 'Data di ricezione non è valida' }]);
  });

  it('exports everything held on the person as JSON, audited in the same transaction', async () => {
    const customer = await newCustomer('Verdi');
    const entry = await ctx.request({
      method: 'POST',
      url: '/api/admin/ledger',
      token,
      headers: { 'idempotency-key': randomUUID() },
      payload: { customerId: customer.id, programId, kind: 'adjust', points: 120, reason: 'Benvenuto' },
    });
    expect(entry.statusCode, entry.body).toBe(201);
    await ctx.request({ method: 'GET', url: `/api/admin/customers/${customer.id}`, token });
    const request = await newRequest(customer.id, 'portability');
    const response = await act(request.id, { action: 'export', version: request.version });
    expect(response.statusCode, response.body).toBe(200);
    const document = response.json().export;
    expect(document.customer).toMatchObject({ id: customer.id, email: 'verdi@example.it', last_name: 'Verdi' });
    expect(document.customer_consents).toHaveLength(3);
    expect(document.memberships).toHaveLength(1);
    expect(document.ledger_entries.map((row: { points: number }) => row.points)).toEqual([120]);
    expect(document.privacy_requests.map((row: { id: string }) => row.id)).toEqual([request.id]);
    expect(document.audit.map((row: { action: string }) => row.action)).toEqual(expect.arrayContaining(['create', 'read']));
    expect(response.json().request).toMatchObject({ status: 'in_progress', outcome: [{ action: 'export' }] });
    const [audit] = await rows<{ after: { requestId: string } }>(
      sql`select after from audit_log where action = 'privacy_export' and entity_id = ${customer.id}`,
    );
    expect(audit?.after.requestId).toBe(request.id);
  });

  it('erases a person: anonymised, new card and referral code, consents scrubbed, ledger totals identical', async () => {
    const customer = await newCustomer('Neri');
    for (const points of [300, -50]) {
      const entry = await ctx.request({
        method: 'POST',
        url: '/api/admin/ledger',
        token,
        headers: { 'idempotency-key': randomUUID() },
        payload: { customerId: customer.id, programId, kind: 'adjust', points, reason: 'Saldo iniziale' },
      });
      expect(entry.statusCode, entry.body).toBe(201);
    }
    // A review the person submitted, with a link, a note and a screenshot on disk.
    const imageId = `erase-test-${randomUUID()}`;
    const imageFile = path.join(ctx.app.env.dataDir, 'uploads', `${imageId}.png`);
    await mkdir(path.dirname(imageFile), { recursive: true });
    await writeFile(imageFile, Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    await ctx.app.db.execute(sql`insert into uploads (id, file_name, content_type, size, purpose) values (${imageId}, 'recensione.png', 'image/png', 4, 'proof')`);
    await ctx.app.db.execute(
      sql`insert into social_proofs (customer_id, program_id, kind, url, image_id, note, channel, submitted_by_label)
          values (${customer.id}, ${programId}, 'review', 'https://maps.example/neri', ${imageId}, 'Anna Neri, 5 stelle', 'app', 'app')`,
    );
    const before = await ledgerTotals();
    const request = await newRequest(customer.id, 'erasure');
    const wrongKind = await newRequest(customer.id, 'access');
    const refused = await act(wrongKind.id, { action: 'erase', version: wrongKind.version });
    expect(refused.statusCode).toBe(409);

    const response = await act(request.id, { action: 'erase', version: request.version });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().request).toMatchObject({ status: 'done', customerStatus: 'erased', customerName: '' });
    expect(await ledgerTotals()).toEqual(before);

    const read = await ctx.request({ method: 'GET', url: `/api/admin/customers/${customer.id}`, token });
    const erased = read.json();
    expect(erased).toMatchObject({
      status: 'erased',
      firstName: '',
      lastName: '',
      email: null,
      phone: null,
      birthDate: null,
      city: null,
      province: null,
      consents: { service: { granted: false }, marketing: { granted: false }, profiling: { granted: false } },
    });
    expect(erased.cardNumber).not.toBe(customer.cardNumber);
    expect(erased.referralCode).not.toBe(customer.referralCode);
    const consents = await rows<{ notice_version: string; recorded_by: string | null }>(
      sql`select notice_version, recorded_by from customer_consents where customer_id = ${customer.id}`,
    );
    expect(consents.every((row) => row.notice_version === 'erased' && row.recorded_by === null)).toBe(true);
    const snapshots = await rows<{ after: unknown }>(
      sql`select after from audit_log where entity_type = 'customer' and entity_id = ${customer.id} and action = 'create'`,
    );
    expect(JSON.stringify(snapshots)).not.toContain('neri@example.it');
    const search = await ctx.request({ method: 'GET', url: '/api/admin/customers?q=neri@example', token });
    expect(search.json().items).toEqual([]);
    // The proof keeps its kind and decision, not the link, the note or the screenshot (row and file).
    const proofs = await rows<{ url: string | null; image_id: string | null; note: string | null; erased_at: unknown }>(
      sql`select url, image_id, note, erased_at from social_proofs where customer_id = ${customer.id}`,
    );
    expect(proofs).toHaveLength(1);
    expect(proofs[0]).toMatchObject({ url: null, image_id: null, note: null });
    expect(proofs[0]!.erased_at).not.toBeNull();
    expect(await rows(sql`select id from uploads where id = ${imageId}`)).toEqual([]);
    expect(existsSync(imageFile)).toBe(false);
    const twice = await act(request.id, { action: 'erase', version: response.json().request.version });
    expect(twice.statusCode).toBe(409);
    // The erased person's figures stay right: consents' current state, dashboard customers, ledger.
    expect(await verifyLedger(ctx.app.db)).toEqual([]);
  });

  it('erases the person everywhere we keep them: audit trails of their proofs, screenshots and requests, ledger and request texts, pending imports (issue 30, M2)', async () => {
    const surname = 'Zappacosta';
    const email = 'zappacosta.m2@example.it';
    const phoneDigits = '3470001122';
    const created = await ctx.request({
      method: 'POST',
      url: '/api/admin/customers',
      token,
      payload: { firstName: 'Marta', lastName: surname, email, phone: `+39 ${phoneDigits}`, birthDate: '1988-08-08', consents: { service } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const customer = created.json() as { id: string };
    // A screenshot named after the person, filed with a proof whose link and note reach them.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
    const boundary = '----sf-m2';
    const upload = (url: string, name: string) =>
      ctx.request({
        method: 'POST',
        url,
        token,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: Buffer.concat([
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`),
          png,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
      });
    const screenshot = await upload('/api/admin/social-proofs/image', `${surname} recensione.png`);
    expect(screenshot.statusCode, screenshot.body).toBe(201);
    const proof = await ctx.request({
      method: 'POST',
      url: '/api/admin/social-proofs',
      token,
      payload: { customerId: customer.id, programId, kind: 'review', url: `https://maps.example/${surname}`, imageId: screenshot.json().id, note: `Chiamare ${email}` },
    });
    expect(proof.statusCode, proof.body).toBe(201);
    // A published post's cover that an old proof of theirs pointed at (before M3) must survive.
    const cover = await upload('/api/admin/news/cover', 'copertina.png');
    await ctx.app.db.execute(
      sql`insert into social_proofs (customer_id, program_id, kind, image_id, channel, submitted_by_label) values (${customer.id}, ${programId}, 'share', ${cover.json().id}, 'app', 'app')`,
    );
    // Ledger texts that reach the person: a staff note, a till's receipt.
    const adjust = await ctx.request({
      method: 'POST',
      url: '/api/admin/ledger',
      token,
      headers: { 'idempotency-key': randomUUID() },
      payload: { customerId: customer.id, programId, kind: 'adjust', points: 40, reason: `Rimborso chiesto da ${email}` },
    });
    expect(adjust.statusCode, adjust.body).toBe(201);
    const [merchant] = await rows<{ merchant_id: string }>(sql`select merchant_id from program_merchants where program_id = ${programId}`);
    const till = await ctx.request({ method: 'POST', url: '/api/admin/api-keys', token, payload: { name: 'Cassa M2', kind: 'merchant', merchantId: merchant!.merchant_id, scopes: ['purchases:write'] } });
    const [card] = await rows<{ card_number: string }>(sql`select card_number from customers where id = ${customer.id}`);
    const purchase = await ctx.app.inject({
      method: 'POST',
      url: '/api/integration/v1/purchases',
      headers: { authorization: `Bearer ${till.json().secret}`, 'idempotency-key': randomUUID() },
      payload: { cardNumber: card!.card_number, amountCents: 1500, programId, receipt: `fattura ${surname}` },
    });
    expect(purchase.statusCode, purchase.body).toBe(201);
    // A checked import, not started, that holds the person's row (checked before the person was
    // entered by hand: staged as the dry run stages a valid row) and someone else's.
    const importBoundary = '----sf-m2-import';
    const importFile = `Nome;Cognome;Email\r\nPiero;Altri;piero.altri@example.it\r\n`;
    const imported = await ctx.request({
      method: 'POST',
      url: '/api/admin/imports',
      token,
      headers: { 'content-type': `multipart/form-data; boundary=${importBoundary}` },
      payload: Buffer.from(
        `--${importBoundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\ncustomers\r\n--${importBoundary}\r\nContent-Disposition: form-data; name="dryRun"\r\n\r\ntrue\r\n` +
          `--${importBoundary}\r\nContent-Disposition: form-data; name="file"; filename="clienti.csv"\r\nContent-Type: text/csv\r\n\r\n${importFile}\r\n--${importBoundary}--\r\n`,
      ),
    });
    expect(imported.statusCode, imported.body).toBe(201);
    await ctx.app.db.execute(
      sql`insert into import_staged_customers (import_id, row_number, first_name, last_name, email, referral_code, card_number, notice_version)
          values (${imported.json().id}, 3, 'Marta', ${surname}, ${email}, 'M2REFCOD', '2790000009999', 'import')`,
    );
    await ctx.app.db.execute(sql`update imports set total_rows = 2, valid_rows = 2 where id = ${imported.json().id}`);

    const request = await newRequest(customer.id, 'erasure', { notes: `Richiesta arrivata da ${email}, tel. ${phoneDigits}` });
    const extended = await ctx.request({
      method: 'PATCH',
      url: `/api/admin/privacy-requests/${request.id}`,
      token,
      payload: { version: request.version, extensionReason: `Verifica identità di ${surname}` },
    });
    expect(extended.statusCode, extended.body).toBe(200);
    const erased = await act(request.id, { action: 'erase', version: extended.json().version });
    expect(erased.statusCode, erased.body).toBe(200);

    // No table keeps the person: every row of every table, read as text.
    const tables = await rows<{ name: string }>(sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`);
    const found: string[] = [];
    for (const { name } of tables) {
      for (const text of [surname, email, phoneDigits]) {
        const [hit] = await rows<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(name)} t where row_to_json(t)::text ilike ${`%${text}%`}`);
        if (hit!.n > 0) found.push(`${name}: ${text}`);
      }
    }
    expect(found).toEqual([]);
    // The cover another proof once pointed at is still there; the screenshot is gone.
    expect(await rows(sql`select id from uploads where id = ${cover.json().id}`)).toHaveLength(1);
    expect(await rows(sql`select id from uploads where id = ${screenshot.json().id}`)).toEqual([]);
    // Starting the pending import afterwards does not bring the person back (the other row comes in).
    const started = await ctx.request({ method: 'POST', url: `/api/admin/imports/${imported.json().id}/start`, token });
    expect(started.statusCode, started.body).toBe(200);
    const { importDeps } = await import('../imports/imports.service.ts');
    const { runImportChunk } = await import('../imports/imports.run.ts');
    await runImportChunk(importDeps(ctx.app), imported.json().id);
    expect(await rows(sql`select id from customers where lower(last_name) = ${surname.toLowerCase()} or email = ${email}`)).toEqual([]);
    expect(await rows(sql`select id from customers where email = 'piero.altri@example.it'`)).toHaveLength(1);
    // The ledger's figures are untouched; only its free texts went.
    const entries = await rows<{ points: number }>(sql`select points from ledger_entries where customer_id = ${customer.id} order by id`);
    expect(entries.map((row) => row.points)).toEqual([40, 15]);
  });

  it('leaves nothing open on an erased person: pending proofs rejected, other requests done, vouchers void, each counted; later actions refused', async () => {
    const customer = await newCustomer('Aperti');
    await ctx.request({ method: 'POST', url: '/api/admin/ledger', token, headers: { 'idempotency-key': randomUUID() }, payload: { customerId: customer.id, programId, kind: 'adjust', points: 100, reason: 'x' } });
    const reward = await ctx.request({ method: 'POST', url: '/api/admin/rewards', token, payload: { programId, name: 'Cornetto', cost: 10, status: 'active', stock: 5 } });
    expect(reward.statusCode, reward.body).toBe(201);
    const redeemed = await ctx.request({ method: 'POST', url: '/api/admin/redemptions', token, headers: { 'idempotency-key': randomUUID() }, payload: { customerId: customer.id, rewardId: reward.json().id } });
    expect(redeemed.statusCode, redeemed.body).toBe(201);
    const file = (kind: string) =>
      ctx.request({ method: 'POST', url: '/api/admin/social-proofs', token, payload: { customerId: customer.id, programId, kind, url: 'https://example.com/post/aperti' } });
    const pending = await file('review');
    expect(pending.statusCode, pending.body).toBe(201);
    // One decided before the erasure keeps its decision.
    const decidedEarlier = await file('share');
    const rejected = await ctx.request({ method: 'POST', url: '/api/admin/social-proofs/decisions', token, payload: { ids: [decidedEarlier.json().id], decision: 'reject', reason: 'Post privato' } });
    expect(rejected.json().items[0].outcome).toBe('decided');
    const access = await newRequest(customer.id, 'access');
    const rectification = await newRequest(customer.id, 'rectification');
    const started = await ctx.request({ method: 'PATCH', url: `/api/admin/privacy-requests/${rectification.id}`, token, payload: { version: rectification.version, status: 'in_progress' } });
    expect(started.statusCode, started.body).toBe(200);
    const erasure = await newRequest(customer.id, 'erasure');

    const response = await act(erasure.id, { action: 'erase', version: erasure.version });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().request.outcome[0].counts).toMatchObject({ socialProofsClosed: 1, privacyRequestsClosed: 2, vouchersVoided: 1 });
    const [audit] = await rows<{ after: Record<string, unknown> }>(sql`select after from audit_log where action = 'privacy_erase' and entity_id = ${customer.id}`);
    expect(audit!.after).toMatchObject({ socialProofsClosed: 1, privacyRequestsClosed: 2, vouchersVoided: 1 });

    // Approvazioni: the pending proof is closed by the erasure, never paid; the decided one is as it was.
    const proofs = await ctx.request({ method: 'GET', url: `/api/admin/social-proofs?customerId=${customer.id}&sort=createdAt&order=asc`, token, headers: { 'accept-language': 'it' } });
    const [review, share] = proofs.json().items;
    expect(review).toMatchObject({ status: 'rejected', points: null, entryId: null, decidedBy: 'privacy-erasure', customerName: '', customerStatus: 'erased' });
    expect(review.reason).toContain('cancellazione dei dati');
    expect(share).toMatchObject({ status: 'rejected', reason: 'Post privato', decidedBy: 'admin@demo.test' });
    const approve = await ctx.request({ method: 'POST', url: '/api/admin/social-proofs/decisions', token, payload: { ids: [pending.json().id], decision: 'approve' }, headers: { 'accept-language': 'it' } });
    expect(approve.statusCode).toBe(200);
    expect(approve.json().items[0]).toMatchObject({ outcome: 'failed', code: 'customer_erased', message: 'I dati di questo cliente sono stati cancellati' });
    expect(await rows(sql`select id from ledger_entries where customer_id = ${customer.id} and source = 'social'`)).toEqual([]);

    // The other requests are done, handled by whoever erased, saying the erasure closed them.
    for (const other of [access, rectification]) {
      const read = (await ctx.request({ method: 'GET', url: `/api/admin/privacy-requests/${other.id}`, token })).json();
      expect(read).toMatchObject({ status: 'done', daysLeft: null, handledByEmail: 'admin@demo.test' });
      expect(read.outcome.at(-1)).toMatchObject({ action: 'superseded', erasureRequestId: erasure.id, by: 'admin@demo.test' });
      const late = await act(other.id, { action: 'close', version: read.version });
      expect(late.statusCode).toBe(409);
      expect(late.json().error.code).toBe('customer_erased');
      const edit = await ctx.request({ method: 'PATCH', url: `/api/admin/privacy-requests/${other.id}`, token, payload: { version: read.version, notes: 'ancora?' } });
      expect(edit.json().error.code).toBe('customer_erased');
    }
    const again = await ctx.request({ method: 'POST', url: '/api/admin/privacy-requests', token, payload: { kind: 'access', customerId: customer.id } });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('customer_erased');
    const open = await ctx.request({ method: 'GET', url: `/api/admin/privacy-requests?customerId=${customer.id}&isPending=true`, token });
    expect(open.json().total).toBe(0);

    // The voucher they held leads nowhere, and its unit is back in stock; the points stay spent.
    const [voucher] = await rows<{ status: string }>(sql`select status from vouchers where customer_id = ${customer.id}`);
    expect(voucher!.status).toBe('void');
    const vouchers = await ctx.request({ method: 'GET', url: `/api/admin/rewards/${reward.json().id}/vouchers`, token });
    expect(vouchers.json().items).toEqual([expect.objectContaining({ status: 'void', customerId: customer.id, customerName: '' })]);
    // The exports name them as the screens do, not with a blank cell.
    const proofsCsv = await ctx.request({ method: 'GET', url: `/api/admin/social-proofs/export.csv?customerId=${customer.id}`, token, headers: { 'accept-language': 'it' } });
    expect(proofsCsv.body).toContain('Cliente cancellato');
    const vouchersCsv = await ctx.request({ method: 'GET', url: `/api/admin/rewards/${reward.json().id}/vouchers/export.csv`, token, headers: { 'accept-language': 'en' } });
    expect(vouchersCsv.body).toContain('Erased customer');
    const [stock] = await rows<{ stock: number }>(sql`select stock from rewards where id = ${reward.json().id}`);
    expect(stock!.stock).toBe(5);
    expect(await verifyLedger(ctx.app.db)).toEqual([]);
  });

  it('names an erased customer in the Movimenti, customers and privacy exports as the screens do, never with a blank', async () => {
    const customer = await newCustomer('Esportato');
    const entry = await ctx.request({
      method: 'POST',
      url: '/api/admin/ledger',
      token,
      headers: { 'idempotency-key': randomUUID() },
      payload: { customerId: customer.id, programId, kind: 'adjust', points: 25, reason: 'x' },
    });
    expect(entry.statusCode, entry.body).toBe(201);
    const erasure = await newRequest(customer.id, 'erasure');
    expect((await act(erasure.id, { action: 'erase', version: erasure.version })).statusCode).toBe(200);
    const [erased] = await rows<{ card_number: string }>(sql`select card_number from customers where id = ${customer.id}`);
    const newCard = erased!.card_number;
    const exported = async (url: string, language: string) => {
      const response = await ctx.request({ method: 'GET', url, token, headers: { 'accept-language': language } });
      expect(response.statusCode, response.body).toBe(200);
      return parse(response.body, { delimiter: ';', bom: true, columns: true }) as Record<string, string>[];
    };

    // Movimenti shows "Cliente cancellato" and no card: so does its export, in the reader's language.
    const [movement] = await exported(`/api/admin/ledger/export.csv?customerId=${customer.id}`, 'it');
    expect(movement).toMatchObject({ Cliente: 'Cliente cancellato', 'Numero tessera': '', Punti: '25', 'ID cliente': customer.id });
    const [movementEn] = await exported(`/api/admin/ledger/export.csv?customerId=${customer.id}`, 'en');
    expect(movementEn).toMatchObject({ Customer: 'Erased customer', 'Card number': '' });

    // Clienti and Richieste privacy show "Cliente cancellato · <card>": the surname column says it, the card stays.
    const customerRows = await exported(`/api/admin/customers/export.csv?q=${newCard}`, 'it');
    expect(customerRows).toEqual([expect.objectContaining({ Cognome: 'Cliente cancellato', Nome: '', 'Numero tessera': newCard, Stato: 'Cancellato' })]);
    const requestRows = await exported(`/api/admin/privacy-requests/export.csv?customerId=${customer.id}`, 'en');
    expect(requestRows).toEqual([expect.objectContaining({ 'Last name': 'Erased customer', 'First name': '', 'Card number': newCard })]);
  });

  it('closes, once, what customers erased before this rule left open (migration 0029)', async () => {
    const customer = await newCustomer('Prima');
    const erasure = await newRequest(customer.id, 'erasure');
    expect((await act(erasure.id, { action: 'erase', version: erasure.version })).statusCode).toBe(200);
    // As an erasure before the rule left them: a pending proof, an open request, an issued voucher.
    const [proof] = await rows<{ id: number }>(
      sql`insert into social_proofs (customer_id, program_id, kind, channel, submitted_by_label, erased_at) values (${customer.id}, ${programId}, 'share', 'app', 'app', now()) returning id`,
    );
    const [open] = await rows<{ id: string }>(
      sql`insert into privacy_requests (kind, customer_id, received_at, due_at) values ('access', ${customer.id}, now(), now() + interval '1 month') returning id`,
    );
    const [reward] = await rows<{ id: string }>(sql`insert into rewards (program_id, name, cost, stock, status) values (${programId}, 'Vecchio premio', 10, 0, 'active') returning id`);
    await ctx.app.db.execute(
      sql`insert into vouchers (reward_id, code, origin, status, customer_id, issued_at) values (${reward!.id}, ${`OLD${randomUUID().slice(0, 8)}`}, 'generated', 'issued', ${customer.id}, now())`,
    );
    const migration = await readFile(path.join(import.meta.dirname, '../../db/migrations/0029_erasure_leftovers.sql'), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint')) await ctx.app.db.execute(sql.raw(statement));

    const [closedProof] = await rows<{ status: string; decided_by_label: string; reason: string }>(sql`select status, decided_by_label, reason from social_proofs where id = ${proof!.id}`);
    expect(closedProof).toMatchObject({ status: 'rejected', decided_by_label: 'privacy-erasure' });
    const request = (await ctx.request({ method: 'GET', url: `/api/admin/privacy-requests/${open!.id}`, token })).json();
    expect(request.status).toBe('done');
    expect(request.outcome).toEqual([expect.objectContaining({ action: 'superseded', erasureRequestId: erasure.id })]);
    const [voucher] = await rows<{ status: string }>(sql`select status from vouchers where customer_id = ${customer.id}`);
    expect(voucher!.status).toBe('void');
  });

  it('exports, with the person, their screenshots and the audit trail of their proofs, vouchers and requests', async () => {
    const customer = await newCustomer('Esportati');
    const imageId = `export-test-${randomUUID()}`;
    await ctx.app.db.execute(sql`insert into uploads (id, file_name, content_type, size, purpose) values (${imageId}, 'foto.png', 'image/png', 4, 'proof')`);
    const proof = await ctx.request({ method: 'POST', url: '/api/admin/social-proofs', token, payload: { customerId: customer.id, programId, kind: 'share', url: 'https://example.com/post/1' } });
    expect(proof.statusCode, proof.body).toBe(201);
    await ctx.app.db.execute(sql`update social_proofs set image_id = ${imageId} where id = ${proof.json().id}`);
    await ctx.request({ method: 'POST', url: '/api/admin/ledger', token, headers: { 'idempotency-key': randomUUID() }, payload: { customerId: customer.id, programId, kind: 'adjust', points: 100, reason: 'x' } });
    const reward = await ctx.request({ method: 'POST', url: '/api/admin/rewards', token, payload: { programId, name: 'Gelato', cost: 10, status: 'active' } });
    const redeemed = await ctx.request({ method: 'POST', url: '/api/admin/redemptions', token, headers: { 'idempotency-key': randomUUID() }, payload: { customerId: customer.id, rewardId: reward.json().id } });
    expect(redeemed.statusCode, redeemed.body).toBe(201);
    const request = await newRequest(customer.id, 'access', { notes: 'Per e-mail' });
    const response = await act(request.id, { action: 'export', version: request.version });
    expect(response.statusCode, response.body).toBe(200);
    const document = response.json().export as { uploads: { id: string; url: string }[]; vouchers: unknown[]; social_proofs: unknown[]; audit: { entityType: string }[] };
    expect(document.uploads).toEqual([expect.objectContaining({ id: imageId, file_name: 'foto.png', url: `/api/public/uploads/${imageId}` })]);
    expect(document.vouchers).toHaveLength(1);
    expect(document.social_proofs).toHaveLength(1);
    expect(new Set(document.audit.map((entry) => entry.entityType))).toEqual(new Set(['customer', 'social_proof', 'voucher', 'privacy_request']));
  });

  it('restriction withdraws marketing and profiling and refuses new grants until lifted', async () => {
    const customer = await newCustomer('Gialli');
    const request = await newRequest(customer.id, 'restriction');
    const restricted = await act(request.id, { action: 'restrict', version: request.version });
    expect(restricted.statusCode, restricted.body).toBe(200);
    expect(restricted.json().request).toMatchObject({ isProcessingBlocked: true, outcome: [{ action: 'restrict', withdrawn: ['marketing', 'profiling'] }] });
    const current = await ctx.request({ method: 'GET', url: `/api/admin/customers/${customer.id}`, token });
    expect(current.json().consents).toMatchObject({ service: { granted: true }, marketing: { granted: false }, profiling: { granted: false } });

    const grant = (language: string) =>
      ctx.request({
        method: 'POST',
        url: `/api/admin/customers/${customer.id}/consents`,
        token,
        payload: { purpose: 'marketing', granted: true, channel: 'counter', noticeVersion: '2026-02' },
        headers: { 'accept-language': language },
      });
    const refused = await grant('en');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('processing_blocked');
    expect(refused.json().error.message).toContain('restricted or objected');

    const noReason = await act(request.id, { action: 'lift', version: restricted.json().request.version });
    expect(noReason.statusCode).toBe(400);
    const lifted = await act(request.id, { action: 'lift', reason: 'Il cliente ha revocato la limitazione', version: restricted.json().request.version });
    expect(lifted.statusCode, lifted.body).toBe(200);
    expect(lifted.json().request.isProcessingBlocked).toBe(false);
    expect((await grant('it')).statusCode).toBe(201);
    const actions = await rows<{ action: string }>(
      sql`select action from audit_log where entity_type = 'customer' and entity_id = ${customer.id} and action like 'privacy_%' order by id`,
    );
    expect(actions.map((row) => row.action)).toEqual(['privacy_restrict', 'privacy_lift']);
    expect(await verifyLedger(ctx.app.db)).toEqual([]);
  });

  it('closes and rejects requests (a rejection needs a reason) and refuses actions on a closed one', async () => {
    const customer = await newCustomer('Rosa');
    const request = await newRequest(customer.id, 'objection');
    expect((await act(request.id, { action: 'close', isRejected: true, version: request.version })).statusCode).toBe(400);
    const closed = await act(request.id, { action: 'close', isRejected: true, reason: 'Richiesta non verificabile', version: request.version });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().request).toMatchObject({ status: 'rejected', daysLeft: null, handledByEmail: 'admin@demo.test' });
    const after = await act(request.id, { action: 'restrict', version: closed.json().request.version });
    expect(after.statusCode).toBe(409);
    const stale = await act(request.id, { action: 'close', version: 1 });
    expect(stale.json().error.code).toBe('version_conflict');
  });

  it('counts days left as calendar days in Rome, the same on the list, the detail and the dashboard at any hour', async () => {
    now = new Date('2026-11-20T10:00:00Z');
    token = await ctx.tokenFor('admin@demo.test');
    const customer = await newCustomer('Scadenze');
    const request = await newRequest(customer.id, 'access', { receivedAt: '2026-10-30T09:00:00Z' });
    expect(request.dueAt).toBe('2026-11-30T09:00:00.000Z');
    // The dashboard lists the five soonest open requests: the other tests' requests, overdue by now, are marked done.
    await ctx.app.db.execute(sql`update privacy_requests set status = 'done' where id <> ${request.id} and status in ('open', 'in_progress')`);
    // Morning and late evening of 26/11 in Rome (23:30 is 22:30 UTC): 30/11 is four days away both times.
    for (const at of ['2026-11-26T07:00:00Z', '2026-11-26T22:30:00Z']) {
      now = new Date(at);
      const fresh = await ctx.tokenFor('admin@demo.test');
      const list = await ctx.request({ method: 'GET', url: '/api/admin/privacy-requests?q=scadenze', token: fresh });
      const detail = await ctx.request({ method: 'GET', url: `/api/admin/privacy-requests/${request.id}`, token: fresh });
      const dashboard = await ctx.request({ method: 'GET', url: '/api/admin/dashboard', token: fresh });
      const onDashboard = dashboard.json().period.privacyDeadlines.items.find((item: { id: string }) => item.id === request.id);
      expect([list.json().items[0].daysLeft, detail.json().daysLeft, onDashboard?.daysLeft], at).toEqual([4, 4, 4]);
    }
    now = new Date('2026-03-02T10:00:00Z');
    token = await ctx.tokenFor('admin@demo.test');
  });

  it('lists the queue by due date with days left, filters pending ones, and exports it for Italian Excel', async () => {
    now = new Date('2026-03-10T10:00:00Z');
    const customer = await newCustomer('Azzurri');
    await newRequest(customer.id, 'rectification', { receivedAt: '2026-02-12T10:00:00Z' });
    const list = await ctx.request({ method: 'GET', url: '/api/admin/privacy-requests?isPending=true&kind=rectification', token });
    expect(list.statusCode, list.body).toBe(200);
    const item = list.json().items.find((row: { customerId: string }) => row.customerId === customer.id);
    expect(item).toMatchObject({ daysLeft: 2, customerName: 'Giulia Azzurri', status: 'open' });
    const bad = await ctx.request({ method: 'GET', url: '/api/admin/privacy-requests?status=later', token });
    expect(bad.statusCode).toBe(400);
    // The name as the customers list shows it, surname first: each word is found, in any order.
    const byName = await ctx.request({ method: 'GET', url: `/api/admin/privacy-requests?q=${encodeURIComponent('Azzurri Giulia')}`, token });
    expect(byName.json().items.map((row: { customerId: string }) => row.customerId)).toEqual([customer.id]);
    const csv = await ctx.request({ method: 'GET', url: '/api/admin/privacy-requests/export.csv?q=azzurri', token });
    expect(csv.statusCode).toBe(200);
    const records = parse(csv.body, { delimiter: ';', bom: true, columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(1);
    // Values in the export's language, not the stored words (rectification, open).
    expect(records[0]).toMatchObject({ Tipo: 'Rettifica', Cognome: 'Azzurri', Scadenza: '12/03/2026 11:00', Stato: 'Aperta' });
  });
});

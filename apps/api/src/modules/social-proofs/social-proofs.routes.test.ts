import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture, type LedgerFixture } from '../../../test/ledger-fixtures.ts';
import { ERASURE_DECIDER } from '@sf/contract/social-proofs';
import { verifyLedger } from '../ledger/ledger.verify.ts';
import { closePendingProofsOfErasedCustomer } from './social-proofs.service.ts';

const ADMIN = 'admin@demo.test';
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

describe('the social proofs API (Approvazioni)', () => {
  let ctx: TestContext;
  let token: string;
  let fx: LedgerFixture;
  const now = new Date('2026-06-15T10:00:00Z');
  const clock = { now: () => now };

  beforeAll(async () => {
    ctx = await createTestContext({ clock });
    token = await ctx.tokenFor(ADMIN);
    fx = await createLedgerFixture(ctx.app.db, { customers: 3 });
    const bonuses = {
      referrer: { points: 0, capPerMonth: 0 },
      referee: { points: 0, capPerMonth: 0 },
      share: { points: 15, capPerMonth: 2 },
      review: { points: 40, capPerMonth: 0 },
      checkIn: { points: 0, capPerMonth: 0 },
      birthday: { points: 0, capPerMonth: 0 },
    };
    await ctx.app.db.execute(sql`update programs set bonuses = ${JSON.stringify(bonuses)}::jsonb where id = ${fx.pointsProgramId}`);
  });
  afterAll(async () => ctx?.close());

  const api = (method: 'GET' | 'POST', url: string, payload?: object, headers: Record<string, string> = {}) =>
    ctx.request({ method, url, token, ...(payload ? { payload } : {}), headers });
  const file = async (kind: 'share' | 'review' | 'checkIn', customerId = fx.customerIds[0]!, url = 'https://instagram.com/p/abc') => {
    const res = await api('POST', '/api/admin/social-proofs', { customerId, programId: fx.pointsProgramId, merchantId: fx.merchantId, kind, url });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; status: string };
  };
  const decide = (ids: number[], decision: 'approve' | 'reject', reason?: string) =>
    api('POST', '/api/admin/social-proofs/decisions', { ids, decision, ...(reason ? { reason } : {}) }, { 'accept-language': 'it' });

  it('files a proof on a customer’s behalf and refuses one with neither link nor screenshot, or a javascript: link', async () => {
    const proof = await file('review');
    expect(proof).toMatchObject({ status: 'pending', kind: 'review', channel: 'back-office', submittedBy: ADMIN, customerName: 'Mario Rossi 0' });
    const bare = await api('POST', '/api/admin/social-proofs', { customerId: fx.customerIds[0], programId: fx.pointsProgramId, kind: 'share' }, { 'accept-language': 'it' });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().error.fields[0].field).toBe('url');
    const script = await api('POST', '/api/admin/social-proofs', {
      customerId: fx.customerIds[0],
      programId: fx.pointsProgramId,
      kind: 'share',
      url: 'javascript:alert(1)',
    });
    expect(script.statusCode).toBe(400);
  });

  it('takes a screenshot only when its bytes are an image', async () => {
    const boundary = 'proofb';
    const upload = (name: string, bytes: Buffer) =>
      ctx.request({
        method: 'POST',
        url: '/api/admin/social-proofs/image',
        token,
        payload: Buffer.concat([
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`),
          bytes,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
    const fake = await upload('shot.png', Buffer.from('<script>alert(1)</script>'));
    expect(fake.statusCode).toBe(415);
    const real = await upload('shot.png', PNG);
    expect(real.statusCode).toBe(201);
    const { id, url } = real.json();
    const proof = await api('POST', '/api/admin/social-proofs', { customerId: fx.customerIds[1], programId: fx.pointsProgramId, kind: 'checkIn', imageId: id });
    expect(proof.json()).toMatchObject({ imageId: id, imageUrl: url, url: null });
  });

  it('approves with the program’s bonus as one earn entry, and a second decision leaves it as it was', async () => {
    const proof = await file('review', fx.customerIds[2]!);
    const res = await decide([proof.id], 'approve');
    expect(res.statusCode).toBe(200);
    const [item] = res.json().items;
    expect(item).toMatchObject({ id: proof.id, outcome: 'decided', proof: { status: 'approved', points: 40, decidedBy: ADMIN } });
    const entries = await api('GET', `/api/admin/ledger?customerId=${fx.customerIds[2]}`);
    expect(entries.json().items).toMatchObject([{ id: item.proof.entryId, kind: 'earn', source: 'social', points: 40, merchantId: fx.merchantId }]);
    const again = await decide([proof.id], 'reject', 'ripensamento');
    expect(again.json().items[0]).toMatchObject({ outcome: 'already_decided', proof: { status: 'approved' } });
    expect((await api('GET', `/api/admin/ledger?customerId=${fx.customerIds[2]}`)).json().total).toBe(1);
    const audit = await ctx.app.db.execute(sql`select action from audit_log where entity_type = 'social_proof' and entity_id = ${String(proof.id)} order by id`);
    expect(audit.rows).toEqual([{ action: 'create' }, { action: 'social_proof.approve' }]);
  });

  it('approves beyond the monthly cap with 0 points and says why', async () => {
    const customerId = fx.customerIds[1]!;
    const proofs = [await file('share', customerId), await file('share', customerId), await file('share', customerId)];
    const res = await decide(
      proofs.map((p) => p.id),
      'approve',
    );
    const items = res.json().items as { proof: { points: number; reason: string | null; entryId: number | null } }[];
    expect(items.map((i) => i.proof.points)).toEqual([15, 15, 0]);
    expect(items[2]!.proof).toMatchObject({ entryId: null, reason: 'Limite mensile raggiunto (2 al mese): approvata con 0 punti' });
  });

  it('rejects only with a reason, in bulk', async () => {
    const a = await file('share', fx.customerIds[0]!, 'https://facebook.com/1');
    const b = await file('share', fx.customerIds[0]!, 'https://facebook.com/2');
    const missing = await decide([a.id, b.id], 'reject');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.fields[0].field).toBe('reason');
    const res = await decide([a.id, b.id, 999_999], 'reject', 'Il post non menziona il locale');
    expect(res.json().items.map((i: { outcome: string }) => i.outcome)).toEqual(['decided', 'decided', 'not_found']);
    expect(res.json().items[0].proof).toMatchObject({ status: 'rejected', reason: 'Il post non menziona il locale', points: null });
  });

  it('lists pending first with filters, and exports the same list as CSV', async () => {
    const list = await api('GET', `/api/admin/social-proofs?pageSize=100&programId=${fx.pointsProgramId}`);
    const statuses = (list.json().items as { status: string }[]).map((p) => p.status);
    const firstDecided = statuses.findIndex((s) => s !== 'pending');
    expect(firstDecided).toBeGreaterThan(0);
    expect(statuses.slice(firstDecided).every((s) => s !== 'pending')).toBe(true);
    const reviews = await api('GET', '/api/admin/social-proofs?kind=review&status=pending');
    expect(reviews.json().items.every((p: { kind: string; status: string }) => p.kind === 'review' && p.status === 'pending')).toBe(true);
    expect((await api('GET', '/api/admin/social-proofs?from=2026-06-16')).json().total).toBe(0);
    expect((await api('GET', '/api/admin/social-proofs?from=2026-06-15&to=2026-06-15')).json().total).toBe(list.json().total);
    expect((await api('GET', '/api/admin/social-proofs?from=2026-06-16&to=2026-06-15')).statusCode).toBe(400);
    // A name as the customers list shows it (surname first) finds the same proofs; every word must match.
    const byName = (q: string) => api('GET', `/api/admin/social-proofs?pageSize=100&programId=${fx.pointsProgramId}&q=${encodeURIComponent(q)}`);
    expect((await byName('Rossi Mario')).json().total).toBe(list.json().total);
    expect((await byName('mario rossi')).json().total).toBe(list.json().total);
    expect((await byName('Rossi Luigi')).json().total).toBe(0);
    const csv = await api('GET', '/api/admin/social-proofs/export.csv?status=rejected');
    expect(csv.body).toContain('Il post non menziona il locale');
    expect(csv.body.split('\r\n').filter(Boolean)).toHaveLength(3);
  });

  it('keeps the ledger check clean', async () => {
    expect(await verifyLedger(ctx.app.db)).toEqual([]);
  });

  it('names who decided: the staff member by name, an erasure in words, in the list and in the export of either language', async () => {
    const approved = await file('checkIn', fx.customerIds[0]!, 'https://maps.example.com/checkin/1');
    const decided = await decide([approved.id], 'approve');
    expect(decided.json().items[0].proof).toMatchObject({ decidedBy: ADMIN, decidedByName: 'Giulia Rossi' });
    // A proof an erasure closed, as the erasure writes it (the staff member who ran it is in the audit only).
    const closed = await file('checkIn', fx.customerIds[1]!, 'https://maps.example.com/checkin/2');
    const [admin] = (await ctx.app.db.execute(sql`select id from users where email = ${ADMIN}`)).rows as { id: string }[];
    await ctx.app.db.transaction((tx) =>
      closePendingProofsOfErasedCustomer(tx, { actor: { id: admin!.id, email: ADMIN }, userId: admin!.id, language: 'it' }, fx.customerIds[1]!, now),
    );

    const list = await api('GET', `/api/admin/social-proofs?pageSize=100&kind=checkIn&status=approved`);
    expect(list.json().items.find((p: { id: number }) => p.id === approved.id)).toMatchObject({ decidedBy: ADMIN, decidedByName: 'Giulia Rossi' });
    const rejected = await api('GET', `/api/admin/social-proofs?pageSize=100&kind=checkIn&status=rejected`);
    expect(rejected.json().items.find((p: { id: number }) => p.id === closed.id)).toMatchObject({ decidedBy: ERASURE_DECIDER, decidedByName: null });

    const csv = (language: string) => api('GET', '/api/admin/social-proofs/export.csv?kind=checkIn', undefined, { 'accept-language': language });
    const italian = (await csv('it')).body;
    expect(italian).toContain(';Giulia Rossi;');
    expect(italian).toContain(';Cancellazione dei dati del cliente;');
    expect(italian).not.toContain(ADMIN);
    expect(italian).not.toContain(ERASURE_DECIDER);
    expect((await csv('en')).body).toContain(";Erasure of the customer's data;");
  });
});

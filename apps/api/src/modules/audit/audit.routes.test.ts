import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditListEntry } from '@sf/contract/audit';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { auditLog, customers, imports, newsPosts, privacyRequests, rewards, socialProofs, staffInvitations, uploads, users, vouchers } from '../../db/schema.ts';
import { createLedgerFixture } from '../../../test/ledger-fixtures.ts';

describe('audit routes', () => {
  let ctx: TestContext;
  let admin: string;
  let editor: string;
  let editorId: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await ctx.tokenFor('admin@demo.test');
    editor = await ctx.tokenFor('editor@demo.test');
    // Start from a known log: the demo data's own history would blur the counts below.
    await ctx.app.db.delete(auditLog);
    const created = await ctx.request({ method: 'POST', url: '/api/admin/news', payload: { title: 'Tracciato' }, token: editor });
    editorId = created.json().author.id;
    await ctx.request({ method: 'POST', url: '/api/admin/news', payload: { title: 'Tracciato da admin' }, token: admin });
    // Entries at known times, for the date filters.
    await ctx.app.db.insert(auditLog).values([
      { at: new Date('2026-01-10T10:00:00Z'), actorEmail: 'system', action: 'news.publish', entityType: 'news_post', entityId: '1' },
      { at: new Date('2026-02-10T10:00:00Z'), actorEmail: 'system', action: 'news.publish', entityType: 'news_post', entityId: '2' },
      { at: new Date('2026-03-10T10:00:00Z'), actorEmail: 'system', action: 'staff.update', entityType: 'user', entityId: 'x' },
    ]);
  });
  afterAll(() => ctx.close());

  const page = async (query: string) => {
    const response = await ctx.request({ method: 'GET', url: `/api/admin/audit?${query}`, token: admin });
    expect(response.statusCode).toBe(200);
    return response.json() as { items: AuditListEntry[]; total: number; page: number; pageSize: number };
  };

  it('filters by action (exact, or a prefix ending with a dot) and by entity id, the export too', async () => {
    await ctx.app.db.insert(auditLog).values([
      { at: new Date('2026-03-11T10:00:00Z'), actorEmail: 'admin@demo.test', action: 'read', entityType: 'customer', entityId: 'c-1' },
      { at: new Date('2026-03-12T10:00:00Z'), actorEmail: 'admin@demo.test', action: 'ledger.earn', entityType: 'ledger_entry', entityId: '7' },
      { at: new Date('2026-03-12T11:00:00Z'), actorEmail: 'admin@demo.test', action: 'ledger.redeem', entityType: 'ledger_entry', entityId: '8' },
      { at: new Date('2026-03-12T12:00:00Z'), actorEmail: 'admin@demo.test', action: 'ledger_x', entityType: 'other', entityId: '9' },
    ]);
    expect((await page('action=read')).items.map((e) => e.entityId)).toEqual(['c-1']);
    expect((await page('action=ledger.')).items.map((e) => e.action)).toEqual(['ledger.redeem', 'ledger.earn']);
    expect((await page('action=ledger')).items).toEqual([]);
    expect((await page('entityId=8')).items.map((e) => e.action)).toEqual(['ledger.redeem']);
    const csv = await ctx.request({ method: 'GET', url: '/api/admin/audit/export.csv?action=ledger.', token: admin });
    const lines = csv.rawPayload.toString('utf8').slice(1).trimEnd().split('\r\n');
    expect(lines.slice(1).map((line) => line.split(';')[2])).toEqual(['ledger.redeem', 'ledger.earn']);
  });

  it('exports the system as a word in the reader’s language, and an account by its e-mail', async () => {
    const actors = async (language: string) => {
      const csv = await ctx.request({ method: 'GET', url: '/api/admin/audit/export.csv?action=news.', token: admin, headers: { 'accept-language': language } });
      expect(csv.statusCode).toBe(200);
      return new Set(csv.rawPayload.toString('utf8').slice(1).trimEnd().split('\r\n').slice(1).map((line) => line.split(';')[1]));
    };
    expect(await actors('it')).toEqual(new Set(['Sistema', 'editor@demo.test', 'admin@demo.test']));
    expect(await actors('en')).toEqual(new Set(['System', 'editor@demo.test', 'admin@demo.test']));
    // Stored as it was: the list's "Utente" filter still finds the system's entries with "system".
    expect((await page('actor=system')).items.map((entry) => entry.actorEmail)).toEqual(['system', 'system', 'system']);
  });

  it('lists every entry newest first, with paging', async () => {
    const all = await page('pageSize=100');
    expect(all.total).toBe(all.items.length);
    expect(all.total).toBeGreaterThanOrEqual(5);
    const times = all.items.map((entry) => Date.parse(entry.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const second = await page('page=2&pageSize=2');
    expect(second.items.map((entry) => entry.id)).toEqual(all.items.slice(2, 4).map((entry) => entry.id));
    expect(second).toMatchObject({ page: 2, pageSize: 2, total: all.total });
  });

  it('records who changed what, with before and after', async () => {
    const entry = (await page('entity=news_post&actor=editor@demo.test')).items[0];
    expect(entry).toMatchObject({ action: 'news.create', actorEmail: 'editor@demo.test', actorId: editorId, before: null });
    expect(entry?.after).toMatchObject({ title: 'Tracciato' });
    expect(entry?.requestId).toEqual(expect.any(String));
  });

  it('filters by actor e-mail (any case) or id, and by entity', async () => {
    const byEmail = await page('actor=EDITOR@demo.test');
    expect(byEmail.total).toBe(1);
    expect(byEmail.items.every((entry) => entry.actorEmail === 'editor@demo.test')).toBe(true);
    const byId = await page(`actor=${editorId}`);
    expect(byId.items.map((entry) => entry.id)).toEqual(byEmail.items.map((entry) => entry.id));
    const users = await page('entity=user');
    expect(users.items.map((entry) => entry.action)).toEqual(['staff.update']);
    expect((await page('actor=nobody@demo.test')).total).toBe(0);
  });

  it('filters by a date range, both ends included', async () => {
    const range = await page('from=2026-01-10T10:00:00Z&to=2026-02-10T10:00:00Z');
    expect(range.items.map((entry) => entry.entityId)).toEqual(['2', '1']);
    const fromOnly = await page('from=2026-02-01T00:00:00%2B01:00&entity=news_post&actor=system');
    expect(fromOnly.items.map((entry) => entry.entityId)).toEqual(['2']);
  });

  it('answers 400 naming the field for a bad date or a range that ends before it starts', async () => {
    const bad = await ctx.request({ method: 'GET', url: '/api/admin/audit?from=ieri', token: admin, headers: { 'accept-language': 'en' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual([{ field: 'from', message: 'From is not valid' }]);
    const reversed = await ctx.request({ method: 'GET', url: '/api/admin/audit?from=2026-03-01T00:00:00Z&to=2026-01-01T00:00:00Z', token: admin });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().error.fields).toEqual([{ field: 'to', message: 'Al non è valido' }]);
  });

  it('names the record each entry is about while it exists, an erased customer without a name, in one page', async () => {
    const db = ctx.app.db;
    const fixture = await createLedgerFixture(db, { customers: 2 });
    const [reward] = await db.insert(rewards).values({ programId: fixture.pointsProgramId, name: 'Caffè omaggio', cost: 10 }).returning();
    const [post] = await db.select().from(newsPosts).where(eq(newsPosts.title, 'Tracciato'));
    const [account] = await db.select().from(users).where(eq(users.email, 'editor@demo.test'));
    const [person, erased] = await db.select().from(customers).where(inArray(customers.id, fixture.customerIds)).orderBy(customers.lastName);
    if (!reward || !post || !account || !person || !erased) throw new Error('fixture missing');
    const campaign = await ctx.request({
      method: 'POST',
      url: '/api/admin/campaigns',
      token: admin,
      payload: { name: 'Promo di Natale', subject: 'Ciao', body: '<p>Ciao</p>', audience: { programId: fixture.pointsProgramId } },
    });
    const key = await ctx.request({ method: 'POST', url: '/api/admin/api-keys', token: admin, payload: { name: 'Cassa 1', kind: 'merchant', merchantId: fixture.merchantId, scopes: ['purchases:write'] } });
    expect([campaign.statusCode, key.statusCode]).toEqual([201, 201]);
    const campaignId = (campaign.json() as { id: string }).id;
    const keyId = (key.json() as { key: { id: string } }).key.id;
    const merchant = { id: fixture.merchantId };
    const program = { id: fixture.pointsProgramId };
    // Erasure blanks the name and marks the row (privacy.service): the entry still says who it was about, without a name.
    await db.update(customers).set({ firstName: '', lastName: '', status: 'erased' }).where(eq(customers.id, erased.id));
    const at = new Date('2026-04-01T10:00:00Z');
    const about = (entityType: string, entityId: string) => ({ at, actorEmail: 'admin@demo.test', action: 'records.check', entityType, entityId });
    await db.insert(auditLog).values([
      about('merchant', merchant.id),
      about('program', program.id),
      about('reward', reward.id),
      about('news_post', String(post.id)),
      about('user', account.id),
      about('campaign', campaignId),
      about('api_key', keyId),
      about('customer', person.id),
      about('customer', erased.id),
      // Gone since, or a kind without names, or an id no table holds: no record, and no failed query.
      about('merchant', '00000000-0000-4000-8000-000000000000'),
      about('ledger_entry', '42'),
      about('customer', 'c-1'),
      about('news_post', 'not-a-number'),
    ]);
    const { items } = await page('action=records.check&pageSize=100');
    const records = Object.fromEntries(items.map((entry) => [`${entry.entityType}:${entry.entityId}`, entry.record]));
    expect(records).toEqual({
      [`merchant:${merchant.id}`]: { name: 'Bar Centrale', isErased: false },
      [`program:${program.id}`]: { name: 'Circuito Punti', isErased: false },
      [`reward:${reward.id}`]: { name: 'Caffè omaggio', isErased: false },
      [`news_post:${post.id}`]: { name: 'Tracciato', isErased: false },
      [`user:${account.id}`]: { name: account.displayName, isErased: false },
      [`campaign:${campaignId}`]: { name: 'Promo di Natale', isErased: false },
      [`api_key:${keyId}`]: { name: 'Cassa 1', isErased: false },
      [`customer:${person.id}`]: { name: 'Mario Rossi 0', isErased: false },
      [`customer:${erased.id}`]: { name: null, isErased: true },
      'merchant:00000000-0000-4000-8000-000000000000': null,
      'ledger_entry:42': null,
      'customer:c-1': null,
      'news_post:not-a-number': null,
    });
  });

  it('names the records without a name of their own by their parts, an erased customer without a name, and the records before/after point at', async () => {
    const db = ctx.app.db;
    const fixture = await createLedgerFixture(db, { customers: 2 });
    const [person, erased] = await db.select().from(customers).where(inArray(customers.id, fixture.customerIds)).orderBy(customers.lastName);
    if (!person || !erased) throw new Error('fixture missing');
    // A real movement: the ledger writes the entry, the membership and their audit entries itself.
    const earn = (customerId: string) =>
      ctx.request({
        method: 'POST',
        url: '/api/admin/ledger',
        token: admin,
        payload: { customerId, programId: fixture.pointsProgramId, kind: 'adjust', points: 25, reason: 'Benvenuto' },
        headers: { 'idempotency-key': randomUUID() },
      });
    const [earned, erasedEarned] = [await earn(person.id), await earn(erased.id)];
    expect([earned.statusCode, erasedEarned.statusCode]).toEqual([201, 201]);
    const entry = earned.json() as { entry: { id: number; membershipId: string } };
    const erasedEntry = erasedEarned.json() as { entry: { id: number; membershipId: string } };
    const [reward] = await db.insert(rewards).values({ programId: fixture.pointsProgramId, name: 'Cornetto omaggio', cost: 10 }).returning();
    if (!reward) throw new Error('reward missing');
    const [voucher] = await db.insert(vouchers).values({ rewardId: reward.id, code: 'CORN-7Q2X', origin: 'generated' }).returning();
    const [proof] = await db
      .insert(socialProofs)
      .values({ customerId: person.id, programId: fixture.pointsProgramId, kind: 'review', url: 'https://example.test/r', channel: 'back-office', submittedByLabel: 'admin' })
      .returning();
    const [request] = await db
      .insert(privacyRequests)
      .values({ kind: 'access', customerId: erased.id, receivedAt: new Date('2026-04-01T09:00:00Z'), dueAt: new Date('2026-05-01T09:00:00Z') })
      .returning();
    const [upload] = await db
      .insert(imports)
      .values({ kind: 'customers', fileName: 'clienti-aprile.csv', storedName: 'x.csv', sizeBytes: 10, dialect: { delimiter: ';' } as never, mapping: {} })
      .returning();
    const [invitation] = await db
      .insert(staffInvitations)
      .values({ email: 'nuova@demo.test', displayName: 'Giulia Neri', role: 'editor', language: 'it', tokenHash: randomUUID(), expiresAt: new Date('2026-05-01T09:00:00Z') })
      .returning();
    const imageId = 'Qm9yZ2hldHRvLWZvdG8tMDEy';
    await db.insert(uploads).values({ id: imageId, fileName: 'vetrina.jpg', contentType: 'image/jpeg', size: 10, purpose: 'reward' });
    if (!voucher || !proof || !request || !upload || !invitation) throw new Error('fixture missing');
    await db.update(customers).set({ firstName: '', lastName: '', status: 'erased' }).where(eq(customers.id, erased.id));

    const at = new Date('2026-04-02T10:00:00Z');
    const about = (entityType: string, entityId: string, after: unknown = null) => ({ at, actorEmail: 'admin@demo.test', action: 'parts.check', entityType, entityId, after });
    await db.insert(auditLog).values([
      about('membership', entry.entry.membershipId),
      about('membership', erasedEntry.entry.membershipId),
      about('ledger_entry', String(entry.entry.id)),
      about('voucher', String(voucher.id)),
      about('social_proof', String(proof.id)),
      about('privacy_request', request.id),
      about('import', upload.id),
      about('staff_invitation', invitation.id),
      about('service_email', fixture.pointsProgramId),
      about('upload', imageId),
      // Ids inside the after, at any depth and in lists; one no table holds is left out, not a failed query.
      about('customer', person.id, {
        requestId: request.id,
        audience: { programId: fixture.pointsProgramId, merchantIds: [fixture.merchantId, '00000000-0000-4000-8000-000000000000'] },
        entryId: erasedEntry.entry.id,
        voucherId: 'not-an-id',
        imageId,
      }),
    ]);
    const { items } = await page('action=parts.check&pageSize=100');
    const records = Object.fromEntries(items.map((item) => [`${item.entityType}:${item.entityId}`, item.record]));
    const program = 'Circuito Punti';
    expect(records).toEqual({
      [`membership:${entry.entry.membershipId}`]: { name: 'Mario Rossi 0', isErased: false, parts: { program } },
      [`membership:${erasedEntry.entry.membershipId}`]: { name: null, isErased: true, parts: { program } },
      [`ledger_entry:${entry.entry.id}`]: { name: 'Mario Rossi 0', isErased: false, parts: { program, points: 25, stamps: 0 } },
      [`voucher:${voucher.id}`]: { name: 'Cornetto omaggio', isErased: false, parts: { code: 'CORN-7Q2X' } },
      [`social_proof:${proof.id}`]: { name: 'Mario Rossi 0', isErased: false, parts: { kind: 'review' } },
      [`privacy_request:${request.id}`]: { name: null, isErased: true, parts: { kind: 'access' } },
      [`import:${upload.id}`]: { name: 'clienti-aprile.csv', isErased: false, parts: { kind: 'customers' } },
      [`staff_invitation:${invitation.id}`]: { name: 'Giulia Neri', isErased: false },
      [`service_email:${fixture.pointsProgramId}`]: { name: program, isErased: false },
      [`upload:${imageId}`]: { name: 'vetrina.jpg', isErased: false },
      [`customer:${person.id}`]: { name: 'Mario Rossi 0', isErased: false },
    });
    const customerEntry = items.find((item) => item.entityType === 'customer');
    expect(customerEntry?.references).toEqual({
      privacy_request: { [request.id]: { name: null, isErased: true, parts: { kind: 'access' } } },
      program: { [fixture.pointsProgramId]: { name: program, isErased: false } },
      merchant: { [fixture.merchantId]: { name: 'Bar Centrale', isErased: false } },
      ledger_entry: { [String(erasedEntry.entry.id)]: { name: null, isErased: true, parts: { program, points: 25, stamps: 0 } } },
      upload: { [imageId]: { name: 'vetrina.jpg', isErased: false } },
    });
    // The ledger's own entries point at their membership by id: named as the membership is.
    const written = await page(`entity=ledger_entry&entityId=${entry.entry.id}`);
    expect(written.items[0]?.references['membership']).toEqual({ [entry.entry.membershipId]: { name: 'Mario Rossi 0', isErased: false, parts: { program } } });
  });

  it('is for admins only', async () => {
    expect((await ctx.request({ method: 'GET', url: '/api/admin/audit', token: editor })).statusCode).toBe(403);
    expect((await ctx.request({ method: 'GET', url: '/api/admin/audit' })).statusCode).toBe(401);
  });
});

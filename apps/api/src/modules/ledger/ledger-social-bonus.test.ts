import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture, type LedgerFixture } from '../../../test/ledger-fixtures.ts';
import { depsOf } from '../../lib/caller.ts';
import { SYSTEM_ACTOR } from '../../lib/audit.ts';
import { applyToLockedMember, lockMember } from './ledger.service.ts';

const ADMIN = 'admin@demo.test';

/**
 * Movimenti names a social-action bonus by its proof, in the reader's language: the entries an approval
 * writes now, and those written before their reason was worded (`share #5`, kept: the ledger is append-only).
 */
describe('a social bonus in Movimenti', () => {
  let ctx: TestContext;
  let token: string;
  let fx: LedgerFixture;

  beforeAll(async () => {
    ctx = await createTestContext();
    token = await ctx.tokenFor(ADMIN);
    fx = await createLedgerFixture(ctx.app.db, { customers: 2 });
    const none = { points: 0, capPerMonth: 0 };
    const bonuses = { referrer: none, referee: none, share: { points: 15, capPerMonth: 0 }, review: { points: 40, capPerMonth: 0 }, checkIn: none, birthday: none };
    await ctx.app.db.execute(sql`update programs set bonuses = ${JSON.stringify(bonuses)}::jsonb where id = ${fx.pointsProgramId}`);
  });
  afterAll(async () => ctx?.close());

  const api = (method: 'GET' | 'POST', url: string, payload?: object, language = 'it') =>
    ctx.request({ method, url, token, ...(payload ? { payload } : {}), headers: { 'accept-language': language } });
  const file = async (kind: 'share' | 'review', customerId: string) => {
    const res = await api('POST', '/api/admin/social-proofs', { customerId, programId: fx.pointsProgramId, kind, url: 'https://instagram.com/p/abc' });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number };
  };

  it('writes the bonus of an approved proof in words, and lists the entry with its proof', async () => {
    const proof = await file('share', fx.customerIds[0]!);
    const decided = await api('POST', '/api/admin/social-proofs/decisions', { ids: [proof.id], decision: 'approve' });
    expect(decided.statusCode, decided.body).toBe(200);
    const list = await api('GET', `/api/admin/ledger?customerId=${fx.customerIds[0]}`);
    expect(list.json().items).toEqual([
      expect.objectContaining({ source: 'social', reason: `Bonus condivisione social (prova n. ${proof.id})`, proof: { id: proof.id, kind: 'share' } }),
    ]);
  });

  it('names an entry written with the old code by its proof too, in the list and in the export of either language', async () => {
    const customerId = fx.customerIds[1]!;
    const proof = await file('review', customerId);
    // An approval as it was written before: the reason a code, the proof pointing at its entry.
    const deps = depsOf(ctx.app);
    const entryId = await ctx.app.db.transaction(async (tx) => {
      const locked = await lockMember(tx, deps, { customerId, programId: fx.pointsProgramId });
      const { entry } = await applyToLockedMember(tx, deps, { id: null, label: ADMIN, audit: SYSTEM_ACTOR }, locked, {
        kind: 'earn',
        source: 'social',
        points: 40,
        stamps: 0,
        reason: `review #${proof.id}`,
        merchantId: null,
        idempotencyKey: `proof:${proof.id}`,
      });
      await tx.execute(sql`update social_proofs set status = 'approved', points = 40, entry_id = ${entry.id}, decided_at = now() where id = ${proof.id}`);
      return entry.id;
    });
    // An adjustment with a reason of its own keeps it, and has no proof.
    const adjust = await ctx.request({
      method: 'POST',
      url: '/api/admin/ledger',
      token,
      payload: { customerId, programId: fx.pointsProgramId, kind: 'adjust', points: 5, reason: 'Omaggio' },
      headers: { 'idempotency-key': 'social-bonus-test-adjust' },
    });
    expect(adjust.statusCode, adjust.body).toBe(201);

    const list = await api('GET', `/api/admin/ledger?customerId=${customerId}`);
    expect(list.json().items.map((e: { id: number; reason: string; proof: unknown }) => [e.id, e.reason, e.proof])).toEqual([
      [adjust.json().entry.id, 'Omaggio', null],
      [entryId, `review #${proof.id}`, { id: proof.id, kind: 'review' }],
    ]);

    const italian = await api('GET', `/api/admin/ledger/export.csv?customerId=${customerId}`);
    expect(italian.statusCode).toBe(200);
    expect(italian.body).toContain(`Bonus recensione (prova n. ${proof.id})`);
    expect(italian.body).toContain('Omaggio');
    expect(italian.body).not.toContain(`review #${proof.id}`);
    const english = await api('GET', `/api/admin/ledger/export.csv?customerId=${customerId}`, undefined, 'en');
    expect(english.body).toContain(`Review bonus (proof #${proof.id})`);
  });
});

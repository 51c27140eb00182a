import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { loadLoyaltyDemo } from '../../demo-loyalty.ts';

/**
 * The demo's Movimenti as a newcomer reads it after `npm start` (loaded as the server loads it): a
 * member is never "since" a date after their first movement, and each movement says who made it as a
 * real one does — the demo admin by id for what a person does at the back-office, the till by its key's
 * kind of label, the jobs as the system.
 */
const TZ = 'Europe/Rome';

describe('the demo ledger after a fresh start', { timeout: 120_000 }, () => {
  let ctx: TestContext;
  let admin: string;
  const rows = async <T>(query: ReturnType<typeof sql>) => ((await ctx.app.db.execute(query)) as unknown as { rows: T[] }).rows;

  beforeAll(async () => {
    ctx = await createTestContext();
    await loadLoyaltyDemo(ctx.app.db, { timeZone: TZ, ledgerEntries: ctx.app.env.DEMO_LEDGER_ENTRIES });
    admin = await ctx.tokenFor('admin@demo.test');
  }, 180_000);
  afterAll(async () => ctx?.close());

  it('starts no membership after its first entry', async () => {
    const late = await rows<{ id: string; joined_at: string; first: string }>(
      sql`select m.id, m.joined_at, f.first from memberships m
          cross join lateral (select min(e.created_at) as first from ledger_entries e where e.membership_id = m.id) f
          where m.joined_at > f.first`,
    );
    expect(late).toEqual([]);
    // The demo has substance to check: thousands of memberships with movements.
    const [members] = await rows<{ n: number }>(sql`select count(distinct membership_id)::int as n from ledger_entries`);
    expect(members!.n).toBeGreaterThan(1000);
  });

  it("records the demo admin's id on the movements a person makes, and none on the till's and the jobs'", async () => {
    const [account] = await rows<{ id: string; display_name: string }>(sql`select id, display_name from users where email = 'admin@demo.test'`);
    const byMaker = await rows<{ kind: string; source: string; created_by: string | null; label: string; n: number }>(
      sql`select kind, source, created_by::text as created_by,
            case when created_by_label like 'API: %' then 'API: …' else created_by_label end as label, count(*)::int as n
          from ledger_entries group by 1, 2, 3, 4 order by 1, 2, 3, 4`,
    );
    const people = byMaker.filter((group) => group.created_by !== null);
    // Adjustments, redemptions (at the counter and of rewards) and reversals: the admin, as the API records them.
    expect(new Set(people.map((group) => group.kind))).toEqual(new Set(['adjust', 'redeem', 'reversal']));
    expect(people.every((group) => group.created_by === account!.id && group.label === 'admin@demo.test')).toBe(true);
    expect(byMaker.filter((group) => ['adjust', 'redeem', 'reversal'].includes(group.kind) && group.created_by === null)).toEqual([]);
    // Purchases come from the till's API, bonuses and expiries from the jobs: no person, no Italian word.
    const purchases = byMaker.filter((group) => group.kind === 'earn' && group.source === 'purchase');
    expect(purchases.length).toBeGreaterThan(0);
    expect(purchases.every((group) => group.created_by === null && group.label === 'API: …')).toBe(true);
    const automatic = byMaker.filter((group) => group.kind === 'expire' || ['referral', 'birthday'].includes(group.source));
    expect(automatic.every((group) => group.created_by === null && group.label === 'system')).toBe(true);
    expect(byMaker.filter((group) => group.label === 'cassa')).toEqual([]);

    // Movimenti names the admin on an adjustment.
    const page = await ctx.request({ method: 'GET', url: '/api/admin/ledger?kind=adjust&pageSize=5', token: admin });
    expect(page.statusCode, page.body).toBe(200);
    for (const entry of page.json().items) expect(entry).toMatchObject({ createdBy: account!.id, createdByName: account!.display_name });
  });
});

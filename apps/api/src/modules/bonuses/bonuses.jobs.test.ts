import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture, type LedgerFixture } from '../../../test/ledger-fixtures.ts';
import { startBackgroundJobs } from '../../jobs.ts';
import { createEntry } from '../ledger/ledger.service.ts';

/**
 * The referral and birthday jobs with the app's fake clock: each bonus is paid once, also when two
 * runners tick together and after a "restart" (the runners stopped, new ones started on the same
 * database, the clock moved on so that new runs are queued).
 */
describe('automatic bonuses: referral and birthday, paid once', () => {
  let ctx: TestContext;
  let now = new Date('2027-03-10T09:00:00Z');
  let fx: LedgerFixture;
  const bonuses = {
    referrer: { points: 50, capPerMonth: 1 },
    referee: { points: 20, capPerMonth: 0 },
    share: { points: 0, capPerMonth: 0 },
    review: { points: 0, capPerMonth: 0 },
    checkIn: { points: 0, capPerMonth: 0 },
    birthday: { points: 30, capPerMonth: 0 },
  };

  beforeAll(async () => {
    ctx = await createTestContext({ seed: false, clock: { now: () => now } });
    fx = await createLedgerFixture(ctx.app.db, { customers: 4 });
    await ctx.app.db.execute(sql`update programs set bonuses = ${JSON.stringify(bonuses)}::jsonb where id = ${fx.pointsProgramId}`);
  });
  afterAll(async () => ctx?.close());

  const rows = async <T>(query: ReturnType<typeof sql>) => ((await ctx.app.db.execute(query)) as unknown as { rows: T[] }).rows;
  const deps = () => ({ db: ctx.app.db, clock: ctx.app.clock, timeZone: 'Europe/Rome' });
  const purchase = (customerId: string) =>
    createEntry(deps(), { id: null, label: 'test', audit: { id: null, email: 'test' } }, { customerId, programId: fx.pointsProgramId, kind: 'purchase', amountCents: 1000 }, randomUUID());
  const bonusEntries = (source: 'referral' | 'birthday') =>
    rows<{ customer_id: string; points: number; idempotency_key: string }>(
      sql`select customer_id, points, idempotency_key from ledger_entries where source = ${source} order by id`,
    );
  /** Two runners tick at once, then stop: like two processes, then a restart. */
  async function runTwice() {
    const one = startBackgroundJobs(ctx.app, { isAutomatic: false });
    const two = startBackgroundJobs(ctx.app, { isAutomatic: false });
    await Promise.all([one.tick(), two.tick()]);
    await one.stop();
    await two.stop();
  }

  it('pays referee and referrer on the referee\'s first purchase only, once, within the referrer\'s monthly cap', async () => {
    const [referrer, referee, secondReferee] = fx.customerIds as [string, string, string];
    await ctx.app.db.execute(sql`update customers set referred_by = ${referrer} where id in (${referee}, ${secondReferee})`);

    await runTwice();
    expect(await bonusEntries('referral')).toEqual([]);

    await purchase(referee);
    // The referral run is queued once per ten minutes: the next period's run pays.
    now = new Date('2027-03-10T09:12:00Z');
    await runTwice();
    const paid = await bonusEntries('referral');
    expect(paid.map(({ customer_id, points }) => ({ customer_id, points }))).toEqual([
      { customer_id: referee, points: 20 },
      { customer_id: referrer, points: 50 },
    ]);

    // A second purchase, a restart and a later period: nothing more.
    await purchase(referee);
    now = new Date('2027-03-10T09:25:00Z');
    await runTwice();
    expect(await bonusEntries('referral')).toHaveLength(2);

    // Another referee the same month: the referee's bonus, but the referrer is at the cap (1 a month).
    await purchase(secondReferee);
    now = new Date('2027-03-10T09:45:00Z');
    await runTwice();
    const after = await bonusEntries('referral');
    expect(after.map((entry) => entry.customer_id)).toEqual([referee, referrer, secondReferee]);
    const [balance] = await rows<{ balance: number }>(
      sql`select balance from memberships where customer_id = ${referrer} and program_id = ${fx.pointsProgramId}`,
    );
    expect(balance!.balance).toBe(50);
    const awards = await rows<{ award_key: string }>(sql`select award_key from bonus_awards where kind = 'referral' order by awarded_at`);
    expect(awards.map((award) => award.award_key)).toEqual([`referral:${referee}`, `referral:${secondReferee}`]);
  });

  it('pays the birthday bonus once a year, in the birthday month, to members of the program', async () => {
    const [, , , member] = fx.customerIds as [string, string, string, string];
    await ctx.app.db.execute(sql`update customers set birth_date = '1990-03-25' where id = ${member}`);
    await ctx.app.db.execute(sql`update customers set birth_date = '1985-04-02' where id = ${fx.customerIds[0]!}`);
    await purchase(member);

    await runTwice();
    // Restart the next day: a new daily run, nothing new.
    now = new Date('2027-03-11T09:00:00Z');
    await runTwice();
    let paid = await bonusEntries('birthday');
    expect(paid.map(({ customer_id, points, idempotency_key }) => ({ customer_id, points, idempotency_key }))).toEqual([
      { customer_id: member, points: 30, idempotency_key: `birthday:${member}:${fx.pointsProgramId}:2027` },
    ]);

    // April: the April birthday (a member since the referral test), not the March one again.
    now = new Date('2027-04-05T09:00:00Z');
    await runTwice();
    paid = await bonusEntries('birthday');
    expect(paid.map((entry) => entry.customer_id)).toEqual([member, fx.customerIds[0]]);

    // The next March: paid again, once.
    now = new Date('2028-03-02T09:00:00Z');
    await runTwice();
    await runTwice();
    paid = await bonusEntries('birthday');
    expect(paid.filter((entry) => entry.customer_id === member).map((entry) => entry.idempotency_key)).toEqual([
      `birthday:${member}:${fx.pointsProgramId}:2027`,
      `birthday:${member}:${fx.pointsProgramId}:2028`,
    ]);
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { isValidCardNumber } from '@sf/contract/customers';
import { isValidPartitaIva } from '@sf/contract/italian';
import { createTestContext } from '../../test/helper.ts';
import { DEMO_CUSTOMER_COUNT, seedLoyaltyDemo } from './seed-loyalty.ts';
import { customers, merchants } from './schema.ts';

const ctx = await createTestContext({ seed: false });
afterAll(() => ctx.close());

describe('the demo anagrafiche of npm start', () => {
  it('loads valid merchants, three programs and customers with consents and referrals, once', async () => {
    expect(await seedLoyaltyDemo(ctx.app.db)).toBe(true);
    const merchantRows = await ctx.app.db.select().from(merchants);
    expect(merchantRows).toHaveLength(25);
    expect(merchantRows.every((m) => isValidPartitaIva(m.vatNumber))).toBe(true);
    expect(new Set(merchantRows.map((m) => m.province)).size).toBeGreaterThanOrEqual(8);
    expect(new Set(merchantRows.map((m) => m.category)).size).toBeGreaterThanOrEqual(10);

    const programs = await ctx.app.db.execute(sql`select type, count(*)::int as n from programs group by type order by type`);
    expect(programs.rows).toEqual([
      { type: 'points', n: 1 },
      { type: 'stamps', n: 2 },
    ]);

    const cards = await ctx.app.db.select({ card: customers.cardNumber }).from(customers);
    expect(cards).toHaveLength(DEMO_CUSTOMER_COUNT);
    expect(cards.every((c) => isValidCardNumber(c.card))).toBe(true);
    const stats = await ctx.app.db.execute(sql`select
        count(*) filter (where marketing_consent)::int as marketing,
        count(*) filter (where referred_by is not null)::int as referred,
        (select count(*)::int from customer_consents) as consents
      from customers`);
    const row = stats.rows[0] as { marketing: number; referred: number; consents: number };
    expect(row.marketing).toBeGreaterThan(DEMO_CUSTOMER_COUNT * 0.3);
    expect(row.marketing).toBeLessThan(DEMO_CUSTOMER_COUNT * 0.7);
    expect(row.referred).toBeGreaterThan(100);
    expect(row.consents).toBeGreaterThan(DEMO_CUSTOMER_COUNT);

    expect(await seedLoyaltyDemo(ctx.app.db)).toBe(false);
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestContext } from '../../test/helper.ts';

const ctx = await createTestContext({ seed: false });
afterAll(() => ctx.close());

async function rejects(statement: ReturnType<typeof sql>): Promise<string> {
  try {
    await ctx.app.db.execute(statement);
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause;
    return cause?.message ?? (error as Error).message;
  }
  throw new Error('the statement was accepted');
}

describe('migration 0002 (loyalty core)', () => {
  it('creates the trigram index for the customers search on both databases', async () => {
    const result = await ctx.app.db.execute(sql`select indexname from pg_indexes where tablename = 'customers'`);
    const names = (result.rows as { indexname: string }[]).map((row) => row.indexname);
    expect(names).toEqual(
      expect.arrayContaining([
        'customers_search_trgm_idx',
        'customers_card_number_key',
        'customers_referral_code_key',
        'customers_email_key',
        'customers_last_name_prefix_idx',
      ]),
    );
  });

  it('refuses an unknown status, consent purpose or program type in the database itself', async () => {
    const merchant = sql`insert into merchants (legal_name, vat_number, category, street, city, province, postal_code, status)
      values ('Bar Rossi srl', '01234567897', 'bar', 'Via Roma 1', 'Milano', 'MI', '20121', 'closed')`;
    expect(await rejects(merchant)).toMatch(/merchants_status_check/);
    expect(await rejects(sql`insert into programs (name, type, bonuses) values ('x', 'coins', '{}')`)).toMatch(/programs_type_check/);
    expect(await rejects(sql`insert into programs (name, type, bonuses) values ('x', 'points', '{}')`)).toMatch(
      /programs_points_rate_check/,
    );
  });

  it('keeps the search text of a customer in step with its fields', async () => {
    await ctx.app.db.execute(sql`insert into customers (first_name, last_name, email, card_number, referral_code)
      values ('Maria', 'Rossi', 'maria@example.it', '2790000000010', 'ACDE3467')`);
    const result = await ctx.app.db.execute(sql`select search_text from customers where card_number = '2790000000010'`);
    expect((result.rows[0] as { search_text: string }).search_text).toBe('maria rossi maria@example.it  2790000000010 acde3467');
  });
});

describe('migration 0017 (one key from a ledger entry to its membership)', () => {
  it("refuses an entry whose customer or program is not its membership's, and accepts the membership's own", async () => {
    const made = await ctx.app.db.execute(sql`with
        program as (insert into programs (name, type, points_per_euro, bonuses) values ('Chiave', 'points', 1, '{}') returning id),
        other_program as (insert into programs (name, type, points_per_euro, bonuses) values ('Altra', 'points', 1, '{}') returning id),
        customer as (insert into customers (first_name, last_name, card_number, referral_code)
          values ('Anna', 'Neri', '2790000000028', 'BCDE3467') returning id),
        other_customer as (insert into customers (first_name, last_name, card_number, referral_code)
          values ('Luca', 'Verdi', '2790000000036', 'CDEF3467') returning id),
        membership as (insert into memberships (customer_id, program_id) select customer.id, program.id from customer, program returning id)
      select membership.id as membership, customer.id as customer, program.id as program,
        other_customer.id as other_customer, other_program.id as other_program
      from membership, customer, program, other_customer, other_program`);
    const ids = made.rows[0] as Record<'membership' | 'customer' | 'program' | 'other_customer' | 'other_program', string>;
    const entry = (customer: string, program: string) =>
      sql`insert into ledger_entries (membership_id, customer_id, program_id, kind, source, points, balance_after, stamps_after, created_by_label)
        values (${ids.membership}, ${customer}, ${program}, 'earn', 'manual', 5, 5, 0, 'test')`;
    expect(await rejects(entry(ids.other_customer, ids.program))).toMatch(/ledger_entries_membership_key_fkey/);
    expect(await rejects(entry(ids.customer, ids.other_program))).toMatch(/ledger_entries_membership_key_fkey/);
    await ctx.app.db.execute(entry(ids.customer, ids.program));
    const constraints = await ctx.app.db.execute(sql`select conname from pg_constraint
      where conrelid = 'ledger_entries'::regclass and contype = 'f' order by conname`);
    expect((constraints.rows as { conname: string }[]).map((row) => row.conname)).toEqual([
      'ledger_entries_membership_key_fkey',
      'ledger_entries_merchant_id_fkey',
      'ledger_entries_reverses_id_fkey',
    ]);
  });
});

describe('migration 0018 (room on each memberships page for its rows’ next versions)', () => {
  it('updates a member’s row in place (HOT: no index touched) on pages filled by inserts', async () => {
    // 400 members inserted in a row fill ~7 pages to the table's fillfactor; then one in twenty gets a
    // purchase (balance, last activity, version), as the members of a busy day do. On pages packed full
    // (the default fillfactor) those updates moved their rows to other pages and added an entry to each
    // of the table's four indexes.
    let counted: { updated: number; hot: number } | undefined;
    await ctx.app.db
      .transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`);
        await tx.execute(sql`insert into memberships (customer_id, program_id, balance, last_activity_at)
          select gen_random_uuid(), gen_random_uuid(), 0, now() from generate_series(1, 400)`);
        await tx.execute(sql`update memberships set balance = balance + 12, last_activity_at = now(), version = version + 1
          where id in (select id from (select id, row_number() over (order by ctid) as n from memberships) numbered where n % 20 = 0)`);
        const result = await tx.execute(sql`select pg_stat_get_xact_tuples_updated('memberships'::regclass)::int as updated,
          pg_stat_get_xact_tuples_hot_updated('memberships'::regclass)::int as hot`);
        counted = result.rows[0] as { updated: number; hot: number };
        tx.rollback();
      })
      .catch(() => undefined);
    expect(counted).toEqual({ updated: 20, hot: 20 });
  });
});

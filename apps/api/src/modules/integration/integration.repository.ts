import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { programMerchants, programs } from '../programs/programs.schema.ts';

/** Whether the customer is a member of one of the merchant's programs (a merchant's key reads only those). */
export async function isMemberAtMerchant(executor: Executor, customerId: string, merchantId: string): Promise<boolean> {
  const result = (await executor.execute(
    sql`select 1 as ok from memberships m join program_merchants pm on pm.program_id = m.program_id
        where m.customer_id = ${customerId} and pm.merchant_id = ${merchantId} limit 1`,
  )) as unknown as { rows: unknown[] };
  return result.rows.length > 0;
}

/** The active programs a merchant takes part in. */
export async function activeProgramsOfMerchant(executor: Executor, merchantId: string): Promise<string[]> {
  const rows = await executor
    .select({ id: programs.id })
    .from(programMerchants)
    .innerJoin(programs, eq(programs.id, programMerchants.programId))
    .where(and(eq(programMerchants.merchantId, merchantId), eq(programs.status, 'active')));
  return rows.map((row) => row.id);
}

export async function isMerchantOfProgram(executor: Executor, merchantId: string, programId: string): Promise<boolean> {
  const rows = await executor
    .select({ one: sql`1` })
    .from(programMerchants)
    .where(and(eq(programMerchants.merchantId, merchantId), eq(programMerchants.programId, programId)))
    .limit(1);
  return rows.length > 0;
}

export async function programIdsOfMerchant(executor: Executor, merchantId: string): Promise<Set<string>> {
  const rows = await executor
    .select({ id: programMerchants.programId })
    .from(programMerchants)
    .where(eq(programMerchants.merchantId, merchantId));
  return new Set(rows.map((row) => row.id));
}

/** Active rewards of these programs, open on the business date `today` and in stock, with their cost (program unit). */
export async function openRewardsOf(executor: Executor, programIds: string[], today: string) {
  if (programIds.length === 0) return [];
  const result = (await executor.execute(
    sql`select id, program_id, name, cost from rewards
        where program_id in (${sql.join(programIds.map((id) => sql`${id}`), sql`, `)})
          and status = 'active' and (stock is null or stock > 0)
          and (valid_from is null or valid_from <= ${today}::date) and (valid_until is null or valid_until >= ${today}::date)
        order by cost, name, id`,
  )) as unknown as { rows: { id: string; program_id: string; name: string; cost: number }[] };
  return result.rows.map((row) => ({ id: String(row.id), programId: String(row.program_id), name: row.name, cost: Number(row.cost) }));
}

export async function programOfReward(executor: Executor, rewardId: string): Promise<string | null> {
  const result = (await executor.execute(sql`select program_id from rewards where id = ${rewardId}`)) as unknown as {
    rows: { program_id: string }[];
  };
  return result.rows[0] ? String(result.rows[0].program_id) : null;
}

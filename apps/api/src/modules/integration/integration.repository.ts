import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { customers } from '../customers/customers.schema.ts';
import { programMerchants, programs } from '../programs/programs.schema.ts';

/** The card's holder: the id for the ledger, the initials for the till (nothing else leaves). */
export async function findCardHolder(executor: Executor, cardNumber: string) {
  const [row] = await executor
    .select({ id: customers.id, firstName: customers.firstName, lastName: customers.lastName, status: customers.status })
    .from(customers)
    .where(eq(customers.cardNumber, cardNumber))
    .limit(1);
  return row;
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

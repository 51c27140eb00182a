import { inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { ledgerEntries, memberships } from './ledger.schema.ts';

/**
 * What names a membership or a ledger entry for a person (the audit list): whose it is and in which
 * program, by id; the customer's and the program's names are their own modules'. One query per call.
 */
export async function findMembershipOwners(executor: Executor, ids: string[]): Promise<Map<string, { customerId: string; programId: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await executor
    .select({ id: memberships.id, customerId: memberships.customerId, programId: memberships.programId })
    .from(memberships)
    .where(inArray(memberships.id, ids));
  return new Map(rows.map(({ id, ...owner }) => [id, owner]));
}

export async function findEntryOwners(
  executor: Executor,
  ids: number[],
): Promise<Map<string, { customerId: string; programId: string; points: number; stamps: number }>> {
  if (ids.length === 0) return new Map();
  const rows = await executor
    .select({ id: ledgerEntries.id, customerId: ledgerEntries.customerId, programId: ledgerEntries.programId, points: ledgerEntries.points, stamps: ledgerEntries.stamps })
    .from(ledgerEntries)
    .where(inArray(ledgerEntries.id, ids));
  return new Map(rows.map(({ id, ...owner }) => [String(id), owner]));
}

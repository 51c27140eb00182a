import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rows } from './ledger.repository.ts';

/**
 * The ledger's upkeep (split out of ledger.repository.ts, issue 26; moved unchanged): the lots the
 * daily expiry takes, the erasure's blanking of free texts, and a program's re-tiering.
 */
export async function dueLots(executor: Executor, today: string, limit: number): Promise<{ id: number; membershipId: string }[]> {
  const result = await rows(
    executor,
    sql`select id, membership_id from ledger_lots
        where remaining > 0 and expires_on is not null and expires_on < ${today}::date
        order by expires_on, id limit ${limit}`,
  );
  return result.map((row) => ({ id: Number(row['id']), membershipId: String(row['membership_id']) }));
}

export async function lockLot(executor: Executor, lotId: number) {
  const [row] = await rows(
    executor,
    sql`select l.id, l.remaining, l.membership_id, m.customer_id, m.program_id from ledger_lots l
        join memberships m on m.id = l.membership_id where l.id = ${lotId} for update of l`,
  );
  if (!row) return null;
  return {
    id: Number(row['id']),
    remaining: Number(row['remaining']),
    membershipId: String(row['membership_id']),
    customerId: String(row['customer_id']),
    programId: String(row['program_id']),
  };
}

/** The tier changes of these memberships (audited by the ledger when they happen), newest first, 10 each. */
export async function tierChanges(executor: Executor, membershipIds: string[]) {
  if (membershipIds.length === 0) return [];
  const result = await rows(
    executor,
    sql`select entity_id, before ->> 'tier' as from_tier, after ->> 'tier' as to_tier, at from (
          select entity_id, before, after, at, row_number() over (partition by entity_id order by at desc, id desc) as n
          from audit_log
          where entity_type = 'membership' and action = 'membership.tier'
            and entity_id in (${sql.join(membershipIds.map((id) => sql`${id}`), sql`, `)})
        ) changes where n <= 10 order by at desc`,
  );
  return result.map((row) => ({
    membershipId: String(row['entity_id']),
    from: (row['from_tier'] as string | null) ?? null,
    to: (row['to_tier'] as string | null) ?? null,
    at: new Date(row['at'] as string | Date).toISOString(),
  }));
}

/**
 * An erasure (issue 30, M2): the free-text reasons of the customer's entries (a till's receipt, a
 * staff member's note on an adjustment, a bonus or a reversal) become NULL — the figures, and the
 * reasons we write ourselves (a reward's name, "share #12", the birthday bonus), stay. The ledger's
 * trigger allows exactly this update, in a transaction marked as an erasure (migration 0019).
 * Answers the entries changed, with their idempotency keys.
 */
export async function blankFreeTextReasons(executor: Executor, customerId: string): Promise<{ id: number; idempotencyKey: string | null }[]> {
  await executor.execute(sql`select set_config('sf.erasure', 'on', true)`);
  const changed = await rows(
    executor,
    sql`update ledger_entries set reason = null
        where customer_id = ${customerId} and reason is not null
          and (source in ('purchase', 'manual', 'bonus') or kind = 'reversal')
        returning id, idempotency_key`,
  );
  await executor.execute(sql`select set_config('sf.erasure', 'off', true)`);
  return changed.map((row) => ({ id: Number(row['id']), idempotencyKey: (row['idempotency_key'] as string | null) ?? null }));
}

/**
 * The stored answers (idempotency records) of those entries lose the reason too. A record is found
 * by its primary key: (`admin-ledger`, the entry's key) for ledger writes, or the entry's key split
 * at one of its colons (`<scope>:<key>`, redemptions); only a record whose answer is this entry of
 * this customer is changed.
 */
export async function blankStoredReasons(executor: Executor, customerId: string, entries: { id: number; idempotencyKey: string | null }[]): Promise<number> {
  const pairs: { scope: string; key: string }[] = [];
  for (const { idempotencyKey } of entries) {
    if (!idempotencyKey) continue;
    pairs.push({ scope: 'admin-ledger', key: idempotencyKey });
    for (let at = idempotencyKey.indexOf(':'); at > 0; at = idempotencyKey.indexOf(':', at + 1)) {
      pairs.push({ scope: idempotencyKey.slice(0, at), key: idempotencyKey.slice(at + 1) });
    }
  }
  if (pairs.length === 0) return 0;
  const ids = entries.map((entry) => entry.id);
  const changed = await rows(
    executor,
    // Two shapes: a batched write stores the written row (`ledgerWrite.entry`, snake_case), the
    // others the answer (`entry`, camelCase).
    sql`update idempotency_records r set response_body = case
            when r.response_body ? 'ledgerWrite' then jsonb_set(r.response_body, '{ledgerWrite,entry,reason}', 'null'::jsonb)
            else jsonb_set(r.response_body, '{entry,reason}', 'null'::jsonb) end
        from jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) as p(scope text, key text)
        where r.scope = p.scope and r.key = p.key
          and coalesce(r.response_body #>> '{ledgerWrite,entry,customer_id}', r.response_body #>> '{entry,customerId}') = ${customerId}
          and coalesce(r.response_body #>> '{ledgerWrite,entry,id}', r.response_body #>> '{entry,id}')::bigint
            in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::bigint)
        returning r.key`,
  );
  return changed.length;
}

/**
 * Sets every member of the program that has moved to the tier its rules give (migration 0023's
 * `ledger_expected_tiers`: the rule the writes apply, at each member's latest movement), with a
 * `membership.tier` audit record per change, as a write that changes a tier leaves. Answers how many.
 */
export async function retierProgram(
  executor: Executor,
  timeZone: string,
  programId: string,
  audit: { actorId: string | null; actorEmail: string | null; requestId: string | null; ip: string | null },
): Promise<number> {
  const [row] = await rows(
    executor,
    sql`with diff as (
          select m.id, m.tier as from_tier, x.tier as to_tier
          from memberships m join ledger_expected_tiers(${timeZone}, ${programId}::uuid) x on x.membership_id = m.id
          where m.tier is distinct from x.tier
          for update of m),
        changed as (
          update memberships m set tier = diff.to_tier, version = m.version + 1 from diff where m.id = diff.id returning m.id),
        audited as (
          insert into audit_log (actor_id, actor_email, action, entity_type, entity_id, before, after, request_id, ip)
          select ${audit.actorId}, ${audit.actorEmail}, 'membership.tier', 'membership', diff.id::text,
            jsonb_build_object('tier', diff.from_tier), jsonb_build_object('tier', diff.to_tier, 'programRules', true),
            ${audit.requestId}, ${audit.ip}
          from diff)
        select count(*)::int as n from changed`,
  );
  return Number(row?.['n'] ?? 0);
}

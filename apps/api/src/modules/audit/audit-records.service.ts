import type { AuditEntry, AuditRecord, ListAuditQuery } from '@sf/contract/audit';
import type { Executor } from '../../db/client.ts';
import type { ServiceDeps } from '../../lib/caller.ts';
import { CAMPAIGN_ENTITY, campaignNames } from '../campaigns/campaigns.service.ts';
import { CUSTOMER_ENTITY, customerNames } from '../customers/customers.service.ts';
import { apiKeyNames } from '../integration/api-keys.service.ts';
import { MERCHANT_ENTITY, merchantNames } from '../merchants/merchants.service.ts';
import { NEWS_ENTITY, postTitles } from '../news/news.service.ts';
import { PROGRAM_ENTITY, programNames } from '../programs/programs.service.ts';
import { REWARD_ENTITY, rewardNames } from '../rewards/rewards.service.ts';
import { staffNames } from '../staff/staff-admin.service.ts';
import { latestChanges, listAudit } from './audit.service.ts';

/**
 * The audit list's entries with the record each is about named (the operator reads "Bar Centrale", not
 * a UUID). Each kind's names come from the module that owns it, one query per kind on the page, never
 * one per entry. Apart from audit.service.ts: the news service reads a post's history from there, and
 * this file reads the news service.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SERIAL = /^\d{1,9}$/;

type Namer = {
  /** The ids the kind's table can hold: an id of another shape (an old or hand-written entry) would make the query fail. */
  idPattern: RegExp;
  /** Names by id; a null name is an erased person's. */
  names: (executor: Executor, ids: string[]) => Promise<Map<string, string | null>>;
};

const NAMERS: Record<string, Namer> = {
  [CUSTOMER_ENTITY]: { idPattern: UUID, names: customerNames },
  [MERCHANT_ENTITY]: { idPattern: UUID, names: merchantNames },
  [PROGRAM_ENTITY]: { idPattern: UUID, names: programNames },
  [REWARD_ENTITY]: { idPattern: UUID, names: rewardNames },
  [NEWS_ENTITY]: { idPattern: SERIAL, names: postTitles },
  [CAMPAIGN_ENTITY]: { idPattern: UUID, names: campaignNames },
  user: { idPattern: UUID, names: staffNames },
  api_key: { idPattern: UUID, names: apiKeyNames },
};

/** Each entry with its `record`: named while it exists, erased for an erased customer, null otherwise. */
export async function withRecords<Entry extends Pick<AuditEntry, 'entityType' | 'entityId'>>(executor: Executor, entries: Entry[]): Promise<(Entry & { record: AuditRecord | null })[]> {
  const wanted = new Map<string, Set<string>>();
  for (const entry of entries) {
    const namer = Object.hasOwn(NAMERS, entry.entityType) ? NAMERS[entry.entityType] : undefined;
    if (!namer || entry.entityId === null || !namer.idPattern.test(entry.entityId)) continue;
    const ids = wanted.get(entry.entityType) ?? new Set();
    wanted.set(entry.entityType, ids.add(entry.entityId));
  }
  const found = new Map(
    await Promise.all([...wanted].map(async ([type, ids]) => [type, await NAMERS[type]!.names(executor, [...ids])] as const)),
  );
  return entries.map((entry) => {
    const names = found.get(entry.entityType);
    const record: AuditRecord | null =
      entry.entityId !== null && names?.has(entry.entityId)
        ? { name: names.get(entry.entityId) ?? null, isErased: names.get(entry.entityId) === null }
        : null;
    return { ...entry, record };
  });
}

/**
 * The dashboard's Ultime modifiche, each change's record named: "Generati i codici per" a reward read
 * as a bare link on the word "premio".
 */
export async function latestChangesWithRecords(deps: Pick<ServiceDeps, 'db'>, input: { limit: number }) {
  return withRecords(deps.db, await latestChanges(deps, input));
}

/** The audit list's page (`GET /api/admin/audit`), its entries' records named. */
export async function listAuditWithRecords(deps: Pick<ServiceDeps, 'db'>, query: ListAuditQuery) {
  const page = await listAudit(deps, query);
  return { ...page, items: await withRecords(deps.db, page.items) };
}

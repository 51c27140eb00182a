import { auditIdKind, type AuditEntry, type AuditRecord, type AuditRecordParts, type ListAuditQuery } from '@sf/contract/audit';
import type { Executor } from '../../db/client.ts';
import type { ServiceDeps } from '../../lib/caller.ts';
import { UPLOAD_ID, uploadNames } from '../../lib/uploads.ts';
import { CAMPAIGN_ENTITY, campaignNames } from '../campaigns/campaigns.service.ts';
import { CUSTOMER_ENTITY, customerNames } from '../customers/customers.service.ts';
import { IMPORT_ENTITY, importFiles } from '../imports/imports.service.ts';
import { apiKeyNames } from '../integration/api-keys.service.ts';
import { entryOwners, membershipOwners } from '../ledger/ledger.service.ts';
import { MERCHANT_ENTITY, merchantNames } from '../merchants/merchants.service.ts';
import { NEWS_ENTITY, postTitles } from '../news/news.service.ts';
import { PRIVACY_ENTITY, requestOwners } from '../privacy/privacy.service.ts';
import { PROGRAM_ENTITY, programNames } from '../programs/programs.service.ts';
import { REWARD_ENTITY, rewardNames, VOUCHER_ENTITY } from '../rewards/rewards.service.ts';
import { voucherCodes } from '../rewards/vouchers.service.ts';
import { PROOF_ENTITY, proofOwners } from '../social-proofs/social-proofs.service.ts';
import { invitationNames } from '../staff/invitations.service.ts';
import { staffNames } from '../staff/staff-admin.service.ts';
import { latestChanges, listAudit } from './audit.service.ts';

/**
 * The audit list's entries with the record each is about named (the operator reads "Bar Centrale", not
 * a UUID), and the records their before/after point at (a `customerId`: "Mario Rossi"). Each kind's
 * names come from the module that owns it, one query per kind on the page, never one per entry. Apart
 * from audit.service.ts: the news service reads a post's history from there, and this file reads the
 * news service.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A serial id (a news post's) within an integer's range; a big serial's (a ledger entry's, a voucher's, a proof's). */
const SERIAL = /^\d{1,9}$/;
const BIG_SERIAL = /^\d{1,15}$/;

/** The ids the kind's table can hold: an id of another shape (an old or hand-written entry) would make the query fail. */
type IdPattern = RegExp;

/** A kind with a name of its own: names by id; a null name is an erased person's. */
type NameNamer = { idPattern: IdPattern; names: (executor: Executor, ids: string[]) => Promise<Map<string, string | null>> };

/**
 * A kind named by other records (a membership by its customer and its program): by id, the ids of those
 * (named in a second round, with the page's other ids of their kinds) and its own parts.
 */
type Owner = { customerId?: string; programId?: string; rewardId?: string; name?: string; parts?: AuditRecordParts };
type OwnerNamer = { idPattern: IdPattern; owners: (executor: Executor, ids: string[]) => Promise<Map<string, Owner>> };

const serials = (ids: string[]) => ids.map(Number);

const NAMED: Record<string, NameNamer> = {
  [CUSTOMER_ENTITY]: { idPattern: UUID, names: customerNames },
  [MERCHANT_ENTITY]: { idPattern: UUID, names: merchantNames },
  [PROGRAM_ENTITY]: { idPattern: UUID, names: programNames },
  [REWARD_ENTITY]: { idPattern: UUID, names: rewardNames },
  [NEWS_ENTITY]: { idPattern: SERIAL, names: postTitles },
  [CAMPAIGN_ENTITY]: { idPattern: UUID, names: campaignNames },
  user: { idPattern: UUID, names: staffNames },
  api_key: { idPattern: UUID, names: apiKeyNames },
  staff_invitation: { idPattern: UUID, names: invitationNames },
  // A program's service e-mails are recorded under the program's id.
  service_email: { idPattern: UUID, names: programNames },
  upload: { idPattern: UPLOAD_ID, names: uploadNames },
};

const OWNED: Record<string, OwnerNamer> = {
  membership: { idPattern: UUID, owners: membershipOwners },
  ledger_entry: {
    idPattern: BIG_SERIAL,
    owners: async (executor, ids) =>
      new Map([...(await entryOwners(executor, serials(ids)))].map(([id, { points, stamps, ...owner }]) => [id, { ...owner, parts: { points, stamps } }])),
  },
  [VOUCHER_ENTITY]: {
    idPattern: BIG_SERIAL,
    owners: async (executor, ids) => new Map([...(await voucherCodes(executor, serials(ids)))].map(([id, { code, rewardId }]) => [id, { rewardId, parts: { code } }])),
  },
  [PROOF_ENTITY]: {
    idPattern: BIG_SERIAL,
    owners: async (executor, ids) => new Map([...(await proofOwners(executor, serials(ids)))].map(([id, { kind, customerId }]) => [id, { customerId, parts: { kind } }])),
  },
  [PRIVACY_ENTITY]: {
    idPattern: UUID,
    owners: async (executor, ids) => new Map([...(await requestOwners(executor, ids))].map(([id, { kind, customerId }]) => [id, { customerId, parts: { kind } }])),
  },
  [IMPORT_ENTITY]: {
    idPattern: UUID,
    owners: async (executor, ids) => new Map([...(await importFiles(executor, ids))].map(([id, { fileName, kind }]) => [id, { name: fileName, parts: { kind } }])),
  },
};

/** The ids a page asks about, by kind. */
class Wanted {
  readonly byKind = new Map<string, Set<string>>();
  add(kind: string, id: string | number | null | undefined): void {
    const namer = Object.hasOwn(NAMED, kind) ? NAMED[kind] : Object.hasOwn(OWNED, kind) ? OWNED[kind] : undefined;
    if (!namer || id === null || id === undefined) return;
    const text = String(id);
    if (!namer.idPattern.test(text)) return;
    this.byKind.set(kind, (this.byKind.get(kind) ?? new Set()).add(text));
  }
  of(kind: string): string[] {
    return [...(this.byKind.get(kind) ?? [])];
  }
}

/** Every id a before/after holds in a field of `AUDIT_ID_FIELDS`, at any depth (a campaign's audience). */
function collectIds(value: unknown, found: (kind: string, id: string | number) => void, field?: string): void {
  if (value === null || typeof value !== 'object') {
    const kind = field === undefined ? undefined : auditIdKind(field);
    if (kind && (typeof value === 'string' || typeof value === 'number')) found(kind, value);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) collectIds(item, found, field);
    return;
  }
  for (const [key, inner] of Object.entries(value)) collectIds(inner, found, key);
}

type Names = Map<string, Map<string, AuditRecord>>;

/**
 * Names the ids wanted: first the kinds named by others (their owners' ids join the wanted ones), then
 * every kind with a name of its own, once each; then the owned kinds from their owners' names.
 */
async function nameAll(executor: Executor, wanted: Wanted): Promise<Names> {
  const owned = new Map(
    await Promise.all(
      Object.entries(OWNED)
        .filter(([kind]) => wanted.of(kind).length > 0)
        .map(async ([kind, namer]) => [kind, await namer.owners(executor, wanted.of(kind))] as const),
    ),
  );
  for (const owners of owned.values()) {
    for (const owner of owners.values()) {
      wanted.add(CUSTOMER_ENTITY, owner.customerId);
      wanted.add(PROGRAM_ENTITY, owner.programId);
      wanted.add(REWARD_ENTITY, owner.rewardId);
    }
  }
  const plain = new Map(
    await Promise.all(
      Object.entries(NAMED)
        .filter(([kind]) => wanted.of(kind).length > 0)
        .map(async ([kind, namer]) => [kind, await namer.names(executor, wanted.of(kind))] as const),
    ),
  );
  const names: Names = new Map();
  for (const [kind, found] of plain) {
    names.set(kind, new Map([...found].map(([id, name]) => [id, { name, isErased: name === null }])));
  }
  for (const [kind, owners] of owned) {
    const records = new Map<string, AuditRecord>();
    for (const [id, owner] of owners) {
      const program = owner.programId === undefined ? undefined : plain.get(PROGRAM_ENTITY)?.get(owner.programId);
      const parts: AuditRecordParts = { ...owner.parts, ...(program ? { program } : {}) };
      const person = owner.customerId === undefined ? undefined : plain.get(CUSTOMER_ENTITY);
      // A customer gone (not erased: erasure keeps the row) leaves the record unnamed rather than half-named.
      if (person && owner.customerId !== undefined && !person.has(owner.customerId)) continue;
      const name =
        owner.customerId !== undefined
          ? (person?.get(owner.customerId) ?? null)
          : owner.rewardId !== undefined
            ? (plain.get(REWARD_ENTITY)?.get(owner.rewardId) ?? null)
            : (owner.name ?? null);
      const isErased = owner.customerId !== undefined && name === null;
      records.set(id, { name, isErased, parts });
    }
    names.set(kind, records);
  }
  return names;
}

type WithRecords<Entry> = Entry & { record: AuditRecord | null; references: Record<string, Record<string, AuditRecord>> };

/**
 * Each entry with its `record` (named while it exists, erased for an erased customer, null otherwise)
 * and its `references`: the records its before/after point at, named, by kind and id.
 */
export async function withRecords<Entry extends Pick<AuditEntry, 'entityType' | 'entityId'> & Partial<Pick<AuditEntry, 'before' | 'after'>>>(
  executor: Executor,
  entries: Entry[],
): Promise<WithRecords<Entry>[]> {
  const wanted = new Wanted();
  const pointedAt = entries.map((entry) => {
    const ids: { kind: string; id: string }[] = [];
    const found = (kind: string, id: string | number) => {
      ids.push({ kind, id: String(id) });
      wanted.add(kind, id);
    };
    collectIds(entry.before ?? null, found);
    collectIds(entry.after ?? null, found);
    wanted.add(entry.entityType, entry.entityId);
    return ids;
  });
  const names = await nameAll(executor, wanted);
  return entries.map((entry, index) => {
    const references: Record<string, Record<string, AuditRecord>> = {};
    for (const { kind, id } of pointedAt[index] ?? []) {
      const named = names.get(kind)?.get(id);
      if (named) (references[kind] ??= {})[id] = named;
    }
    const record = entry.entityId === null ? null : (names.get(entry.entityType)?.get(entry.entityId) ?? null);
    return { ...entry, record, references };
  });
}

/**
 * The dashboard's Ultime modifiche, each change's record named: "Generati i codici per" a reward read
 * as a bare link on the word "premio". No before/after there, so nothing they point at.
 */
export async function latestChangesWithRecords(deps: Pick<ServiceDeps, 'db'>, input: { limit: number }) {
  return (await withRecords(deps.db, await latestChanges(deps, input))).map(({ references: _none, ...entry }) => entry);
}

/** The audit list's page (`GET /api/admin/audit`), its entries' records named, and the records they point at. */
export async function listAuditWithRecords(deps: Pick<ServiceDeps, 'db'>, query: ListAuditQuery) {
  const page = await listAudit(deps, query);
  return { ...page, items: await withRecords(deps.db, page.items) };
}

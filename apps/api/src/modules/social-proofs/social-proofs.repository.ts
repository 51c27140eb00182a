import { and, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { ERASURE_DECIDER, ERASURE_DECIDER_WORDS, type ListSocialProofsQuery, type SocialProof } from '@sf/contract/social-proofs';
import type { Executor } from '../../db/client.ts';
import { allOf, everyWord, findPage, orderFor, type ListDefinition } from '../../db/list.ts';
import { csvCell, csvSelection, type CsvColumns } from '../../db/csv-export.ts';
import type { Language } from '@sf/contract/app-info';
import { VALUE_LABELS } from '@sf/contract/value-labels';
import { customers, merchants, programs } from '../../db/schema.ts';
import { socialProofs } from './social-proofs.schema.ts';
import { staffNameOf } from '../staff/staff-admin.service.ts';

export type ProofRow = typeof socialProofs.$inferSelect;
export type NewProof = Omit<typeof socialProofs.$inferInsert, 'id'>;

const uploadUrl = (id: string) => `/api/public/uploads/${encodeURIComponent(id)}`;

// An erased customer's name is empty (not " "): the screen names them "Cliente cancellato" by `customerStatus`.
const selection = {
  proof: socialProofs,
  customerName: sql<string>`trim(${customers.firstName} || ' ' || ${customers.lastName})`,
  customerStatus: customers.status,
  cardNumber: customers.cardNumber,
  programName: programs.name,
  merchantName: sql<string | null>`coalesce(${merchants.signName}, ${merchants.legalName})`,
};

export type Selected = { proof: ProofRow; customerName: string; customerStatus: SocialProof['customerStatus']; cardNumber: string; programName: string; merchantName: string | null };

/** `names`: staff names by id (the staff module's staffNames), for `decidedByName`. */
export function toProof(row: Selected, names: ReadonlyMap<string, string>): SocialProof {
  const p = row.proof;
  return {
    id: p.id,
    customerId: p.customerId,
    customerName: row.customerName,
    customerStatus: row.customerStatus,
    cardNumber: row.cardNumber,
    programId: p.programId,
    programName: row.programName,
    merchantId: p.merchantId,
    merchantName: row.merchantName,
    kind: p.kind,
    url: p.url,
    imageId: p.imageId,
    imageUrl: p.imageId ? uploadUrl(p.imageId) : null,
    note: p.note,
    channel: p.channel,
    submittedBy: p.submittedByLabel,
    status: p.status,
    reason: p.reason,
    points: p.points,
    entryId: p.entryId,
    decidedBy: p.decidedByLabel,
    // An erasure's closure names no one: its decidedBy (the staff member who ran the erasure) is in the audit.
    decidedByName: p.decidedByLabel === ERASURE_DECIDER ? null : ((p.decidedBy ? names.get(p.decidedBy) : undefined) ?? p.decidedByLabel),
    decidedAt: p.decidedAt ? p.decidedAt.toISOString() : null,
    createdAt: p.createdAt.toISOString(),
  };
}

function joined(executor: Executor, fields: Record<string, unknown>) {
  return executor
    .select(fields as never)
    .from(socialProofs)
    .innerJoin(customers, eq(customers.id, socialProofs.customerId))
    .innerJoin(programs, eq(programs.id, socialProofs.programId))
    .leftJoin(merchants, eq(merchants.id, socialProofs.merchantId))
    .$dynamic();
}

/** `queue`: pending first (oldest first), then the decided ones (newest decision first). */
export const proofList: ListDefinition<ListSocialProofsQuery['sort']> = {
  sorts: {
    queue: [sql`(${socialProofs.status} <> 'pending')`, socialProofs.createdAt],
    createdAt: socialProofs.createdAt,
    status: socialProofs.status,
    kind: socialProofs.kind,
    decidedAt: { expression: socialProofs.decidedAt, nullsLast: true },
  },
  tieBreaker: socialProofs.id,
};

export type ProofFilter = Omit<ListSocialProofsQuery, 'page' | 'pageSize' | 'sort' | 'order'>;

/** `from`/`to` are business days (inclusive), as instants from the caller. */
export function proofConditions(filter: ProofFilter, period: { from?: Date | undefined; toExclusive?: Date | undefined }): SQL | undefined {
  return allOf(
    // Each word in name, card or link, in any order: staff type a name as the customers list shows it.
    filter.q
      ? everyWord(
          filter.q,
          (like) => sql`(${customers.firstName} || ' ' || ${customers.lastName} ilike ${like} or ${customers.cardNumber} ilike ${like} or ${socialProofs.url} ilike ${like})`,
        )
      : undefined,
    filter.status !== undefined && eq(socialProofs.status, filter.status),
    filter.kind !== undefined && eq(socialProofs.kind, filter.kind),
    filter.programId !== undefined && eq(socialProofs.programId, filter.programId),
    filter.merchantId !== undefined && eq(socialProofs.merchantId, filter.merchantId),
    filter.customerId !== undefined && eq(socialProofs.customerId, filter.customerId),
    period.from !== undefined && gte(socialProofs.createdAt, period.from),
    period.toExclusive !== undefined && lt(socialProofs.createdAt, period.toExclusive),
  );
}

export function findProofs(executor: Executor, query: ListSocialProofsQuery, where: SQL | undefined) {
  const { page, pageSize, sort, order } = query;
  return findPage(
    executor,
    proofList,
    (total) => joined(executor, { ...selection, _total: total }),
    where,
    { page, pageSize, sort, order },
  );
}

export async function findProof(executor: Executor, id: number): Promise<Selected | null> {
  const [row] = (await joined(executor, selection).where(eq(socialProofs.id, id))) as unknown as Selected[];
  return row ?? null;
}

export async function lockProof(executor: Executor, id: number): Promise<ProofRow | undefined> {
  const [row] = await executor.select().from(socialProofs).where(eq(socialProofs.id, id)).for('update');
  return row;
}

/** Inserts a proof; with an idempotency key already used in its scope, answers null. */
export async function insertProof(executor: Executor, values: NewProof): Promise<ProofRow | null> {
  const [row] = await executor
    .insert(socialProofs)
    .values(values)
    .onConflictDoNothing({ target: [socialProofs.idempotencyScope, socialProofs.idempotencyKey] })
    .returning();
  return row ?? null;
}

export async function findByIdempotency(executor: Executor, scope: string, key: string): Promise<ProofRow | undefined> {
  const [row] = await executor
    .select()
    .from(socialProofs)
    .where(and(eq(socialProofs.idempotencyScope, scope), eq(socialProofs.idempotencyKey, key)));
  return row;
}

export async function updateProof(executor: Executor, id: number, values: Partial<NewProof>): Promise<void> {
  await executor.update(socialProofs).set(values).where(eq(socialProofs.id, id));
}

/** Approvals of this kind that gave points to the member since `since` (the month's start). */
export async function paidApprovalsSince(
  executor: Executor,
  input: { customerId: string; programId: string; kind: ProofRow['kind']; since: Date },
): Promise<number> {
  const result = (await executor.execute(
    sql`select count(*)::int as n from social_proofs
        where customer_id = ${input.customerId} and program_id = ${input.programId} and kind = ${input.kind}
          and status = 'approved' and points > 0 and decided_at >= ${input.since}`,
  )) as unknown as { rows: { n: number }[] };
  return Number(result.rows[0]?.n ?? 0);
}

export function proofExportColumns(language: Language, timeZone: string): CsvColumns {
  return {
    id: { header: { it: 'ID', en: 'ID' }, value: csvCell.integer(socialProofs.id) },
    createdAt: { header: { it: 'Inviata il', en: 'Sent at' }, value: csvCell.dateTime(socialProofs.createdAt, timeZone) },
    status: { header: { it: 'Stato', en: 'Status' }, value: csvCell.label(socialProofs.status, VALUE_LABELS.proofStatus, language) },
    kind: { header: { it: 'Azione', en: 'Action' }, value: csvCell.label(socialProofs.kind, VALUE_LABELS.proofKind, language) },
    customer: {
      header: { it: 'Cliente', en: 'Customer' },
      // Not a blank cell for an erased customer: the word the screen shows.
      value: csvCell.text(csvCell.customerName(customers.status, csvCell.fullName(customers.firstName, customers.lastName), language)),
    },
    card: { header: { it: 'Tessera', en: 'Card' }, value: csvCell.text(customers.cardNumber) },
    program: { header: { it: 'Programma', en: 'Program' }, value: csvCell.text(programs.name) },
    merchant: { header: { it: 'Esercente', en: 'Merchant' }, value: csvCell.text(sql`coalesce(${merchants.signName}, ${merchants.legalName})`) },
    url: { header: { it: 'Link', en: 'Link' }, value: csvCell.text(socialProofs.url) },
    points: { header: { it: 'Punti', en: 'Points' }, value: csvCell.integer(socialProofs.points) },
    reason: { header: { it: 'Motivo', en: 'Reason' }, value: csvCell.text(socialProofs.reason) },
    // As the screen names them: the staff member by name, an erasure's closure in words.
    decidedBy: {
      header: { it: 'Deciso da', en: 'Decided by' },
      value: csvCell.text(
        sql`case when ${socialProofs.decidedByLabel} = ${ERASURE_DECIDER} then ${ERASURE_DECIDER_WORDS[language]}
          else coalesce(${staffNameOf(socialProofs.decidedBy)}, ${socialProofs.decidedByLabel}) end`,
      ),
    },
    decidedAt: { header: { it: 'Deciso il', en: 'Decided at' }, value: csvCell.dateTime(socialProofs.decidedAt, timeZone) },
  };
}

export function proofExportQuery(
  executor: Executor,
  columns: CsvColumns,
  where: SQL | undefined,
  sort: Pick<ListSocialProofsQuery, 'sort' | 'order'>,
) {
  return joined(executor, csvSelection(columns))
    .where(where)
    .orderBy(...orderFor(proofList.sorts, sort.sort, sort.order, proofList.tieBreaker));
}

type Rows = { rows: Record<string, unknown>[] };
const rowsOf = async (executor: Executor, query: SQL) => ((await executor.execute(query)) as unknown as Rows).rows;

/** An upload's owner and purpose, locked for the proof's transaction (two proofs cannot both take it). */
export async function lockProofImage(executor: Executor, imageId: string) {
  const [row] = await rowsOf(executor, sql`select purpose, uploaded_by, api_key_id from uploads where id = ${imageId} for update`);
  if (!row) return null;
  return {
    purpose: (row['purpose'] as string | null) ?? null,
    uploadedBy: (row['uploaded_by'] as string | null) ?? null,
    apiKeyId: (row['api_key_id'] as string | null) ?? null,
  };
}

/** Whether another proof already shows this screenshot (the same request's replay does not count). */
export async function isImageTakenByAnotherProof(executor: Executor, imageId: string, idempotency: { scope: string; key: string } | undefined) {
  const same = idempotency
    ? sql` and not (idempotency_scope is not distinct from ${idempotency.scope} and idempotency_key is not distinct from ${idempotency.key})`
    : sql``;
  const found = await rowsOf(executor, sql`select 1 as ok from social_proofs where image_id = ${imageId}${same} limit 1`);
  return found.length > 0;
}

/** Deletes proof screenshots created before `cutoff` that no proof shows; answers them for their files. */
export async function deleteUnusedProofImages(executor: Executor, cutoff: Date): Promise<{ id: string; contentType: string }[]> {
  const deleted = await rowsOf(
    executor,
    sql`delete from uploads u
        where u.purpose = 'proof' and u.created_at < ${cutoff}
          and not exists (select 1 from social_proofs p where p.image_id = u.id)
        returning u.id, u.content_type`,
  );
  return deleted.map((row) => ({ id: String(row['id']), contentType: String(row['content_type']) }));
}

/** The proof's customer (unlocked: a proof never changes customer), to lock the customer before the proof. */
export async function proofCustomerId(executor: Executor, id: number): Promise<string | null> {
  const [row] = await rowsOf(executor, sql`select customer_id from social_proofs where id = ${id}`);
  return row ? String(row['customer_id']) : null;
}

/**
 * The customer's status under a KEY SHARE lock: an erasure (which locks the customer FOR UPDATE) and a
 * decision or a new proof of theirs then run one after the other, never interleaved, so a proof filed
 * or approved while the erasure runs cannot be left open or paid once it has committed.
 */
export async function lockedCustomerStatus(executor: Executor, customerId: string): Promise<string | null> {
  const [row] = await rowsOf(executor, sql`select status from customers where id = ${customerId} for key share`);
  return row ? String(row['status']) : null;
}

/** An erased customer's pending proofs, closed as rejected by the erasure; answers their ids. */
export async function closePendingProofsOf(
  executor: Executor,
  customerId: string,
  values: { at: Date; decidedBy: string | null; decidedByLabel: string; reason: string },
): Promise<number[]> {
  const closed = await rowsOf(
    executor,
    sql`update social_proofs set status = 'rejected', reason = ${values.reason}, decided_at = ${values.at},
          decided_by = ${values.decidedBy}, decided_by_label = ${values.decidedByLabel}
        where customer_id = ${customerId} and status = 'pending' returning id`,
  );
  return closed.map((row) => Number(row['id']));
}

/** For the audit list: whose proof of which kind, by id (as text, the audit's). */
export async function findProofOwners(executor: Executor, ids: number[]): Promise<Map<string, { customerId: string; kind: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await executor.select({ id: socialProofs.id, customerId: socialProofs.customerId, kind: socialProofs.kind }).from(socialProofs).where(inArray(socialProofs.id, ids));
  return new Map(rows.map(({ id, ...proof }) => [String(id), proof]));
}

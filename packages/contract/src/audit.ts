import { z } from 'zod';
import { pagingQuerySchema } from './common.ts';
import { listPageSchema } from './list-query.ts';

/**
 * The actor's e-mail of what the platform does by itself (the scheduler, the nightly checks, the demo's
 * seed): stored as it is, so that the audit's "Utente" filter finds it with "system"; shown in words.
 */
export const SYSTEM_ACTOR_EMAIL = 'system';

/** Who an audit entry names: the account's e-mail, or `systemWord` for the system (and for nobody signed in). */
export function actorLabel(actorEmail: string | null, systemWord: string): string {
  return actorEmail === null || actorEmail === SYSTEM_ACTOR_EMAIL ? systemWord : actorEmail;
}

export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: z.iso.datetime({ offset: true }),
  actorId: z.string().nullable(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  entityType: z.string(),
  entityId: z.string().nullable(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  requestId: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const listAuditQuerySchema = pagingQuerySchema.extend({
  actor: z.string().trim().max(320).optional(),
  entity: z.string().trim().max(50).optional(),
  /** An action (`read` = reads of personal data), or a prefix ending with a dot (`ledger.`). */
  action: z.string().trim().max(80).optional(),
  entityId: z.string().trim().max(100).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});
export type ListAuditQuery = z.infer<typeof listAuditQuerySchema>;
/**
 * What names a record that has no name of its own, beside `name` (a membership is its customer's in a
 * program; a ledger entry, its customer's points in a program). Data, not words: the reader's screen
 * words them in its language (a kind by the word its own screen uses, the points with their unit), as it
 * words an erased customer.
 */
export const auditRecordPartsSchema = z.object({
  /** The program's name (a membership's, a ledger entry's). */
  program: z.string().optional(),
  /** A ledger entry's points and stamps, signed (a redemption takes). */
  points: z.number().int().optional(),
  stamps: z.number().int().optional(),
  /** A voucher's code. */
  code: z.string().optional(),
  /** The record's stored kind (a proof's `review`, a privacy request's `erasure`, an import's `customers`). */
  kind: z.string().optional(),
});
export type AuditRecordParts = z.infer<typeof auditRecordPartsSchema>;

/**
 * The record an entry is about, as people name it (added to the list's entries): its name while it
 * exists, or, for an erased customer, `isErased` and no name (erasure blanks it by design). A record
 * named by its customer (a membership, a ledger entry, a proof, a privacy request) carries the customer's
 * name and erasure, and its other `parts`. The entry's `record` is null when the record is gone or its
 * kind has no name (the ledger's integrity checks, the system).
 */
export const auditRecordSchema = z.object({ name: z.string().nullable(), isErased: z.boolean(), parts: auditRecordPartsSchema.optional() });
export type AuditRecord = z.infer<typeof auditRecordSchema>;

/**
 * The fields of a before/after that hold a record's id, and the kind of that record: the API names the
 * records (`references`), the Audit screen shows the names instead of the ids. A field keeps one meaning
 * whatever the entity (`requestId` inside before/after is a privacy request's; the entry's own request
 * id is a column, not a field).
 */
export const AUDIT_ID_FIELDS = {
  customerId: 'customer',
  customerIds: 'customer',
  referredBy: 'customer',
  membershipId: 'membership',
  programId: 'program',
  merchantId: 'merchant',
  merchantIds: 'merchant',
  usedMerchantId: 'merchant',
  rewardId: 'reward',
  voucherId: 'voucher',
  campaignId: 'campaign',
  importId: 'import',
  requestId: 'privacy_request',
  proofId: 'social_proof',
  entryId: 'ledger_entry',
  reversesId: 'ledger_entry',
  reversedById: 'ledger_entry',
  staffId: 'user',
  createdBy: 'user',
  handledBy: 'user',
  decidedBy: 'user',
  invitedBy: 'user',
  imageId: 'upload',
  coverImageId: 'upload',
} as const satisfies Record<string, string>;
export type AuditIdField = keyof typeof AUDIT_ID_FIELDS;
export type AuditReferenceKind = (typeof AUDIT_ID_FIELDS)[AuditIdField];

/** The kind of record a before/after field holds the id of, if it holds one. */
export function auditIdKind(field: string): AuditReferenceKind | undefined {
  return Object.hasOwn(AUDIT_ID_FIELDS, field) ? AUDIT_ID_FIELDS[field as AuditIdField] : undefined;
}

export const auditListEntrySchema = auditEntrySchema.extend({
  record: auditRecordSchema.nullable(),
  /** The records the entry's before/after point at (`AUDIT_ID_FIELDS`), named: by kind, then by id as stored. */
  references: z.record(z.string(), z.record(z.string(), auditRecordSchema)),
});
export type AuditListEntry = z.infer<typeof auditListEntrySchema>;
export const auditPageSchema = listPageSchema(auditListEntrySchema);

/** The audit export takes the list's filters, without paging. */
export const exportAuditQuerySchema = listAuditQuerySchema.omit({ page: true, pageSize: true });

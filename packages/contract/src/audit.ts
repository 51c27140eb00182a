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
 * The record an entry is about, as people name it (added to the list's entries): its name while it
 * exists, or, for an erased customer, `isErased` and no name (erasure blanks it by design). The entry's
 * `record` is null when the record is gone or its kind has no name (a ledger entry, the system).
 */
export const auditRecordSchema = z.object({ name: z.string().nullable(), isErased: z.boolean() });
export type AuditRecord = z.infer<typeof auditRecordSchema>;

export const auditListEntrySchema = auditEntrySchema.extend({ record: auditRecordSchema.nullable() });
export type AuditListEntry = z.infer<typeof auditListEntrySchema>;
export const auditPageSchema = listPageSchema(auditListEntrySchema);

/** The audit export takes the list's filters, without paging. */
export const exportAuditQuerySchema = listAuditQuerySchema.omit({ page: true, pageSize: true });

import { z } from 'zod';
import { exportQuerySchema, listPageSchema, listQuerySchema } from './list-query.ts';

/**
 * GDPR requests (Richieste privacy, docs/product.md D and F). Due one month after receipt; extendable by
 * two more months with a reason (art. 12(3) GDPR). Decision record 021 explains the actions.
 */
export const PRIVACY_REQUEST_KINDS = ['access', 'portability', 'rectification', 'erasure', 'restriction', 'objection'] as const;
export const privacyRequestKindSchema = z.enum(PRIVACY_REQUEST_KINDS);
export type PrivacyRequestKind = z.infer<typeof privacyRequestKindSchema>;

export const PRIVACY_REQUEST_STATUSES = ['open', 'in_progress', 'done', 'rejected'] as const;
export const privacyRequestStatusSchema = z.enum(PRIVACY_REQUEST_STATUSES);
export type PrivacyRequestStatus = z.infer<typeof privacyRequestStatusSchema>;

export const PROCESSING_BLOCK_KINDS = ['restriction', 'objection'] as const;
export type ProcessingBlockKind = (typeof PROCESSING_BLOCK_KINDS)[number];

/** Days left below which the queue highlights a request. */
export const PRIVACY_DEADLINE_WARNING_DAYS = 7;
/** Months to answer, and the extension (art. 12(3) GDPR). */
export const PRIVACY_DUE_MONTHS = 1;
export const PRIVACY_EXTENSION_MONTHS = 2;

/**
 * The actions of `POST /api/admin/privacy-requests/:id/actions`:
 * - `export`: the JSON of everything held on the person (access, portability);
 * - `erase`: anonymise the person, keep the ledger's figures (erasure);
 * - `restrict`: withdraw marketing and profiling and block them (restriction, objection);
 * - `lift`: end that block (with a reason);
 * - `close`: done (or `rejected` with a reason).
 */
export const PRIVACY_ACTIONS = ['export', 'erase', 'restrict', 'lift', 'close'] as const;
export const privacyActionSchema = z.enum(PRIVACY_ACTIONS);
export type PrivacyAction = z.infer<typeof privacyActionSchema>;

const reasonSchema = z.string().trim().min(3).max(1000);

export const privacyRequestSchema = z.object({
  id: z.uuid(),
  kind: privacyRequestKindSchema,
  customerId: z.uuid(),
  /** The customer's name as it reads now ("erased" customers read anonymised). */
  customerName: z.string(),
  customerCardNumber: z.string(),
  customerStatus: z.string(),
  receivedAt: z.iso.datetime({ offset: true }),
  dueAt: z.iso.datetime({ offset: true }),
  /** Whole days from now to the due date (negative: overdue); null once done or rejected. */
  daysLeft: z.number().int().nullable(),
  extensionReason: z.string().nullable(),
  extendedAt: z.iso.datetime({ offset: true }).nullable(),
  status: privacyRequestStatusSchema,
  notes: z.string().nullable(),
  handledBy: z.string().nullable(),
  handledByEmail: z.string().nullable(),
  /** Who handled it as people read it: the staff member's name, or their e-mail when they have none. */
  handledByName: z.string().nullable(),
  handledAt: z.iso.datetime({ offset: true }).nullable(),
  /** A processing block (restriction / objection) is in force for the customer. */
  isProcessingBlocked: z.boolean(),
  outcome: z.array(z.record(z.string(), z.unknown())),
  version: z.number().int(),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
});
export type PrivacyRequest = z.infer<typeof privacyRequestSchema>;

export const createPrivacyRequestSchema = z.strictObject({
  kind: privacyRequestKindSchema,
  customerId: z.uuid(),
  /** When the request reached us (default: now); the due date follows from it. */
  receivedAt: z.iso.datetime({ offset: true }).optional(),
  notes: z.string().trim().max(2000).optional(),
});
export type CreatePrivacyRequest = z.infer<typeof createPrivacyRequestSchema>;

/** Notes, the status, or the one extension (with its reason), with the `version` read. */
export const updatePrivacyRequestSchema = z.strictObject({
  notes: z.string().trim().max(2000).nullable().optional(),
  status: z.enum(['open', 'in_progress']).optional(),
  extensionReason: reasonSchema.optional(),
  version: z.number().int().min(1),
});
export type UpdatePrivacyRequest = z.infer<typeof updatePrivacyRequestSchema>;

export const privacyActionInputSchema = z.strictObject({
  action: privacyActionSchema,
  /** Required to lift a block and to reject; recorded with every action. */
  reason: reasonSchema.optional(),
  /** `close` only: `rejected` instead of `done`. */
  isRejected: z.boolean().optional(),
  version: z.number().int().min(1),
});
export type PrivacyActionInput = z.infer<typeof privacyActionInputSchema>;

/** The answer of an action: the request; `export` adds the document. */
export const privacyActionResultSchema = z.object({
  request: privacyRequestSchema,
  export: z.record(z.string(), z.unknown()).optional(),
});

export const PRIVACY_SORT_FIELDS = ['dueAt', 'receivedAt', 'kind', 'status', 'customer'] as const;

export const listPrivacyRequestsQuerySchema = listQuerySchema({
  sort: PRIVACY_SORT_FIELDS,
  defaultSort: 'dueAt',
  defaultOrder: 'asc',
  filters: {
    kind: privacyRequestKindSchema.optional(),
    status: privacyRequestStatusSchema.optional(),
    /** Open and in-progress requests only (the work queue). */
    isPending: z.enum(['true', 'false']).transform((value) => value === 'true').optional(),
    customerId: z.uuid().optional(),
  },
});
export type ListPrivacyRequestsQuery = z.infer<typeof listPrivacyRequestsQuerySchema>;
export const exportPrivacyRequestsQuerySchema = exportQuerySchema(listPrivacyRequestsQuerySchema);
export const privacyRequestPageSchema = listPageSchema(privacyRequestSchema);

import { z } from 'zod';
import type { Language } from './app-info.ts';
import { customerStatusSchema } from './customers-list.ts';
import { exportQuerySchema, listPageSchema, listQuerySchema } from './list-query.ts';
import { ruleAcrossFields } from './validation.ts';
import { VALUE_LABELS } from './value-labels.ts';

/**
 * Approvazioni: a customer's claim of a social action (docs/product.md D "Social-action proofs", F). It
 * waits in a queue; staff approve or reject it; approval writes the program's bonus for that kind as
 * an `earn` entry (source `social`), once per proof, within the bonus's monthly cap.
 */
export const PROOF_KINDS = ['share', 'review', 'checkIn'] as const;
export const proofKindSchema = z.enum(PROOF_KINDS);
export type ProofKind = z.infer<typeof proofKindSchema>;

export const PROOF_STATUSES = ['pending', 'approved', 'rejected'] as const;
export const proofStatusSchema = z.enum(PROOF_STATUSES);
export type ProofStatus = z.infer<typeof proofStatusSchema>;

/** Who sent it: the customers' app / a till through the integration API, or staff on the customer's behalf. */
export const PROOF_CHANNELS = ['app', 'integration', 'back-office'] as const;
export const proofChannelSchema = z.enum(PROOF_CHANNELS);

export const PROOF_BOUNDS = {
  urlMax: 2000,
  noteMax: 500,
  reasonMax: 500,
  /** One decision request decides at most this many proofs. */
  decideMax: 200,
} as const;

/** A link to the post, review or check-in: http(s) only (no javascript:, data: …). */
export const proofUrlSchema = z
  .string()
  .trim()
  .max(PROOF_BOUNDS.urlMax)
  .pipe(z.url({ protocol: /^https?$/ }));

export const socialProofSchema = z.object({
  id: z.number().int(),
  customerId: z.uuid(),
  /** Empty for an erased customer (the screen says "Cliente cancellato"): see `customerStatus`. */
  customerName: z.string(),
  customerStatus: customerStatusSchema,
  cardNumber: z.string(),
  programId: z.uuid(),
  programName: z.string(),
  merchantId: z.uuid().nullable(),
  merchantName: z.string().nullable(),
  kind: proofKindSchema,
  url: z.string().nullable(),
  /** The screenshot (an upload checked like news covers), and where to read it. */
  imageId: z.string().nullable(),
  imageUrl: z.string().nullable(),
  note: z.string().nullable(),
  channel: proofChannelSchema,
  submittedBy: z.string(),
  status: proofStatusSchema,
  /** Rejection reason, or why an approval gave 0 points (monthly cap reached, no bonus set). */
  reason: z.string().nullable(),
  /** Points (or stamps, for stamp cards) the approval gave; null until approved. */
  points: z.number().int().nullable(),
  /** The `earn` entry of the approval, when it gave something. */
  entryId: z.number().int().nullable(),
  /** Who decided it: the staff member's e-mail, or ERASURE_DECIDER for a proof an erasure closed. */
  decidedBy: z.string().nullable(),
  /**
   * Who decided it as people read it: the staff member's name (their e-mail when they have none); null
   * while pending and for a proof an erasure closed (the screens word ERASURE_DECIDER).
   */
  decidedByName: z.string().nullable(),
  decidedAt: z.iso.datetime({ offset: true }).nullable(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type SocialProof = z.infer<typeof socialProofSchema>;

/** Staff create a proof on a customer's behalf (`POST /api/admin/social-proofs`). A link or an image, or both. */
export const createSocialProofSchema = z
  .strictObject({
    customerId: z.uuid(),
    programId: z.uuid(),
    merchantId: z.uuid().optional(),
    kind: proofKindSchema,
    url: proofUrlSchema.optional(),
    imageId: z.string().min(1).max(100).optional(),
    note: z.string().trim().max(PROOF_BOUNDS.noteMax).optional(),
  })
  .check(
    ruleAcrossFields((value, ctx) => {
      if (value.url === undefined && value.imageId === undefined) {
        ctx.addIssue({ code: 'custom', path: ['url'], params: { messageKey: 'required' } });
      }
    }),
  );
export type CreateSocialProof = z.infer<typeof createSocialProofSchema>;

export const PROOF_SORT_FIELDS = ['createdAt', 'status', 'kind', 'decidedAt'] as const;

/**
 * `GET /api/admin/social-proofs`: the default order (`sort=queue`) puts pending proofs first, oldest
 * first, then the decided ones, newest decision first.
 */
export const listSocialProofsQuerySchema = listQuerySchema({
  sort: ['queue', ...PROOF_SORT_FIELDS] as const,
  defaultSort: 'queue',
  defaultOrder: 'asc',
  filters: {
    status: proofStatusSchema.optional(),
    kind: proofKindSchema.optional(),
    programId: z.uuid().optional(),
    merchantId: z.uuid().optional(),
    customerId: z.uuid().optional(),
    from: z.iso.date().optional(),
    to: z.iso.date().optional(),
  },
});
export type ListSocialProofsQuery = z.infer<typeof listSocialProofsQuerySchema>;
export const exportSocialProofsQuerySchema = exportQuerySchema(listSocialProofsQuerySchema);
export const socialProofPageSchema = listPageSchema(socialProofSchema);
export type SocialProofPage = z.infer<typeof socialProofPageSchema>;

/** `POST /api/admin/social-proofs/decisions`: a reason is required to reject. */
export const decideSocialProofsSchema = z
  .strictObject({
    ids: z.array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)).min(1).max(PROOF_BOUNDS.decideMax),
    decision: z.enum(['approve', 'reject']),
    reason: z.string().trim().min(1).max(PROOF_BOUNDS.reasonMax).optional(),
  })
  .check(
    ruleAcrossFields((value, ctx) => {
      if (value.decision === 'reject' && value.reason === undefined) {
        ctx.addIssue({ code: 'custom', path: ['reason'], params: { messageKey: 'required' } });
      }
    }),
  );
export type DecideSocialProofs = z.infer<typeof decideSocialProofsSchema>;

/** One outcome per id, in the order asked: the proof as it is now, or why it was not decided. */
export const decisionOutcomeSchema = z.object({
  id: z.number().int(),
  /**
   * `decided`: this request decided it; `already_decided`: it had been decided before (left as it
   * was); `not_found`; `failed`: it could not be decided now (e.g. the program is closed), `message` says why.
   */
  outcome: z.enum(['decided', 'already_decided', 'not_found', 'failed']),
  proof: socialProofSchema.nullable(),
  message: z.string().nullable(),
  /** A `failed` outcome's error code, as an error answer would carry it (e.g. `customer_erased`, 409). */
  code: z.string().optional(),
});
export const decideSocialProofsResultSchema = z.object({ items: z.array(decisionOutcomeSchema) });
export type DecideSocialProofsResult = z.infer<typeof decideSocialProofsResultSchema>;

/** Why an approval gave no points (kept in `reason`, in the language of the decision's author). */
export function zeroPointsReason(why: 'cap' | 'no_bonus', language: Language, capPerMonth = 0): string {
  if (why === 'cap') {
    return language === 'it'
      ? `Limite mensile raggiunto (${capPerMonth} al mese): approvata con 0 punti`
      : `Monthly cap reached (${capPerMonth} a month): approved with 0 points`;
  }
  return language === 'it'
    ? 'Il programma non prevede un bonus per questa azione: approvata con 0 punti'
    : 'The program has no bonus for this action: approved with 0 points';
}

/**
 * Who "decided" the proofs an erasure closed (`decidedBy` of the proof; the staff member who ran the
 * erasure is in the audit record): they are rejected, never paid, as the person is gone.
 */
export const ERASURE_DECIDER = 'privacy-erasure';
/** ERASURE_DECIDER in words, for the export (the web app says it from its catalogue). */
export const ERASURE_DECIDER_WORDS: Record<Language, string> = { it: 'Cancellazione dei dati del cliente', en: "Erasure of the customer's data" };

/** Why an erasure closed a pending proof (kept in `reason`, in the language of the erasure's author). */
export function erasureClosedReason(language: Language): string {
  return language === 'it'
    ? 'Chiusa dalla cancellazione dei dati del cliente: nessun punto assegnato'
    : "Closed by the erasure of the customer's data: no points given";
}

/** How a proof is named beside its bonus: "prova n. 5" / "proof #5". */
export const PROOF_NUMBER_PREFIX: Record<Language, string> = { it: 'prova n. ', en: 'proof #' };

/**
 * The bonus entry of an approved proof, as a person reads it: "Bonus condivisione social (prova n. 5)" /
 * "Social share bonus (proof #5)". Kept as the entry's reason (in the deciding person's language, like
 * zeroPointsReason) and said at read time in the reader's (Movimenti's export; the web's catalogue).
 */
export function socialBonusReason(kind: ProofKind, proofId: number, language: Language): string {
  return `${VALUE_LABELS.socialBonus[kind][language]} (${PROOF_NUMBER_PREFIX[language]}${proofId})`;
}

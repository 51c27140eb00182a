import { bigint, bigserial, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { ProofKind, ProofStatus } from '@sf/contract/social-proofs';

/**
 * Approvazioni: social-action proofs (migration 0005_rewards.sql is the source of truth: a proof has
 * a link or an image, a rejection has a reason, one ledger entry per proof).
 */
export const socialProofs = pgTable('social_proofs', {
  id: bigserial({ mode: 'number' }).primaryKey(),
  customerId: uuid().notNull(),
  programId: uuid().notNull(),
  merchantId: uuid(),
  kind: text().$type<ProofKind>().notNull(),
  url: text(),
  imageId: text(),
  note: text(),
  channel: text().$type<'app' | 'integration' | 'back-office'>().notNull(),
  submittedByLabel: text().notNull(),
  idempotencyScope: text(),
  idempotencyKey: text(),
  status: text().$type<ProofStatus>().notNull().default('pending'),
  reason: text(),
  points: integer(),
  entryId: bigint({ mode: 'number' }),
  decidedBy: uuid(),
  decidedByLabel: text(),
  decidedAt: timestamp({ withTimezone: true }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  /** When an erasure request removed the link, the screenshot and the note (the decision stays). */
  erasedAt: timestamp({ withTimezone: true }),
});

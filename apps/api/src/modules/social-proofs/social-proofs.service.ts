import type { Language } from '@sf/contract/app-info';
import type { BonusKind } from '@sf/contract/programs';
import {
  ERASURE_DECIDER,
  erasureClosedReason,
  socialBonusReason,
  zeroPointsReason,
  type DecideSocialProofs,
  type DecideSocialProofsResult,
  type ListSocialProofsQuery,
  type ProofKind,
  type SocialProof,
} from '@sf/contract/social-proofs';
import { sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import type { FastifyInstance } from 'fastify';
import type { Caller, ServiceDeps } from '../../lib/caller.ts';
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from '../../lib/audit.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { applyToLockedMember, lockMember, type LedgerCaller } from '../ledger/ledger.service.ts';
import { addDays, localDate, startOfLocalDay } from '../../lib/business-days.ts';
import { IMAGE_MAX_BYTES, detectImageType, removeStoredImages, storeImage } from '../../lib/uploads.ts';
import { depsOf } from '../../lib/caller.ts';
import { enqueueJob, type JobModule } from '../../lib/job-runner.ts';
import * as repo from './social-proofs.repository.ts';
import { staffNames } from '../staff/staff-admin.service.ts';

export const PROOF_ENTITY = 'social_proof';

/**
 * Who submits a proof: the customers' app or a till through an integration key (`channel`
 * `integration` or `app`, `label` e.g. `api-key:<name>`), or staff on the customer's behalf
 * (`back-office`, `label` their e-mail). `audit` is the audit actor of the change.
 */
export type ProofSubmitter = {
  label: string;
  audit: AuditActor;
  channel: 'app' | 'integration' | 'back-office';
  /** Who may attach a screenshot: the one who uploaded it (issue 30, M3). Without one, none. */
  uploader?: { userId: string } | { apiKeyId: string };
};

const BONUS_OF_KIND: Record<ProofKind, BonusKind> = { share: 'share', review: 'review', checkIn: 'checkIn' };

async function rows<T>(executor: Executor, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await executor.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * Stores a proof's screenshot, checked like a news cover: PNG, JPEG, WebP or GIF by its bytes (the
 * declared type is ignored), at most IMAGE_MAX_BYTES. `uploader` is the staff member (counted in
 * their upload quota) or the integration key (its quota counts the screenshots waiting for a proof).
 * Answers the upload id to pass as `imageId` — by the same uploader, for one proof only.
 * Throws 415 `unsupported_media_type` (not an image), 413 `payload_too_large`.
 */
export async function storeProofImage(
  deps: { db: Database; dataDir: string; quotaBytes: number },
  actor: AuditActor,
  file: { bytes: Buffer; fileName: string; uploader: NonNullable<ProofSubmitter['uploader']> },
): Promise<{ id: string; url: string }> {
  if (file.bytes.length > IMAGE_MAX_BYTES) throw new AppError(413, 'payload_too_large', { text: 'file_too_large', params: { megabytes: IMAGE_MAX_BYTES / (1024 * 1024) } });
  const type = detectImageType(file.bytes);
  if (!type) throw new AppError(415, 'unsupported_media_type', { text: 'image_type' });
  const { id } = await storeImage(deps, actor, {
    bytes: file.bytes,
    type,
    fileName: file.fileName,
    purpose: 'proof',
    uploadedBy: 'userId' in file.uploader ? file.uploader.userId : null,
    apiKeyId: 'apiKeyId' in file.uploader ? file.uploader.apiKeyId : null,
  });
  return { id, url: `/api/public/uploads/${encodeURIComponent(id)}` };
}

/**
 * Screenshots no proof took within a day (an app that uploaded and never filed, or filed another):
 * rows deleted here, files by the caller once the rows are gone. Daily job (socialProofJobs).
 */
export async function purgeUnusedProofImages(deps: ServiceDeps & { dataDir: string }): Promise<number> {
  const cutoff = new Date(deps.clock.now().getTime() - UNUSED_PROOF_IMAGE_MS);
  const removed = await deps.db.transaction(async (tx) => {
    const images = await repo.deleteUnusedProofImages(tx, cutoff);
    if (images.length > 0) {
      await recordAudit(tx, SYSTEM_ACTOR, { action: 'upload.purge', entityType: 'upload', entityId: 'unused-proof-images', after: { count: images.length } });
    }
    return images;
  });
  await removeStoredImages(deps.dataDir, removed);
  return removed.length;
}

/** How long a screenshot may wait for its proof. */
export const UNUSED_PROOF_IMAGE_MS = 24 * 60 * 60 * 1000;
export const PROOF_IMAGES_PURGE_JOB = 'social-proofs.purge-unused-images';

/** Once per business day, queued by every process, run by one (dedupe key). */
export function socialProofJobs(app: FastifyInstance): JobModule {
  const deps = { ...depsOf(app), dataDir: app.env.dataDir };
  return {
    schedule: () => enqueueJob(app.db, { kind: PROOF_IMAGES_PURGE_JOB, dedupeKey: `${PROOF_IMAGES_PURGE_JOB}:${localDate(app.clock.now(), deps.timeZone)}` }),
    handlers: { [PROOF_IMAGES_PURGE_JOB]: async () => ({ removed: await purgeUnusedProofImages(deps) }) },
  };
}

/**
 * Files a social-action proof in the Approvazioni queue (status `pending`).
 *
 * `input`: the customer, the program (and optionally the merchant where it happened, which must be
 * one of the program's), the kind, and a link (`url`, http/https) and/or a screenshot (`imageId`
 * from storeProofImage). At least one of the two (the contract's schema checks it).
 *
 * Idempotent when `idempotency` is given: the same (scope, key) answers the proof filed first
 * (`isReplay: true`) if the request is the same, else throws 422 `idempotency_key_reused`.
 *
 * Throws 400 `validation` naming `customerId`, `programId`, `merchantId` or `imageId` when unknown;
 * 409 `conflict` when the customer or the program is not active.
 */
export async function submitProof(
  deps: ServiceDeps,
  actor: ProofSubmitter,
  input: {
    customerId: string;
    programId: string;
    merchantId?: string | undefined;
    kind: ProofKind;
    url?: string | undefined;
    imageId?: string | undefined;
    note?: string | undefined;
  },
  idempotency?: { scope: string; key: string },
): Promise<{ proof: SocialProof; isReplay: boolean }> {
  if (input.url === undefined && input.imageId === undefined) throw fieldError('url', 'required');
  return deps.db.transaction(async (tx) => {
    // Locked: a proof filed while the customer's erasure runs waits for it, then is refused.
    const customerStatus = await repo.lockedCustomerStatus(tx, input.customerId);
    if (customerStatus === null) throw fieldError('customerId', 'notFound');
    if (customerStatus !== 'active') throw new AppError(409, 'conflict', { text: 'customer_not_active' });
    const [program] = await rows<{ status: string }>(tx, sql`select status from programs where id = ${input.programId}`);
    if (!program) throw fieldError('programId', 'notFound');
    if (program.status !== 'active') throw new AppError(409, 'conflict', { text: 'program_not_active' });
    if (input.merchantId) {
      const [link] = await rows(tx, sql`select 1 as ok from program_merchants where program_id = ${input.programId} and merchant_id = ${input.merchantId}`);
      if (!link) throw fieldError('merchantId');
    }
    if (input.imageId) {
      // Only a screenshot this submitter uploaded for a proof, and not yet another proof's: a news
      // cover or another customer's screenshot answers as an unknown image (issue 30, M3).
      const owner = await repo.lockProofImage(tx, input.imageId);
      const uploader = actor.uploader;
      const isOwn =
        owner !== null &&
        uploader !== undefined &&
        owner.purpose === 'proof' &&
        ('apiKeyId' in uploader ? owner.apiKeyId === uploader.apiKeyId : owner.uploadedBy === uploader.userId);
      if (!isOwn || (await repo.isImageTakenByAnotherProof(tx, input.imageId, idempotency))) throw fieldError('imageId', 'notFound');
    }
    const values: repo.NewProof = {
      customerId: input.customerId,
      programId: input.programId,
      merchantId: input.merchantId ?? null,
      kind: input.kind,
      url: input.url ?? null,
      imageId: input.imageId ?? null,
      note: input.note ?? null,
      channel: actor.channel,
      submittedByLabel: actor.label,
      idempotencyScope: idempotency?.scope ?? null,
      idempotencyKey: idempotency?.key ?? null,
      status: 'pending',
      createdAt: deps.clock.now(),
    };
    const row = await repo.insertProof(tx, values);
    if (!row) {
      const first = await repo.findByIdempotency(tx, idempotency!.scope, idempotency!.key);
      const same =
        first &&
        first.customerId === values.customerId &&
        first.programId === values.programId &&
        first.merchantId === values.merchantId &&
        first.kind === values.kind &&
        first.url === values.url &&
        first.imageId === values.imageId;
      if (!first || !same) throw new AppError(422, 'idempotency_key_reused');
      return { proof: (await findProof(tx, first.id))!, isReplay: true };
    }
    await recordAudit(tx, actor.audit, { action: 'create', entityType: PROOF_ENTITY, entityId: row.id, after: values });
    return { proof: (await findProof(tx, row.id))!, isReplay: false };
  });
}

function periodOf(query: { from?: string | undefined; to?: string | undefined }, timeZone: string) {
  return {
    from: query.from ? startOfLocalDay(query.from, timeZone) : undefined,
    toExclusive: query.to ? startOfLocalDay(addDays(query.to, 1), timeZone) : undefined,
  };
}

export function proofWhere(query: repo.ProofFilter, timeZone: string) {
  return repo.proofConditions(query, periodOf(query, timeZone));
}

export async function listProofs(deps: ServiceDeps, query: ListSocialProofsQuery) {
  const { rows: found, total } = await repo.findProofs(deps.db, query, proofWhere(query, deps.timeZone));
  const selected = found as unknown as repo.Selected[];
  const names = await staffNames(deps.db, selected.map((row) => row.proof.decidedBy));
  return { items: selected.map((row) => repo.toProof(row, names)), total, page: query.page, pageSize: query.pageSize };
}

/** One proof as the API answers it, its decider named (staffNames). */
async function findProof(executor: Executor, id: number): Promise<SocialProof | null> {
  const row = await repo.findProof(executor, id);
  return row ? repo.toProof(row, await staffNames(executor, [row.proof.decidedBy])) : null;
}

function startOfBusinessMonth(now: Date, timeZone: string): Date {
  return startOfLocalDay(`${localDate(now, timeZone).slice(0, 8)}01`, timeZone);
}

type Outcome = DecideSocialProofsResult['items'][number];

/**
 * Decides one proof in its own transaction. The proof row is locked first, so of parallel decisions
 * on one proof exactly one decides it (the others answer `already_decided`); the bonus's `earn`
 * entry carries the idempotency key `proof:<id>` (source `social`), unique in the ledger: a proof
 * can never pay twice.
 *
 * Approval: the program's bonus for the kind (`bonuses.share|review|checkIn`; given as stamps on a
 * stamp card), unless the member already had `capPerMonth` paid approvals of that kind this business
 * month (then approved with 0 points and the reason), or the bonus is 0 (same, another reason).
 */
async function decideOne(
  deps: ServiceDeps,
  caller: Caller,
  id: number,
  decision: DecideSocialProofs['decision'],
  reason: string | undefined,
): Promise<Outcome> {
  return deps.db.transaction(async (tx) => {
    // The customer before the proof, as the erasure locks them: a decision taken from a queue opened
    // before the erasure waits for it and is refused, and never pays an erased person (409 customer_erased).
    const customerId = await repo.proofCustomerId(tx, id);
    if (customerId === null) return { id, outcome: 'not_found' as const, proof: null, message: null };
    if ((await repo.lockedCustomerStatus(tx, customerId)) === 'erased') throw new AppError(409, 'customer_erased');
    const proof = await repo.lockProof(tx, id);
    if (!proof) return { id, outcome: 'not_found' as const, proof: null, message: null };
    if (proof.status !== 'pending') return { id, outcome: 'already_decided' as const, proof: await findProof(tx, id), message: null };
    const now = deps.clock.now();
    const decided = { decidedAt: now, decidedBy: caller.userId, decidedByLabel: caller.actor.email ?? 'staff' };
    if (decision === 'reject') {
      await repo.updateProof(tx, id, { ...decided, status: 'rejected', reason: reason ?? null });
    } else {
      const locked = await lockMember(tx, deps, { customerId: proof.customerId, programId: proof.programId, merchantId: proof.merchantId ?? undefined });
      const [program] = await rows<{ bonuses: unknown }>(tx, sql`select bonuses from programs where id = ${proof.programId}`);
      const bonuses = (typeof program?.bonuses === 'string' ? JSON.parse(program.bonuses) : program?.bonuses) as
        | Record<BonusKind, { points: number; capPerMonth: number }>
        | undefined;
      const bonus = bonuses?.[BONUS_OF_KIND[proof.kind]] ?? { points: 0, capPerMonth: 0 };
      let points = bonus.points;
      let why: string | null = reason ?? null;
      if (points <= 0) {
        points = 0;
        why = zeroPointsReason('no_bonus', caller.language);
      } else if (bonus.capPerMonth > 0) {
        // Counted under the membership lock: two approvals for one member queue here.
        const paid = await repo.paidApprovalsSince(tx, {
          customerId: proof.customerId,
          programId: proof.programId,
          kind: proof.kind,
          since: startOfBusinessMonth(now, deps.timeZone),
        });
        if (paid >= bonus.capPerMonth) {
          points = 0;
          why = zeroPointsReason('cap', caller.language, bonus.capPerMonth);
        }
      }
      let entryId: number | null = null;
      if (points > 0) {
        const ledgerCaller: LedgerCaller = { id: caller.userId, label: caller.actor.email ?? 'staff', audit: caller.actor };
        const isStamps = locked.program.type === 'stamps';
        const { entry } = await applyToLockedMember(tx, deps, ledgerCaller, locked, {
          kind: 'earn',
          source: 'social',
          points: isStamps ? 0 : points,
          stamps: isStamps ? points : 0,
          reason: socialBonusReason(proof.kind, proof.id, caller.language),
          merchantId: proof.merchantId,
          idempotencyKey: `proof:${proof.id}`,
        });
        entryId = entry.id;
      }
      await repo.updateProof(tx, id, { ...decided, status: 'approved', points, reason: why, entryId });
    }
    const after = await findProof(tx, id);
    await recordAudit(tx, caller.actor, {
      action: decision === 'approve' ? 'social_proof.approve' : 'social_proof.reject',
      entityType: PROOF_ENTITY,
      entityId: id,
      before: { status: 'pending' },
      after: { status: after?.status, points: after?.points, reason: after?.reason, entryId: after?.entryId },
    });
    return { id, outcome: 'decided' as const, proof: after, message: null };
  });
}

/** A failed item's reason in the caller's language: the batch answers 200, one outcome per proof. */
function renderFailure(error: AppError, language: Language): string {
  return error.render(language).message;
}

/**
 * `POST /api/admin/social-proofs/decisions`: approves or rejects each proof (a reason is required to
 * reject), one transaction per proof, and answers one outcome per id in the order asked. A proof
 * that cannot be decided now (its program closed, its customer blocked) is `failed` with the reason
 * and stays pending; the others are decided.
 */
export async function decideProofs(deps: ServiceDeps, caller: Caller, input: DecideSocialProofs): Promise<DecideSocialProofsResult> {
  const items: Outcome[] = [];
  for (const id of [...new Set(input.ids)]) {
    try {
      items.push(await decideOne(deps, caller, id, input.decision, input.reason));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      items.push({ id, outcome: 'failed', proof: await findProof(deps.db, id), message: renderFailure(error, caller.language), code: error.code });
    }
  }
  return { items };
}

/**
 * Erasure (decision record 021): the customer's pending proofs are closed as rejected, never paid —
 * `decidedBy` says it was the erasure, `reason` why, and each closure is audited like a rejection
 * (status and reason only: no personal data). In the erasure's transaction, which holds the customer's
 * lock; answers how many were closed.
 */
export async function closePendingProofsOfErasedCustomer(tx: Executor, caller: Caller, customerId: string, now: Date): Promise<number> {
  const reason = erasureClosedReason(caller.language);
  const ids = await repo.closePendingProofsOf(tx, customerId, { at: now, decidedBy: caller.userId, decidedByLabel: ERASURE_DECIDER, reason });
  for (const id of ids) {
    await recordAudit(tx, caller.actor, {
      action: 'social_proof.reject',
      entityType: PROOF_ENTITY,
      entityId: id,
      before: { status: 'pending' },
      after: { status: 'rejected', reason, decidedBy: ERASURE_DECIDER },
    });
  }
  return ids.length;
}

/** For the audit list: these proofs' customer and kind, in one query (the customer's name is the customers' own). */
export function proofOwners(executor: Executor, ids: number[]) {
  return repo.findProofOwners(executor, ids);
}

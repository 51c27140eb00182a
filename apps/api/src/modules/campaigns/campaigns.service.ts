import type {
  AudienceAnswer,
  Campaign,
  CampaignAudience,
  CampaignAudienceQuery,
  CreateCampaign,
  ListCampaignsQuery,
  SendCampaign,
  UpdateCampaign,
} from '@sf/contract/campaigns';
import { isBlankBody } from '@sf/contract/campaigns';
import { randomUUID } from 'node:crypto';
import type { Executor } from '../../db/client.ts';
import type { Caller, RequestTrace, ServiceDeps } from '../../lib/caller.ts';
import { sendAwaitedMail, type Mailer } from '../../lib/mailer.ts';
import { recordAudit } from '../../lib/audit.ts';
import { AppError, fieldError, notFound, validationFailed, versionConflict } from '../../lib/errors.ts';
import { enqueueJob, nudgeBackgroundJobs } from '../../lib/job-runner.ts';
import { sanitizeEditorHtml } from '../news/news.service.ts';
import { merchantsThatExist } from '../merchants/merchants.service.ts';
import type { Language } from '@sf/contract/app-info';
import { personalise, personaliseSubject, renderCampaignTemplate, unsubscribeHeaders, unsubscribeUrlFor, type RenderedTemplate } from '../messages/messages.service.ts';
import * as repo from './campaigns.repository.ts';

export const CAMPAIGN_ENTITY = 'campaign';
export const CAMPAIGN_SEND_JOB = 'campaign-send';

/** What campaigns need beyond the usual deps: the mailer, the public address, the pace and the lease. */
export type CampaignDeps = ServiceDeps & {
  mailer: Mailer;
  appUrl: string;
  ratePerMinute: number;
  leaseSeconds: number;
};

const campaignNotFound = () => notFound('campaign');
const notEditable = () => new AppError(409, 'invalid_state', { text: 'campaign_not_editable' });

const SAMPLE_SIZE = 5;

function toCampaign(row: repo.CampaignRow, counts: Campaign['counts']): Campaign {
  return {
    id: row.id,
    name: row.name,
    subject: row.subject,
    preheader: row.preheader,
    body: row.body,
    audience: normaliseAudience(row.audience),
    status: row.status,
    counts,
    scheduledAt: row.scheduledAt?.toISOString() ?? null,
    sentAt: row.sentAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    version: row.version,
  };
}

function normaliseAudience(audience: Partial<CampaignAudience> | CampaignAudienceQuery): CampaignAudience {
  return {
    programId: audience.programId ?? null,
    merchantId: audience.merchantId ?? null,
    tier: audience.tier ?? null,
    inactiveDays: audience.inactiveDays ?? null,
    birthdayMonth: audience.birthdayMonth ?? null,
    joinedAfter: audience.joinedAfter ?? null,
  };
}

async function withCounts(executor: Executor, row: repo.CampaignRow): Promise<Campaign> {
  const counts = await repo.recipientCounts(executor, [row.id]);
  return toCampaign(row, counts.get(row.id)!);
}

export async function listCampaigns(deps: ServiceDeps, query: ListCampaignsQuery) {
  const { rows, total } = await repo.findCampaigns(deps.db, query);
  const counts = await repo.recipientCounts(
    deps.db,
    rows.map((row) => row.id),
  );
  return { items: rows.map((row) => toCampaign(row, counts.get(row.id)!)), total, page: query.page, pageSize: query.pageSize };
}

export async function getCampaign(deps: ServiceDeps, id: string): Promise<Campaign> {
  const row = await repo.findCampaign(deps.db, id);
  if (!row) throw campaignNotFound();
  return withCounts(deps.db, row);
}

/** The live count and five recipients, with the system's rules always applied (consent, blocks, status, address). */
export async function previewAudience(deps: ServiceDeps, query: CampaignAudienceQuery): Promise<AudienceAnswer> {
  const condition = repo.audienceCondition(normaliseAudience(query), deps.clock.now(), deps.timeZone);
  const [count, sample] = await Promise.all([repo.countAudience(deps.db, condition), repo.sampleAudience(deps.db, condition, SAMPLE_SIZE)]);
  return { count, sample };
}

/**
 * The audience's merchant must exist, and one chosen anew must be active, as the editor offers it: a
 * suspended or archived merchant already in a draft's audience stays there (like a program's circuit),
 * its name kept, so the draft can still be edited.
 */
async function checkAudienceMerchant(executor: Executor, merchantId: string | null | undefined, kept: string | null = null) {
  if (!merchantId || merchantId === kept) return;
  const status = (await merchantsThatExist(executor, [merchantId])).get(merchantId);
  if (status === undefined) throw validationFailed([{ field: 'audience.merchantId', message: 'notFound', label: 'merchant' }]);
  if (status !== 'active') throw validationFailed([{ field: 'audience.merchantId', text: 'campaign_merchant_not_active' }]);
}

export async function createCampaign(deps: ServiceDeps, caller: Caller, input: CreateCampaign): Promise<Campaign> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    await checkAudienceMerchant(tx, input.audience.merchantId);
    const row = await repo.insertCampaign(tx, {
      name: input.name,
      subject: input.subject,
      preheader: input.preheader,
      body: sanitizeEditorHtml(input.body),
      audience: normaliseAudience(input.audience),
      createdBy: caller.userId,
      now,
    });
    const campaign = await withCounts(tx, row);
    await recordAudit(tx, caller.actor, { action: 'create', entityType: CAMPAIGN_ENTITY, entityId: row.id, after: auditView(campaign) });
    return campaign;
  });
}

/** What the audit keeps: the campaign without its counts (the body is kept: it is what was sent). */
function auditView(campaign: Campaign) {
  const { counts: _counts, ...rest } = campaign;
  return rest;
}

export async function updateCampaign(deps: ServiceDeps, caller: Caller, id: string, input: UpdateCampaign): Promise<Campaign> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const current = await repo.findCampaign(tx, id, { forUpdate: true });
    if (!current) throw campaignNotFound();
    if (current.version !== input.version) throw versionConflict();
    if (current.status !== 'draft') throw notEditable();
    if (input.audience !== undefined) await checkAudienceMerchant(tx, input.audience.merchantId, current.audience.merchantId ?? null);
    const before = await withCounts(tx, current);
    await repo.updateCampaignRow(tx, id, {
      now,
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.subject !== undefined ? { subject: input.subject } : {}),
      ...(input.preheader !== undefined ? { preheader: input.preheader } : {}),
      ...(input.body !== undefined ? { body: sanitizeEditorHtml(input.body) } : {}),
      ...(input.audience !== undefined ? { audience: normaliseAudience(input.audience) } : {}),
    });
    const after = await withCounts(tx, (await repo.findCampaign(tx, id))!);
    await recordAudit(tx, caller.actor, { action: 'update', entityType: CAMPAIGN_ENTITY, entityId: id, before: auditView(before), after: auditView(after) });
    return after;
  });
}

/** A test copy to the signed-in staff member's own address, with their name in `{{nome}}`; no unsubscribe link works in it. */
export async function sendTestMessage(deps: CampaignDeps, caller: Caller & RequestTrace & { displayName: string }, id: string): Promise<{ to: string }> {
  const row = await repo.findCampaign(deps.db, id);
  if (!row) throw campaignNotFound();
  const to = caller.actor.email;
  if (!to) throw new AppError(409, 'invalid_state');
  const template = await renderCampaignTemplate({ subject: row.subject, preheader: row.preheader, body: row.body, language: caller.language });
  const copy = personalise(template, { firstName: caller.displayName, unsubscribeUrl: unsubscribeUrlFor(deps.appUrl, 'test') });
  const prefix = caller.language === 'it' ? '[Prova] ' : '[Test] ';
  await sendAwaitedMail({ mailer: deps.mailer, log: caller.log }, { to, subject: `${prefix}${copy.subject}`, text: copy.text, html: copy.html }, { what: 'campaign test' });
  return { to };
}

function sendJob(campaignId: string, version: number, slice: number, runAt?: Date) {
  return {
    kind: CAMPAIGN_SEND_JOB,
    // One job per slice of one sending run (the campaign's version when it started): a retried enqueue
    // is a no-op, and a stale run (the campaign was rescheduled or cancelled since) finds nothing to do.
    dedupeKey: `${CAMPAIGN_SEND_JOB}:${campaignId}:v${version}:${slice}`,
    payload: { campaignId, version, slice },
    ...(runAt ? { runAt } : {}),
  };
}

/**
 * Send now: the audience of this moment becomes one `queued` row per recipient, in the same
 * transaction as the status change and the first job; or, with `scheduledAt`, the campaign waits as
 * `scheduled` and its audience is taken when it starts.
 */
export async function sendCampaign(deps: ServiceDeps, caller: Caller, id: string, input: SendCampaign): Promise<Campaign> {
  const now = deps.clock.now();
  const scheduledAt = input.scheduledAt ? new Date(input.scheduledAt) : null;
  // Refused, never moved to now: the operator must know when it leaves (the editor says the same words).
  if (scheduledAt && scheduledAt.getTime() <= now.getTime()) throw validationFailed([{ field: 'scheduledAt', text: 'send_time_past' }]);
  const campaign = await deps.db.transaction(async (tx) => {
    const current = await repo.findCampaign(tx, id, { forUpdate: true });
    if (!current) throw campaignNotFound();
    if (current.status !== 'draft' && current.status !== 'scheduled') throw notEditable();
    // Thousands of e-mails with nothing in them cannot be called back.
    if (isBlankBody(current.body)) throw fieldError('body', 'required');
    if (scheduledAt) {
      await repo.updateCampaignRow(tx, id, { now, status: 'scheduled', scheduledAt });
      await enqueueJob(tx, sendJob(id, current.version + 1, 0, scheduledAt));
    } else {
      const recipients = await repo.queueRecipients(tx, id, repo.audienceCondition(normaliseAudience(current.audience), now, deps.timeZone));
      if (recipients === 0) throw new AppError(409, 'invalid_state', { text: 'campaign_empty_audience' });
      await repo.updateCampaignRow(tx, id, { now, status: 'sending', scheduledAt: null });
      await enqueueJob(tx, sendJob(id, current.version + 1, 0));
    }
    const after = await withCounts(tx, (await repo.findCampaign(tx, id))!);
    await recordAudit(tx, caller.actor, {
      action: scheduledAt ? 'schedule' : 'send',
      entityType: CAMPAIGN_ENTITY,
      entityId: id,
      after: { status: after.status, scheduledAt: after.scheduledAt, recipients: after.counts.recipients },
    });
    return after;
  });
  if (!scheduledAt) nudgeBackgroundJobs();
  return campaign;
}

/** A scheduled or sending campaign stops: the recipients still waiting are skipped; those in flight finish. */
export async function cancelCampaign(deps: ServiceDeps, caller: Caller, id: string): Promise<Campaign> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const current = await repo.findCampaign(tx, id, { forUpdate: true });
    if (!current) throw campaignNotFound();
    if (current.status !== 'scheduled' && current.status !== 'sending') {
      throw new AppError(409, 'invalid_state', { text: 'campaign_not_cancellable' });
    }
    await repo.updateCampaignRow(tx, id, { now, status: 'cancelled' });
    await repo.skipQueued(tx, id, 'cancelled');
    const after = await withCounts(tx, (await repo.findCampaign(tx, id))!);
    await recordAudit(tx, caller.actor, { action: 'cancel', entityType: CAMPAIGN_ENTITY, entityId: id, after: { status: after.status, counts: after.counts } });
    return after;
  });
}

// ---- Sending, on the job runner ------------------------------------------------------------------

/** Temporary failures are retried this many times in all, waiting 30 s, 1, 2, 4 minutes between. */
export const MAX_ATTEMPTS = 5;

type SmtpError = { responseCode?: number; response?: string; message?: string };

/** An SMTP 5xx answer is final; a 4xx answer or a connection that failed is worth another try, later. */
export function outcomeOfFailure(error: unknown, attempts: number, retryBaseSeconds: number) {
  const smtp = (error ?? {}) as SmtpError;
  const answer = String(smtp.response ?? smtp.message ?? error).slice(0, 500);
  const isPermanent = typeof smtp.responseCode === 'number' && smtp.responseCode >= 500;
  if (isPermanent || attempts >= MAX_ATTEMPTS) return { status: 'failed' as const, error: answer };
  return { status: 'queued' as const, error: answer, retryInSeconds: retryBaseSeconds * 2 ** (attempts - 1) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A scheduled campaign whose time has come takes its audience now and starts sending. */
async function startScheduled(deps: ServiceDeps, campaign: repo.CampaignRow): Promise<repo.CampaignRow | null> {
  return deps.db.transaction(async (tx) => {
    const current = await repo.findCampaign(tx, campaign.id, { forUpdate: true });
    if (!current || current.status !== 'scheduled' || current.version !== campaign.version) return null;
    const now = deps.clock.now();
    await repo.queueRecipients(tx, current.id, repo.audienceCondition(normaliseAudience(current.audience), now, deps.timeZone));
    await repo.updateCampaignRow(tx, current.id, { now, status: 'sending' });
    return repo.findCampaign(tx, current.id);
  });
}

/**
 * One slice of a campaign's sending (the `campaign-send` job): recipients one at a time at the
 * configured pace, for at most half the lease, then the next slice is queued as a new job. Never
 * sends anyone twice: a recipient is claimed (`sending`) before its SMTP exchange and settled after
 * it; a claim that outlives its lease (the process died) turns `unknown`, never back to `queued`.
 */
export async function runCampaignSlice(
  deps: CampaignDeps & { retryBaseSeconds?: number; sliceMs?: number },
  payload: { campaignId: string; version: number; slice: number },
): Promise<Record<string, unknown>> {
  let campaign = await repo.findCampaign(deps.db, payload.campaignId);
  if (!campaign || campaign.version !== payload.version) return { stale: true };
  if (campaign.status === 'scheduled') {
    campaign = await startScheduled(deps, campaign);
    if (!campaign) return { stale: true };
  }
  if (campaign.status !== 'sending') return { status: campaign.status };
  const unknown = await repo.markStaleClaimsUnknown(deps.db, campaign.id);

  // Rendered once per slice and language (the customer's: the footer's words), when first needed;
  // each recipient's copy is a string replacement.
  const { subject, preheader, body } = campaign;
  const templates = new Map<Language, Promise<RenderedTemplate>>();
  const templateIn = (language: Language) => {
    let template = templates.get(language);
    if (!template) {
      template = renderCampaignTemplate({ subject, preheader, body, language });
      templates.set(language, template);
    }
    return template;
  };
  // The pace within a slice is real elapsed time (it sleeps); when the next slice is due is the app's clock.
  const intervalMs = 60_000 / deps.ratePerMinute;
  const sliceMs = deps.sliceMs ?? Math.min((deps.leaseSeconds * 1000) / 2, 10_000);
  const deadline = Date.now() + sliceMs;
  let nextAt = Date.now();
  let sent = 0;
  let skipped = 0;
  let failed = 0;
  while (Date.now() < deadline) {
    const wait = nextAt - Date.now();
    if (wait > 0) await sleep(wait);
    const claimId = randomUUID();
    const recipient = await repo.claimNextRecipient(deps.db, campaign.id, claimId, deps.leaseSeconds);
    if (!recipient) break;
    if (recipient.status === 'skipped' || !recipient.email) {
      skipped += 1;
      continue;
    }
    nextAt = Math.max(nextAt, Date.now()) + intervalMs;
    const unsubscribeUrl = unsubscribeUrlFor(deps.appUrl, recipient.token);
    const copy = personalise(await templateIn(recipient.language), { firstName: recipient.firstName, unsubscribeUrl });
    try {
      await deps.mailer.send({
        to: recipient.email,
        subject: copy.subject,
        text: copy.text,
        html: copy.html,
        headers: unsubscribeHeaders(unsubscribeUrl),
      });
      await repo.finishRecipient(deps.db, { id: recipient.id, claimId }, { status: 'sent' });
      sent += 1;
    } catch (error) {
      const outcome = outcomeOfFailure(error, recipient.attempts, deps.retryBaseSeconds ?? 30);
      await repo.finishRecipient(deps.db, { id: recipient.id, claimId }, outcome);
      if (outcome.status === 'failed') failed += 1;
    }
  }

  const now = deps.clock.now();
  const pending = await repo.pendingWork(deps.db, campaign.id);
  const current = await repo.findCampaign(deps.db, campaign.id);
  if (pending.queued === 0 && pending.sending === 0) {
    await repo.markCampaignSent(deps.db, campaign.id, now);
    return { sent, skipped, failed, unknown, done: true };
  }
  if (current?.status !== 'sending') return { sent, skipped, failed, unknown, status: current?.status };
  // The next slice: at once while recipients are due, else when the next retry is due or the claims
  // in flight run out (so that a dead process's claims are settled as `unknown`).
  const dueTimes = [
    ...(pending.queued > 0 && pending.nextDueAt ? [pending.nextDueAt.getTime()] : []),
    ...(pending.sending > 0 && pending.claimsEndAt ? [pending.claimsEndAt.getTime() + 1000] : []),
  ];
  const runAt = new Date(Math.max(deps.clock.now().getTime(), Math.min(...dueTimes)));
  await enqueueJob(deps.db, sendJob(campaign.id, campaign.version, payload.slice + 1, runAt));
  return { sent, skipped, failed, unknown, next: runAt.toISOString() };
}

// ---- For the messages module: unsubscribe links, a customer's messages, access and erasure -------

export async function recipientByToken(executor: Executor, token: string) {
  return repo.findRecipientByToken(executor, token);
}

export async function noteUnsubscribed(executor: Executor, recipientId: number, now: Date) {
  return repo.markUnsubscribed(executor, recipientId, now);
}

/**
 * A customer's campaign messages, each subject as they received it: the stored subject is the template
 * (`{{nome}}`), expanded here with the customer's first name exactly as the sender expands it.
 */
export async function campaignMessagesOf(executor: Executor, customerId: string) {
  const rows = await repo.messagesOfCustomer(executor, customerId);
  return rows.map(({ firstName, ...row }) => ({ ...row, subject: personaliseSubject(row.subject, firstName) }));
}

export async function eraseCampaignAddresses(executor: Executor, customerId: string) {
  return repo.eraseRecipientAddresses(executor, customerId);
}

/** For the audit list: these campaigns' names in one query. */
export function campaignNames(executor: Executor, ids: string[]): Promise<Map<string, string>> {
  return repo.campaignNamesByIds(executor, ids);
}

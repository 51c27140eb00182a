import { randomUUID } from 'node:crypto';
import type { Language } from '@sf/contract/app-info';
import type {
  PreviewServiceEmail,
  ServiceEmailKind,
  ServiceEmailPreview,
  ServiceEmailSetting,
  UpdateServiceEmail,
} from '@sf/contract/service-emails';
import { SERVICE_EMAIL_KINDS } from '@sf/contract/service-emails';
import type { Executor } from '../../db/client.ts';
import type { Caller } from '../../lib/caller.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { nameForMail } from '../../lib/mailer.ts';
import { recordAudit, SYSTEM_ACTOR } from '../../lib/audit.ts';
import { notFound, versionConflict } from '../../lib/errors.ts';
import { enqueueJob } from '../../lib/job-runner.ts';
import { outcomeOfFailure } from '../campaigns/campaigns.service.ts';
import { customerInTransaction } from '../customers/customers.service.ts';
import { customerMemberships, isMemberOf, membersWithPointsExpiring } from '../ledger/ledger.service.ts';
import { localDate } from '../../lib/business-days.ts';
import { renderServiceMessage, unsubscribeUrlFor, type ProgramLook, type RenderedTemplate } from '../messages/messages.service.ts';
import { getProgram } from '../programs/programs.service.ts';
import { cardLinkFor, programLogoPath, type WalletDeps } from '../wallet/wallet.service.ts';
import * as repo from './service-emails.repository.ts';
import { checkPlaceholders, DEFAULT_TEXTS, fillPlaceholders, type PlaceholderValues } from './service-emails.texts.ts';

export const SERVICE_EMAIL_SEND_JOB = 'service-email-send';

/** What sending needs: the wallet's deps (card links, APP_URL), the mailer and the claim's lease. */
export type ServiceEmailDeps = WalletDeps & { mailer: Mailer; leaseSeconds: number; retryBaseSeconds?: number };

/** The programs module reads with a caller; the job has none (the read is not audited). */
const SYSTEM_CALLER: Caller = { actor: SYSTEM_ACTOR, userId: '', language: 'it' };

const programSettingNotFound = () => notFound('program');

function settingOf(kind: ServiceEmailKind, row: repo.SettingRow | undefined | null): ServiceEmailSetting {
  if (row) return { ...row, isCustomised: true };
  return {
    kind,
    isEnabled: false,
    subjectIt: DEFAULT_TEXTS[kind].it.subject,
    bodyIt: DEFAULT_TEXTS[kind].it.body,
    subjectEn: DEFAULT_TEXTS[kind].en.subject,
    bodyEn: DEFAULT_TEXTS[kind].en.body,
    isCustomised: false,
    version: 0,
  };
}

/** `GET /api/admin/programs/:id/service-emails`: the four kinds, the defaults where the program has no row. */
export async function listServiceEmails(deps: WalletDeps, caller: Caller, programId: string): Promise<{ items: ServiceEmailSetting[] }> {
  await getProgram(deps, caller, programId);
  const rows = await repo.findSettings(deps.db, programId);
  return { items: SERVICE_EMAIL_KINDS.map((kind) => settingOf(kind, rows.find((row) => row.kind === kind))) };
}

/** `PUT …/service-emails/:kind`: on or off, and the texts (their schema refuses unknown placeholders, naming the field). Audited. */
export async function saveServiceEmail(
  deps: WalletDeps,
  caller: Caller,
  programId: string,
  kind: ServiceEmailKind,
  input: UpdateServiceEmail,
): Promise<ServiceEmailSetting> {
  const { version, ...fields } = input;
  await getProgram(deps, caller, programId).catch(() => {
    throw programSettingNotFound();
  });
  return deps.db.transaction(async (tx) => {
    const isSaved = await repo.saveSetting(tx, programId, { kind, ...fields }, version, deps.clock.now());
    if (!isSaved) throw versionConflict();
    await recordAudit(tx, caller.actor, { action: 'update', entityType: 'service_email', entityId: programId, after: { kind, ...fields } });
    return settingOf(kind, await repo.findSetting(tx, programId, kind));
  });
}

// ---- Queueing: in the transaction of the event, never an SMTP exchange inside a request -----------

async function queue(tx: Executor, message: Parameters<typeof repo.insertMessage>[1]): Promise<boolean> {
  const id = await repo.insertMessage(tx, message);
  if (id === null) return false;
  await enqueueJob(tx, { kind: SERVICE_EMAIL_SEND_JOB, dedupeKey: `${SERVICE_EMAIL_SEND_JOB}:${id}`, payload: { messageId: id } });
  return true;
}

/**
 * A new customer with an address (back-office or integration API), enrolled in the program chosen at
 * their creation: that program's welcome, when it has it switched on, queued in the creation's
 * transaction. Never another program's (decision 035). Consent and the rest are checked when it is
 * sent. Answers whether it was queued.
 */
export async function queueWelcome(tx: Executor, customer: { id: string; email: string | null }, programId: string, now: Date): Promise<boolean> {
  if (!customer.email) return false;
  const setting = await repo.findSetting(tx, programId, 'welcome');
  if (!setting?.isEnabled) return false;
  return queue(tx, { customerId: customer.id, programId, kind: 'welcome', dedupeKey: `welcome:${customer.id}:${programId}`, facts: {}, now });
}

/**
 * One service e-mail caused by an event (a voucher issued, the birthday bonus credited), queued in
 * the event's own transaction when the program has that kind switched on. Once per dedupe key.
 */
export async function queueServiceEmail(
  tx: Executor,
  input: { customerId: string; programId: string; kind: Exclude<ServiceEmailKind, 'welcome'>; dedupeKey: string; facts: Record<string, string | number | null>; now: Date },
): Promise<boolean> {
  const setting = await repo.findSetting(tx, input.programId, input.kind);
  if (!setting?.isEnabled) return false;
  return queue(tx, input);
}

export const SERVICE_EMAIL_EXPIRING_JOB = 'service-email-expiring';

/**
 * The daily reminder (`service-email-expiring`): members of the programs that have it on, with
 * points expiring in the next 30 days, at most one reminder per member per calendar month (the
 * dedupe key carries the business month). Answers how many were queued.
 */
export async function queueExpiringReminders(deps: WalletDeps): Promise<{ queued: number }> {
  const programIds = await repo.programsWithEnabled(deps.db, 'expiring');
  const members = await membersWithPointsExpiring(deps, programIds);
  const now = deps.clock.now();
  const month = localDate(now, deps.timeZone).slice(0, 7);
  let queued = 0;
  for (const member of members) {
    const isQueued = await deps.db.transaction((tx) =>
      queue(tx, {
        customerId: member.customerId,
        programId: member.programId,
        kind: 'expiring',
        dedupeKey: `expiring:${member.membershipId}:${month}`,
        facts: { punti_in_scadenza: member.points, data_scadenza: member.firstExpiresOn },
        now,
      }),
    );
    if (isQueued) queued += 1;
  }
  return { queued };
}

/**
 * The welcomes of an import's batch (the operator ticked "invia il benvenuto" and chose the program
 * its customers join), in the batch's transaction: one per imported customer with an address, from
 * that program only, when it has the welcome on.
 */
export async function queueWelcomes(tx: Executor, customerIds: string[], programId: string, now: Date): Promise<number> {
  if (customerIds.length === 0) return 0;
  const setting = await repo.findSetting(tx, programId, 'welcome');
  if (!setting?.isEnabled) return 0;
  const ids = await repo.insertWelcomes(tx, customerIds, programId, now);
  for (const id of ids) await enqueueJob(tx, { kind: SERVICE_EMAIL_SEND_JOB, dedupeKey: `${SERVICE_EMAIL_SEND_JOB}:${id}`, payload: { messageId: id } });
  return ids.length;
}

// ---- Rendering ------------------------------------------------------------------------------------

const BUTTONS = {
  it: { card: 'Apri la tessera', apple: 'Aggiungi ad Apple Wallet', google: 'Salva su Google Wallet' },
  en: { card: 'Open your card', apple: 'Add to Apple Wallet', google: 'Save to Google Wallet' },
} as const;

async function lookOf(deps: WalletDeps, programId: string): Promise<ProgramLook> {
  const program = await getProgram(deps, SYSTEM_CALLER, programId);
  return {
    name: program.name,
    logoUrl: program.walletLogo ? `${deps.appUrl}${programLogoPath(programId)}` : null,
    backgroundColor: program.walletBackgroundColor ?? null,
    foregroundColor: program.walletForegroundColor ?? null,
  };
}

/** The customer's values in this program (balance, points expiring, the card link), and the event's own. */
async function valuesOf(
  deps: WalletDeps,
  customer: { id: string; firstName: string; lastName: string },
  programName: string,
  programId: string,
  facts: Record<string, unknown>,
  language: Language,
): Promise<{ values: PlaceholderValues; cardUrl: string | null }> {
  // Rendering only reads: the customer joined the program when they were created (decision 035).
  const membership = (await customerMemberships(deps, customer.id)).items.find((item) => item.programId === programId);
  const cardUrl = membership ? await cardLinkFor(deps, membership.id) : null;
  const locale = language === 'it' ? 'it-IT' : 'en-GB';
  const number = new Intl.NumberFormat(locale);
  const day = (isoDate: string) => new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${isoDate}T00:00:00Z`));
  const today = localDate(deps.clock.now(), deps.timeZone);
  const nextExpiry = membership?.expiring.find((lot) => lot.expiresOn >= today);
  const raw: Record<string, unknown> = {
    nome: nameForMail(customer.firstName),
    cognome: nameForMail(customer.lastName),
    programma: programName,
    saldo: membership?.balance ?? 0,
    punti_in_scadenza: membership?.expiringSoon ?? 0,
    data_scadenza: nextExpiry?.expiresOn ?? '',
    link_tessera: cardUrl ?? '',
    ...facts,
  };
  const values: PlaceholderValues = {};
  for (const [key, value] of Object.entries(raw)) {
    if (typeof value === 'number') values[key as keyof PlaceholderValues] = number.format(value);
    else if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) values[key as keyof PlaceholderValues] = day(value);
    else if (typeof value === 'string') values[key as keyof PlaceholderValues] = value;
  }
  if (!values.validita_buono && 'codice_buono' in raw) values.validita_buono = language === 'it' ? 'senza scadenza' : 'no expiry date';
  return { values, cardUrl };
}

async function render(
  deps: ServiceEmailDeps | WalletDeps,
  input: {
    customer: { id: string; firstName: string; lastName: string };
    programId: string;
    language: Language;
    subject: string;
    body: string;
    facts: Record<string, unknown>;
    token: string;
  },
): Promise<RenderedTemplate> {
  const look = await lookOf(deps, input.programId);
  const { values, cardUrl } = await valuesOf(deps, input.customer, look.name, input.programId, input.facts, input.language);
  const buttons: { label: string; url: string }[] = [];
  const labels = BUTTONS[input.language];
  if (cardUrl) {
    buttons.push({ label: labels.card, url: cardUrl });
    if (deps.wallet.apple) buttons.push({ label: labels.apple, url: `${cardUrl}/pass.pkpass` });
    if (deps.wallet.google) buttons.push({ label: labels.google, url: `${cardUrl}/google-wallet` });
  }
  return renderServiceMessage({
    language: input.language,
    subject: fillPlaceholders(input.subject, values).replace(/\s+/g, ' ').trim(),
    body: fillPlaceholders(input.body, values),
    look,
    buttons,
    preferencesUrl: unsubscribeUrlFor(deps.appUrl, input.token),
    ...(typeof input.facts['codice_buono'] === 'string' ? { voucherCode: input.facts['codice_buono'] } : {}),
  });
}

/** `POST …/service-emails/:kind/preview`: the texts as typed, with a real customer's values (nothing is sent or stored). */
export async function previewServiceEmail(deps: WalletDeps, caller: Caller, programId: string, input: PreviewServiceEmail): Promise<ServiceEmailPreview> {
  checkPlaceholders({ [input.language === 'it' ? 'subjectIt' : 'subjectEn']: input.subject, [input.language === 'it' ? 'bodyIt' : 'bodyEn']: input.body });
  await getProgram(deps, caller, programId);
  const customer = await customerInTransaction(deps.db, input.customerId);
  if (!customer || customer.status === 'erased') throw notFound('customer');
  return render(deps, {
    customer,
    programId,
    language: input.language,
    subject: input.subject,
    body: input.body,
    facts: {},
    token: 'anteprima',
  });
}

// ---- Sending (the `service-email-send` job) -------------------------------------------------------

/**
 * Sends one queued message: claimed before the SMTP exchange (a crash leaves it `sending`, and the
 * job's next run, after the claim's lease, marks it `unknown`: never sent twice), settled after it.
 * A temporary SMTP failure queues it again with backoff (a new job at that time).
 */
export async function sendServiceMessage(deps: ServiceEmailDeps, messageId: number): Promise<Record<string, unknown>> {
  if (await repo.markStaleUnknown(deps.db, messageId)) return { status: 'unknown' };
  const claimId = randomUUID();
  const message = await repo.claimMessage(deps.db, messageId, claimId, deps.leaseSeconds);
  if (!message) return { status: 'not_due' };
  // Skipped by the claim: the customer (consent, address, status, a block) or the program's switch, off since it was queued.
  if (message.status === 'skipped' || !message.email || !message.programId || !message.setting) return { status: 'skipped' };
  // A welcome carries the card of the program the customer joined at creation; sending never enrols,
  // so a membership gone since (or never made) leaves nothing to welcome to.
  if (message.kind === 'welcome' && !(await isMemberOf(deps.db, message.customerId, message.programId))) {
    await repo.finishMessage(deps.db, { id: message.id, claimId }, { status: 'skipped', error: 'no_membership' });
    return { status: 'skipped' };
  }
  const texts = settingOf(message.kind, message.setting);
  const language = message.language;
  let copy: RenderedTemplate;
  try {
    copy = await render(deps, {
      customer: { id: message.customerId, firstName: message.firstName, lastName: message.lastName },
      programId: message.programId,
      language,
      subject: language === 'en' ? texts.subjectEn : texts.subjectIt,
      body: language === 'en' ? texts.bodyEn : texts.bodyIt,
      facts: message.facts,
      token: message.token,
    });
  } catch (error) {
    // Nothing left: the claim is given back, so that the job's retry renders it again.
    await repo.finishMessage(deps.db, { id: message.id, claimId }, { status: 'queued', error: String((error as Error)?.message ?? error), retryInSeconds: 0 });
    throw error;
  }
  try {
    await deps.mailer.send({ to: message.email, subject: copy.subject, text: copy.text, html: copy.html, ...(copy.attachments ? { attachments: copy.attachments } : {}) });
    await repo.finishMessage(deps.db, { id: message.id, claimId }, { status: 'sent', subject: copy.subject, text: copy.text });
    return { status: 'sent' };
  } catch (error) {
    const outcome = outcomeOfFailure(error, message.attempts, deps.retryBaseSeconds ?? 30);
    if (outcome.status === 'failed') {
      await repo.finishMessage(deps.db, { id: message.id, claimId }, { ...outcome, subject: copy.subject, text: copy.text });
      return { status: 'failed' };
    }
    await repo.finishMessage(deps.db, { id: message.id, claimId }, outcome);
    await enqueueJob(deps.db, {
      kind: SERVICE_EMAIL_SEND_JOB,
      dedupeKey: `${SERVICE_EMAIL_SEND_JOB}:${message.id}:${message.attempts}`,
      payload: { messageId: message.id },
      runAt: new Date(deps.clock.now().getTime() + outcome.retryInSeconds * 1000),
    });
    return { status: 'retry' };
  }
}

// ---- For the messages module: the log, the preferences link, erasure ------------------------------

export async function serviceMessagesOf(executor: Executor, customerId: string) {
  return repo.messagesOfCustomer(executor, customerId);
}

export async function serviceMessageByToken(executor: Executor, token: string) {
  return repo.findMessageByToken(executor, token);
}

export async function eraseServiceMessages(executor: Executor, customerId: string) {
  return repo.eraseMessagesOf(executor, customerId);
}

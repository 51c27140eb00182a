import { sql, type SQL } from 'drizzle-orm';
import type { CampaignAudience, CampaignCounts, CampaignSortField, CampaignStatus, RecipientStatus } from '@sf/contract/campaigns';
import type { Language } from '@sf/contract/app-info';
import { VALUE_LABELS } from '@sf/contract/value-labels';
import type { Executor } from '../../db/client.ts';
import { csvCell, type CsvColumns } from '../../db/csv-export.ts';
import { containsPattern, orderFor, type ListParams, type SortMap } from '../../db/list.ts';

/**
 * Campaigns and their recipients (migration 0025). Raw SQL: the audience reads customers, memberships,
 * program merchants, the ledger and the processing blocks in one statement, and the sender's claim is
 * one UPDATE … FOR UPDATE SKIP LOCKED.
 */
async function rowsOf<T>(executor: Executor, statement: SQL): Promise<T[]> {
  return ((await executor.execute(statement)) as unknown as { rows: T[] }).rows;
}

/** Both drivers: a timestamp as a Date (node-postgres) or a string (some PGlite paths). */
export function toDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value : new Date(String(value));
}

export type CampaignRow = {
  id: string;
  name: string;
  subject: string;
  preheader: string;
  body: string;
  audience: CampaignAudience;
  status: CampaignStatus;
  scheduledAt: Date | null;
  sentAt: Date | null;
  createdBy: string | null;
  version: number;
  createdAt: Date;
  updatedAt: Date;
};

type RawCampaign = Record<string, unknown>;

function toCampaignRow(raw: RawCampaign): CampaignRow {
  const audience = typeof raw['audience'] === 'string' ? JSON.parse(raw['audience']) : raw['audience'];
  return {
    id: String(raw['id']),
    name: String(raw['name']),
    subject: String(raw['subject']),
    preheader: String(raw['preheader']),
    body: String(raw['body']),
    audience: audience as CampaignAudience,
    status: raw['status'] as CampaignStatus,
    scheduledAt: toDate(raw['scheduled_at']),
    sentAt: toDate(raw['sent_at']),
    createdBy: (raw['created_by'] as string | null) ?? null,
    version: Number(raw['version']),
    createdAt: toDate(raw['created_at'])!,
    updatedAt: toDate(raw['updated_at'])!,
  };
}

/**
 * The system's rules, always: marketing consent granted now (the customers row keeps the latest
 * consent record's state), no restriction or objection in force, an active customer (not blocked,
 * not erased), an address. Then the operator's filters. `c` is the customers row.
 */
export function audienceCondition(audience: CampaignAudience, now: Date, timeZone: string): SQL {
  const parts: SQL[] = [
    sql`c.status = 'active'`,
    sql`c.marketing_consent`,
    sql`c.email is not null`,
    sql`not exists (select 1 from customer_processing_blocks b where b.customer_id = c.id and b.lifted_at is null)`,
  ];
  const membership: SQL[] = [];
  if (audience.programId) membership.push(sql`m.program_id = ${audience.programId}`);
  if (audience.tier) membership.push(sql`m.tier = ${audience.tier}`);
  // Joined on or after the start of that business day.
  if (audience.joinedAfter) membership.push(sql`m.joined_at >= ((${audience.joinedAfter})::date)::timestamp at time zone ${timeZone}`);
  // A merchant's customers: members of a program the merchant takes part in.
  if (audience.merchantId) {
    membership.push(sql`m.program_id in (select pm.program_id from program_merchants pm where pm.merchant_id = ${audience.merchantId})`);
  }
  if (membership.length > 0) {
    parts.push(sql`exists (select 1 from memberships m where m.customer_id = c.id and ${sql.join(membership, sql` and `)})`);
  }
  if (audience.inactiveDays) {
    const cutoff = new Date(now.getTime() - audience.inactiveDays * 86_400_000);
    const inProgram = audience.programId ? sql` and e.program_id = ${audience.programId}` : sql``;
    parts.push(
      sql`not exists (select 1 from ledger_entries e where e.customer_id = c.id and e.source = 'purchase' and e.created_at >= ${cutoff}${inProgram})`,
    );
  }
  if (audience.birthdayMonth) parts.push(sql`extract(month from c.birth_date) = ${audience.birthdayMonth}`);
  return sql.join(parts, sql` and `);
}

export async function countAudience(executor: Executor, condition: SQL): Promise<number> {
  const [row] = await rowsOf<{ count: string | number }>(executor, sql`select count(*) as count from customers c where ${condition}`);
  return Number(row?.count ?? 0);
}

export async function sampleAudience(executor: Executor, condition: SQL, size: number) {
  const rows = await rowsOf<{ id: string; first_name: string; last_name: string; email: string }>(
    executor,
    sql`select c.id, c.first_name, c.last_name, c.email from customers c where ${condition}
        order by c.last_name_key, c.first_name_key, c.id limit ${size}`,
  );
  return rows.map((row) => ({ id: row.id, firstName: row.first_name, lastName: row.last_name, email: row.email }));
}

export async function insertCampaign(
  executor: Executor,
  values: { name: string; subject: string; preheader: string; body: string; audience: CampaignAudience; createdBy: string | null; now: Date },
): Promise<CampaignRow> {
  const [row] = await rowsOf<RawCampaign>(
    executor,
    sql`insert into campaigns (name, subject, preheader, body, audience, created_by, created_at, updated_at)
        values (${values.name}, ${values.subject}, ${values.preheader}, ${values.body}, ${JSON.stringify(values.audience)}::jsonb,
                ${values.createdBy}, ${values.now}, ${values.now})
        returning *`,
  );
  return toCampaignRow(row!);
}

export async function findCampaign(executor: Executor, id: string, options: { forUpdate?: boolean } = {}): Promise<CampaignRow | null> {
  const [row] = await rowsOf<RawCampaign>(
    executor,
    sql`select * from campaigns where id = ${id}${options.forUpdate ? sql` for update` : sql``}`,
  );
  return row ? toCampaignRow(row) : null;
}

/** A campaign's report counts as SQL over `k` (the campaigns row), for the list's sort and its export. */
const recipientsOf = sql`(select count(*) from campaign_recipients r where r.campaign_id = k.id)`;
/** The recipients in one state. A literal, not a parameter: the export may run as a COPY, which takes none; the type keeps it one of ours. */
const recipientsIn = (status: RecipientStatus) =>
  sql`(select count(*) from campaign_recipients r where r.campaign_id = k.id and r.status = ${sql.raw(`'${status}'`)})`;
const sentOf = recipientsIn('sent');
/** The day the list shows: sent, else scheduled, else last changed (a draft). */
const dateOf = sql`coalesce(k.sent_at, k.scheduled_at, k.updated_at)`;

/**
 * The list's sorts (the contract's CAMPAIGN_SORT_FIELDS). The counts are subqueries evaluated only
 * when the list is sorted by them: a campaign list is tens or hundreds of rows, and the recipients'
 * index (campaign_id, status, …) answers each count.
 */
const campaignSorts: SortMap<CampaignSortField> = {
  name: sql`lower(k.name)`,
  status: sql`k.status`,
  date: dateOf,
  recipients: recipientsOf,
  sent: sentOf,
  createdAt: sql`k.created_at`,
};
const tieBreaker = sql`k.id`;

export type CampaignFilter = { q?: string | undefined; status?: CampaignStatus | undefined };

function campaignConditions(filter: CampaignFilter): SQL {
  const parts: SQL[] = [sql`true`];
  if (filter.status) parts.push(sql`k.status = ${filter.status}`);
  if (filter.q) parts.push(sql`k.name ilike ${containsPattern(filter.q)}`);
  return sql.join(parts, sql` and `);
}

/** One page of the list (search, status, sort) and the count of all that match. */
export async function findCampaigns(executor: Executor, query: CampaignFilter & ListParams<CampaignSortField>) {
  const where = campaignConditions(query);
  const order = orderFor(campaignSorts, query.sort, query.order, tieBreaker);
  const [rows, [count]] = await Promise.all([
    rowsOf<RawCampaign>(
      executor,
      sql`select k.* from campaigns k where ${where}
          order by ${sql.join(order, sql`, `)} limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`,
    ),
    rowsOf<{ total: string | number }>(executor, sql`select count(*) as total from campaigns k where ${where}`),
  ]);
  return { rows: rows.map(toCampaignRow), total: Number(count?.total ?? 0) };
}

export function campaignExportColumns(language: Language, timeZone: string): CsvColumns {
  return {
    name: { header: { it: 'Nome', en: 'Name' }, value: csvCell.text(sql`k.name`) },
    subject: { header: { it: 'Oggetto', en: 'Subject' }, value: csvCell.text(sql`k.subject`) },
    status: { header: { it: 'Stato', en: 'Status' }, value: csvCell.label(sql`k.status`, VALUE_LABELS.campaignStatus, language) },
    scheduledAt: { header: { it: 'Programmata per', en: 'Scheduled for' }, value: csvCell.dateTime(sql`k.scheduled_at`, timeZone) },
    sentAt: { header: { it: 'Inviata il', en: 'Sent on' }, value: csvCell.dateTime(sql`k.sent_at`, timeZone) },
    recipients: { header: { it: 'Destinatari', en: 'Recipients' }, value: csvCell.integer(recipientsOf) },
    sent: { header: { it: 'Inviate', en: 'Sent' }, value: csvCell.integer(sentOf) },
    failed: { header: { it: 'Non recapitate', en: 'Not delivered' }, value: csvCell.integer(recipientsIn('failed')) },
    skipped: { header: { it: 'Saltate', en: 'Skipped' }, value: csvCell.integer(recipientsIn('skipped')) },
    unknown: { header: { it: 'Esito sconosciuto', en: 'Outcome unknown' }, value: csvCell.integer(recipientsIn('unknown')) },
    unsubscribed: {
      header: { it: 'Disiscritti', en: 'Unsubscribed' },
      value: csvCell.integer(sql`(select count(r.unsubscribed_at) from campaign_recipients r where r.campaign_id = k.id)`),
    },
    createdAt: { header: { it: 'Creata il', en: 'Created at' }, value: csvCell.dateTime(sql`k.created_at`, timeZone) },
  };
}

/** The export: the list's search, filter and sort, every row, the columns above (c0, c1, …). */
export function campaignExportQuery(columns: CsvColumns, filter: CampaignFilter & { sort: CampaignSortField; order: 'asc' | 'desc' }): SQL {
  const selection = Object.values(columns).map((column, index) => sql`${column.value} as ${sql.raw(`c${index}`)}`);
  const order = orderFor(campaignSorts, filter.sort, filter.order, tieBreaker);
  return sql`select ${sql.join(selection, sql`, `)} from campaigns k where ${campaignConditions(filter)} order by ${sql.join(order, sql`, `)}`;
}

export async function updateCampaignRow(
  executor: Executor,
  id: string,
  changes: Partial<Pick<CampaignRow, 'name' | 'subject' | 'preheader' | 'body' | 'audience' | 'status' | 'scheduledAt' | 'sentAt'>> & { now: Date },
): Promise<void> {
  const sets: SQL[] = [sql`version = version + 1`, sql`updated_at = ${changes.now}`];
  if (changes.name !== undefined) sets.push(sql`name = ${changes.name}`);
  if (changes.subject !== undefined) sets.push(sql`subject = ${changes.subject}`);
  if (changes.preheader !== undefined) sets.push(sql`preheader = ${changes.preheader}`);
  if (changes.body !== undefined) sets.push(sql`body = ${changes.body}`);
  if (changes.audience !== undefined) sets.push(sql`audience = ${JSON.stringify(changes.audience)}::jsonb`);
  if (changes.status !== undefined) sets.push(sql`status = ${changes.status}`);
  if (changes.scheduledAt !== undefined) sets.push(sql`scheduled_at = ${changes.scheduledAt}`);
  if (changes.sentAt !== undefined) sets.push(sql`sent_at = ${changes.sentAt}`);
  await executor.execute(sql`update campaigns set ${sql.join(sets, sql`, `)} where id = ${id}`);
}

const NO_COUNTS: CampaignCounts = { recipients: 0, queued: 0, sent: 0, failed: 0, skipped: 0, unknown: 0, unsubscribed: 0 };

/** The report of each campaign: its recipients by status (`queued` includes those in flight), and unsubscriptions. */
export async function recipientCounts(executor: Executor, ids: string[]): Promise<Map<string, CampaignCounts>> {
  const counts = new Map<string, CampaignCounts>();
  if (ids.length === 0) return counts;
  const rows = await rowsOf<Record<string, string | number>>(
    executor,
    sql`select campaign_id,
               count(*) as recipients,
               count(*) filter (where status in ('queued', 'sending')) as queued,
               count(*) filter (where status = 'sent') as sent,
               count(*) filter (where status = 'failed') as failed,
               count(*) filter (where status = 'skipped') as skipped,
               count(*) filter (where status = 'unknown') as unknown,
               count(unsubscribed_at) as unsubscribed
        from campaign_recipients
        where campaign_id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})
        group by campaign_id`,
  );
  for (const row of rows) {
    counts.set(String(row['campaign_id']), {
      recipients: Number(row['recipients']),
      queued: Number(row['queued']),
      sent: Number(row['sent']),
      failed: Number(row['failed']),
      skipped: Number(row['skipped']),
      unknown: Number(row['unknown']),
      unsubscribed: Number(row['unsubscribed']),
    });
  }
  for (const id of ids) if (!counts.has(id)) counts.set(id, { ...NO_COUNTS });
  return counts;
}

/** Writes one row per recipient the audience reaches now (in the caller's transaction); answers how many. */
export async function queueRecipients(executor: Executor, campaignId: string, condition: SQL): Promise<number> {
  await executor.execute(
    sql`insert into campaign_recipients (campaign_id, customer_id, email)
        select ${campaignId}, c.id, c.email from customers c where ${condition}
        on conflict (campaign_id, customer_id) do nothing`,
  );
  const [row] = await rowsOf<{ count: string | number }>(
    executor,
    sql`select count(*) as count from campaign_recipients where campaign_id = ${campaignId}`,
  );
  return Number(row?.count ?? 0);
}

/** A cancelled campaign's waiting recipients are skipped (those in flight finish). */
export async function skipQueued(executor: Executor, campaignId: string, reason: string): Promise<void> {
  await executor.execute(
    sql`update campaign_recipients set status = 'skipped', last_error = ${reason}
        where campaign_id = ${campaignId} and status = 'queued'`,
  );
}

export type ClaimedRecipient = {
  id: number;
  status: 'sending' | 'skipped';
  customerId: string;
  email: string | null;
  firstName: string;
  /** The customer's language: the footer's words (the body is the campaign's, as written). */
  language: Language;
  token: string;
  attempts: number;
};

/**
 * Claims the next due recipient of a sending campaign, checking the customer's consent at this very
 * moment: with it the row becomes `sending` (with this claim's id, until the lease runs out), without
 * it `skipped`. Null when nothing is due (or the campaign is no longer sending).
 */
export async function claimNextRecipient(executor: Executor, campaignId: string, claimId: string, leaseSeconds: number): Promise<ClaimedRecipient | null> {
  const [row] = await rowsOf<Record<string, unknown>>(
    executor,
    sql`with next as (
          select r.id from campaign_recipients r
          where r.campaign_id = ${campaignId} and r.status = 'queued' and r.next_attempt_at <= now()
            and exists (select 1 from campaigns k where k.id = ${campaignId} and k.status = 'sending')
          order by r.next_attempt_at, r.id
          for update of r skip locked
          limit 1),
        checked as (
          select n.id, c.first_name, c.email, c.language,
                 (c.status = 'active' and c.marketing_consent and c.email is not null
                  and not exists (select 1 from customer_processing_blocks b where b.customer_id = c.id and b.lifted_at is null)) as allowed
          from next n join campaign_recipients r2 on r2.id = n.id join customers c on c.id = r2.customer_id)
        update campaign_recipients r set
          status = case when k.allowed then 'sending' else 'skipped' end,
          attempts = r.attempts + case when k.allowed then 1 else 0 end,
          claim_id = case when k.allowed then ${claimId}::uuid else null end,
          claimed_until = case when k.allowed then now() + make_interval(secs => ${leaseSeconds}::double precision) else null end,
          last_error = case when k.allowed then r.last_error else 'consent_withdrawn' end
        from checked k
        where r.id = k.id
        returning r.id, r.status, r.customer_id, k.email, k.first_name, k.language, r.token, r.attempts`,
  );
  if (!row) return null;
  return {
    id: Number(row['id']),
    status: row['status'] as 'sending' | 'skipped',
    customerId: String(row['customer_id']),
    email: (row['email'] as string | null) ?? null,
    firstName: String(row['first_name'] ?? ''),
    language: row['language'] === 'en' ? 'en' : 'it',
    token: String(row['token']),
    attempts: Number(row['attempts']),
  };
}

/**
 * The outcome of a send, written only by the claim that made it (a row another process already marked
 * `unknown` is corrected to what really happened).
 */
export async function finishRecipient(
  executor: Executor,
  recipient: { id: number; claimId: string },
  outcome: { status: 'sent' } | { status: 'failed'; error: string } | { status: 'queued'; error: string; retryInSeconds: number },
): Promise<void> {
  const error = outcome.status === 'sent' ? null : outcome.error;
  const retry = outcome.status === 'queued' ? outcome.retryInSeconds : 0;
  await executor.execute(
    sql`update campaign_recipients set
          status = ${outcome.status},
          sent_at = case when ${outcome.status} = 'sent' then now() else sent_at end,
          last_error = ${error},
          next_attempt_at = now() + make_interval(secs => ${retry}::double precision),
          claim_id = null, claimed_until = null
        where id = ${recipient.id} and claim_id = ${recipient.claimId}::uuid and status in ('sending', 'unknown')`,
  );
}

/**
 * Recipients still `sending` after their claim ran out: their process died during the SMTP exchange,
 * so the message may or may not have left. They become `unknown` and are never retried by themselves.
 */
export async function markStaleClaimsUnknown(executor: Executor, campaignId: string): Promise<number> {
  const rows = await rowsOf<{ id: string | number }>(
    executor,
    sql`update campaign_recipients set status = 'unknown', last_error = 'in_flight_at_crash', claim_id = null
        where campaign_id = ${campaignId} and status = 'sending' and claimed_until < now()
        returning id`,
  );
  return rows.length;
}

/** What is left to do: recipients still waiting (and the earliest due time), and those in flight. */
export async function pendingWork(executor: Executor, campaignId: string): Promise<{ queued: number; sending: number; nextDueAt: Date | null; claimsEndAt: Date | null }> {
  const [row] = await rowsOf<Record<string, unknown>>(
    executor,
    sql`select count(*) filter (where status = 'queued') as queued,
               count(*) filter (where status = 'sending') as sending,
               min(next_attempt_at) filter (where status = 'queued') as next_due_at,
               max(claimed_until) filter (where status = 'sending') as claims_end_at
        from campaign_recipients where campaign_id = ${campaignId} and status in ('queued', 'sending')`,
  );
  return {
    queued: Number(row?.['queued'] ?? 0),
    sending: Number(row?.['sending'] ?? 0),
    nextDueAt: toDate(row?.['next_due_at']),
    claimsEndAt: toDate(row?.['claims_end_at']),
  };
}

/** The sending is over: the campaign reads `sent` (only from `sending`: a cancellation stays). */
export async function markCampaignSent(executor: Executor, campaignId: string, now: Date): Promise<void> {
  await executor.execute(
    sql`update campaigns set status = 'sent', sent_at = ${now}, updated_at = ${now}, version = version + 1
        where id = ${campaignId} and status = 'sending'`,
  );
}

// ---- Unsubscribe links, a customer's messages, erasure -------------------------------------------

export type RecipientByToken = { id: number; campaignId: string; customerId: string; unsubscribedAt: Date | null };

export async function findRecipientByToken(executor: Executor, token: string): Promise<RecipientByToken | null> {
  const [row] = await rowsOf<Record<string, unknown>>(
    executor,
    sql`select id, campaign_id, customer_id, unsubscribed_at from campaign_recipients where token = ${token}`,
  );
  if (!row) return null;
  return {
    id: Number(row['id']),
    campaignId: String(row['campaign_id']),
    customerId: String(row['customer_id']),
    unsubscribedAt: toDate(row['unsubscribed_at']),
  };
}

export async function markUnsubscribed(executor: Executor, recipientId: number, now: Date): Promise<void> {
  await executor.execute(sql`update campaign_recipients set unsubscribed_at = ${now} where id = ${recipientId} and unsubscribed_at is null`);
}

export async function messagesOfCustomer(executor: Executor, customerId: string) {
  const rows = await rowsOf<Record<string, unknown>>(
    executor,
    sql`select r.campaign_id, k.subject, c.first_name, r.status, r.sent_at, r.unsubscribed_at
        from campaign_recipients r join campaigns k on k.id = r.campaign_id join customers c on c.id = r.customer_id
        where r.customer_id = ${customerId}
        order by coalesce(r.sent_at, k.updated_at) desc, r.id desc
        limit 200`,
  );
  return rows.map((row) => ({
    campaignId: String(row['campaign_id']),
    subject: String(row['subject']),
    firstName: String(row['first_name'] ?? ''),
    status: row['status'] as RecipientStatus,
    sentAt: toDate(row['sent_at']),
    unsubscribedAt: toDate(row['unsubscribed_at']),
  }));
}

/** Erasure: the address kept with each of the customer's messages goes; the rows stay, so the counts still add up. */
export async function eraseRecipientAddresses(executor: Executor, customerId: string): Promise<number> {
  const rows = await rowsOf<{ id: string | number }>(
    executor,
    sql`update campaign_recipients set email = null,
          status = case when status = 'queued' then 'skipped' else status end,
          last_error = case when status = 'queued' then 'customer_erased' else last_error end
        where customer_id = ${customerId} returning id`,
  );
  return rows.length;
}

/** The names of these campaigns (one query). */
export async function campaignNamesByIds(executor: Executor, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await rowsOf<{ id: string; name: string }>(executor, sql`select id, name from campaigns where id in ${ids}`);
  return new Map(rows.map((row) => [row.id, row.name]));
}

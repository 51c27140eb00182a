import { sql, type SQL } from 'drizzle-orm';
import type { RecipientStatus } from '@sf/contract/campaigns';
import type { ServiceEmailKind } from '@sf/contract/service-emails';
import type { Executor } from '../../db/client.ts';

/** Service e-mails' settings and messages (migration 0027). Raw SQL, as the campaigns' sender. */
async function rowsOf<T>(executor: Executor, statement: SQL): Promise<T[]> {
  return ((await executor.execute(statement)) as unknown as { rows: T[] }).rows;
}

const toDate = (value: unknown): Date | null => (value === null || value === undefined ? null : value instanceof Date ? value : new Date(String(value)));

export type SettingRow = { kind: ServiceEmailKind; isEnabled: boolean; subjectIt: string; bodyIt: string; subjectEn: string; bodyEn: string; version: number };

function toSetting(row: Record<string, unknown>): SettingRow {
  return {
    kind: row['kind'] as ServiceEmailKind,
    isEnabled: Boolean(row['is_enabled']),
    subjectIt: String(row['subject_it']),
    bodyIt: String(row['body_it']),
    subjectEn: String(row['subject_en']),
    bodyEn: String(row['body_en']),
    version: Number(row['version']),
  };
}

export async function findSettings(executor: Executor, programId: string): Promise<SettingRow[]> {
  const rows = await rowsOf<Record<string, unknown>>(executor, sql`select * from service_email_settings where program_id = ${programId}`);
  return rows.map(toSetting);
}

export async function findSetting(executor: Executor, programId: string, kind: ServiceEmailKind): Promise<SettingRow | null> {
  const [row] = await rowsOf<Record<string, unknown>>(executor, sql`select * from service_email_settings where program_id = ${programId} and kind = ${kind}`);
  return row ? toSetting(row) : null;
}

/** Writes a program's setting if the version read is still current (0: no row yet). False on a conflict. */
export async function saveSetting(executor: Executor, programId: string, setting: Omit<SettingRow, 'version'>, version: number, now: Date): Promise<boolean> {
  const rows = await rowsOf<{ version: number }>(
    executor,
    version === 0
      ? sql`insert into service_email_settings (program_id, kind, is_enabled, subject_it, body_it, subject_en, body_en, updated_at)
            values (${programId}, ${setting.kind}, ${setting.isEnabled}, ${setting.subjectIt}, ${setting.bodyIt}, ${setting.subjectEn}, ${setting.bodyEn}, ${now})
            on conflict (program_id, kind) do nothing returning version`
      : sql`update service_email_settings set is_enabled = ${setting.isEnabled}, subject_it = ${setting.subjectIt}, body_it = ${setting.bodyIt},
              subject_en = ${setting.subjectEn}, body_en = ${setting.bodyEn}, version = version + 1, updated_at = ${now}
            where program_id = ${programId} and kind = ${setting.kind} and version = ${version} returning version`,
  );
  return rows.length > 0;
}

/** The programs with this kind switched on. */
export async function programsWithEnabled(executor: Executor, kind: ServiceEmailKind): Promise<string[]> {
  const rows = await rowsOf<{ program_id: string }>(executor, sql`select program_id from service_email_settings where kind = ${kind} and is_enabled`);
  return rows.map((row) => row.program_id);
}

/** Queues a message once ever (its dedupe key); answers its id, or null when it was already queued. */
export async function insertMessage(
  executor: Executor,
  values: { customerId: string; programId: string; kind: ServiceEmailKind; dedupeKey: string; facts: Record<string, unknown>; now: Date },
): Promise<number | null> {
  const [row] = await rowsOf<{ id: string | number }>(
    executor,
    sql`insert into service_messages (customer_id, program_id, kind, dedupe_key, facts, created_at, next_attempt_at)
        values (${values.customerId}, ${values.programId}, ${values.kind}, ${values.dedupeKey}, ${JSON.stringify(values.facts)}::jsonb, ${values.now}, ${values.now})
        on conflict (dedupe_key) do nothing returning id`,
  );
  return row ? Number(row.id) : null;
}

/** Welcomes from one program for many customers at once (those with an address); answers the ids queued. */
export async function insertWelcomes(executor: Executor, customerIds: string[], programId: string, now: Date): Promise<number[]> {
  const rows = await rowsOf<{ id: string | number }>(
    executor,
    sql`insert into service_messages (customer_id, program_id, kind, dedupe_key, created_at, next_attempt_at)
        select c.id, ${programId}::uuid, 'welcome', 'welcome:' || c.id::text || ${`:${programId}`}, ${now}, ${now}
        from customers c
        where c.id in (${sql.join(
          customerIds.map((id) => sql`${id}`),
          sql`, `,
        )}) and c.email is not null
        on conflict (dedupe_key) do nothing returning id`,
  );
  return rows.map((row) => Number(row.id));
}

export type ClaimedMessage = {
  id: number;
  status: 'sending' | 'skipped';
  customerId: string;
  programId: string | null;
  kind: ServiceEmailKind;
  facts: Record<string, unknown>;
  /** The customer's language at the claim (kept on the row: the log says what it was written in). */
  language: 'it' | 'en';
  /** The program's texts for this kind, read by the claim (null when it skipped the message). */
  setting: SettingRow | null;
  email: string | null;
  firstName: string;
  lastName: string;
  token: string;
  attempts: number;
};

/**
 * Claims a due message BEFORE its SMTP exchange (decision record 034), checking at this moment, in
 * this one statement, the program's switch for the kind (off since it was queued: `switched_off`) and
 * the customer: service consent, an address, active, no processing block in force → `sending` with
 * this claim's id until the lease runs out, with the program's texts and the customer's language;
 * otherwise `skipped` with the reason. Null: not due, or not queued.
 */
export async function claimMessage(executor: Executor, id: number, claimId: string, leaseSeconds: number): Promise<ClaimedMessage | null> {
  const [row] = await rowsOf<Record<string, unknown>>(
    executor,
    sql`with next as (
          select s.id from service_messages s
          where s.id = ${id} and s.status = 'queued' and s.next_attempt_at <= now()
          for update of s skip locked),
        checked as (
          select n.id, c.first_name, c.last_name, c.email, c.language, e.is_enabled, e.kind as setting_kind,
                 e.subject_it, e.body_it, e.subject_en, e.body_en, e.version as setting_version,
                 case when s2.program_id is null then 'program_deleted'
                      when not coalesce(e.is_enabled, false) then 'switched_off'
                      when c.status <> 'active' then 'customer_' || c.status
                      when not c.service_consent then 'no_service_consent'
                      when c.email is null then 'no_address'
                      when exists (select 1 from customer_processing_blocks b where b.customer_id = c.id and b.lifted_at is null) then 'processing_block'
                 end as refusal
          from next n join service_messages s2 on s2.id = n.id join customers c on c.id = s2.customer_id
            left join service_email_settings e on e.program_id = s2.program_id and e.kind = s2.kind)
        update service_messages s set
          status = case when k.refusal is null then 'sending' else 'skipped' end,
          attempts = s.attempts + case when k.refusal is null then 1 else 0 end,
          claim_id = case when k.refusal is null then ${claimId}::uuid else null end,
          claimed_until = case when k.refusal is null then now() + make_interval(secs => ${leaseSeconds}::double precision) else null end,
          email = case when k.refusal is null then k.email else null end,
          language = k.language,
          last_error = k.refusal
        from checked k
        where s.id = k.id
        returning s.id, s.status, s.customer_id, s.program_id, s.kind, s.facts, s.language, k.email, k.first_name, k.last_name, s.token, s.attempts,
          k.is_enabled, k.setting_kind, k.subject_it, k.body_it, k.subject_en, k.body_en, k.setting_version`,
  );
  if (!row) return null;
  const facts = typeof row['facts'] === 'string' ? JSON.parse(row['facts']) : row['facts'];
  return {
    id: Number(row['id']),
    status: row['status'] as 'sending' | 'skipped',
    customerId: String(row['customer_id']),
    programId: (row['program_id'] as string | null) ?? null,
    kind: row['kind'] as ServiceEmailKind,
    facts: (facts ?? {}) as Record<string, unknown>,
    language: row['language'] === 'en' ? 'en' : 'it',
    setting: row['status'] === 'sending' && row['setting_kind'] ? toSetting({ ...row, kind: row['setting_kind'], version: row['setting_version'] }) : null,
    email: (row['email'] as string | null) ?? null,
    firstName: String(row['first_name'] ?? ''),
    lastName: String(row['last_name'] ?? ''),
    token: String(row['token']),
    attempts: Number(row['attempts']),
  };
}

/** A message still `sending` after its claim ran out: its process died mid-exchange. It becomes `unknown`, never retried by itself. */
export async function markStaleUnknown(executor: Executor, id: number): Promise<boolean> {
  const rows = await rowsOf<{ id: unknown }>(
    executor,
    sql`update service_messages set status = 'unknown', last_error = 'in_flight_at_crash', claim_id = null
        where id = ${id} and status = 'sending' and claimed_until < now() returning id`,
  );
  return rows.length > 0;
}

/** The outcome, written only by the claim that made it; the texts sent are kept for the message log. */
export async function finishMessage(
  executor: Executor,
  message: { id: number; claimId: string },
  outcome:
    | { status: 'sent'; subject: string; text: string }
    | { status: 'failed'; error: string; subject: string; text: string }
    | { status: 'queued'; error: string; retryInSeconds: number }
    | { status: 'skipped'; error: string },
): Promise<void> {
  const subject = outcome.status === 'sent' || outcome.status === 'failed' ? outcome.subject : null;
  const text = outcome.status === 'sent' || outcome.status === 'failed' ? outcome.text : null;
  const error = outcome.status === 'sent' ? null : outcome.error;
  const retry = outcome.status === 'queued' ? outcome.retryInSeconds : 0;
  await executor.execute(
    sql`update service_messages set
          status = ${outcome.status},
          sent_at = case when ${outcome.status} = 'sent' then now() else sent_at end,
          subject = coalesce(${subject}, subject), body_text = coalesce(${text}, body_text),
          last_error = ${error},
          next_attempt_at = now() + make_interval(secs => ${retry}::double precision),
          claim_id = null, claimed_until = null
        where id = ${message.id} and claim_id = ${message.claimId}::uuid and status in ('sending', 'unknown')`,
  );
}

export type LoggedMessage = { id: number; kind: ServiceEmailKind; subject: string | null; status: RecipientStatus; sentAt: Date | null; createdAt: Date };

export async function messagesOfCustomer(executor: Executor, customerId: string): Promise<LoggedMessage[]> {
  const rows = await rowsOf<Record<string, unknown>>(
    executor,
    sql`select id, kind, subject, status, sent_at, created_at from service_messages where customer_id = ${customerId}
        order by coalesce(sent_at, created_at) desc, id desc limit 200`,
  );
  return rows.map((row) => ({
    id: Number(row['id']),
    kind: row['kind'] as ServiceEmailKind,
    subject: (row['subject'] as string | null) ?? null,
    status: row['status'] as RecipientStatus,
    sentAt: toDate(row['sent_at']),
    createdAt: toDate(row['created_at'])!,
  }));
}

/** Erasure: the address and the texts go; a message still waiting is never sent. */
export async function eraseMessagesOf(executor: Executor, customerId: string): Promise<number> {
  const rows = await rowsOf<{ id: unknown }>(
    executor,
    sql`update service_messages set email = null, subject = null, body_text = null, facts = '{}'::jsonb,
          status = case when status = 'queued' then 'skipped' else status end,
          last_error = case when status = 'queued' then 'customer_erased' else last_error end
        where customer_id = ${customerId} returning id`,
  );
  return rows.length;
}

export async function findMessageByToken(executor: Executor, token: string): Promise<{ id: number; customerId: string } | null> {
  const [row] = await rowsOf<Record<string, unknown>>(executor, sql`select id, customer_id from service_messages where token = ${token}`);
  return row ? { id: Number(row['id']), customerId: String(row['customer_id']) } : null;
}

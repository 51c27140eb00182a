import { sql, type SQLWrapper } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';

/** The wallet's SQL (migration 0024). It joins the memberships, customers and programs tables; it never writes them. */
type Row = Record<string, unknown>;

async function rows<T = Row>(executor: Executor, query: SQLWrapper): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const toDate = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)));

/** What a pass, the Google object and the card page show of a membership. */
export type WalletMember = {
  membershipId: string;
  customerId: string;
  customerStatus: string;
  firstName: string;
  lastName: string;
  programId: string;
  programName: string;
  programType: 'points' | 'stamps';
  programStatus: string;
  stampsRequired: number | null;
  balance: number;
  stamps: number;
  tier: string | null;
  backgroundColor: string | null;
  foregroundColor: string | null;
  logo: string | null;
  terms: string | null;
  /** The state_digest of what is shown now (see stateDigestSql). */
  digest: string;
};

/**
 * One SQL definition of "what a pass shows", compared by the sync job with what the pass showed when
 * it was last built: a change of balance, stamps, tier, the customer's status, name or card code
 * version, or the program's look, gives a different digest. m, c, pr: memberships, customers, programs.
 */
const stateDigestSql = sql`md5(concat_ws('|', m.balance, m.stamps, coalesce(m.tier, ''), c.status, c.card_code_version,
  c.first_name, c.last_name, pr.name, pr.status, coalesce(pr.wallet_background_color, ''), coalesce(pr.wallet_foreground_color, ''),
  md5(coalesce(pr.wallet_logo, '')), md5(coalesce(pr.terms, ''))))`;

function toMember(row: Row): WalletMember {
  return {
    membershipId: String(row['membership_id']),
    customerId: String(row['customer_id']),
    customerStatus: String(row['customer_status']),
    firstName: String(row['first_name']),
    lastName: String(row['last_name']),
    programId: String(row['program_id']),
    programName: String(row['program_name']),
    programType: row['program_type'] as 'points' | 'stamps',
    programStatus: String(row['program_status']),
    stampsRequired: row['stamps_required'] === null ? null : Number(row['stamps_required']),
    balance: Number(row['balance']),
    stamps: Number(row['stamps']),
    tier: (row['tier'] as string | null) ?? null,
    backgroundColor: (row['wallet_background_color'] as string | null) ?? null,
    foregroundColor: (row['wallet_foreground_color'] as string | null) ?? null,
    logo: (row['wallet_logo'] as string | null) ?? null,
    terms: (row['terms'] as string | null) ?? null,
    digest: String(row['digest']),
  };
}

export async function findWalletMember(executor: Executor, membershipId: string): Promise<WalletMember | null> {
  const [row] = await rows(
    executor,
    sql`select m.id as membership_id, m.customer_id, c.status as customer_status, c.first_name, c.last_name,
          pr.id as program_id, pr.name as program_name, pr.type as program_type, pr.status as program_status, pr.stamps_required,
          m.balance, m.stamps, m.tier, pr.wallet_background_color, pr.wallet_foreground_color, pr.wallet_logo, pr.terms,
          ${stateDigestSql} as digest
        from memberships m join customers c on c.id = m.customer_id join programs pr on pr.id = m.program_id
        where m.id = ${membershipId}`,
  );
  return row ? toMember(row) : null;
}

/** The signs of the program's merchants, for the pass's back. */
export async function merchantNamesOf(executor: Executor, programId: string): Promise<string[]> {
  const result = await rows(
    executor,
    sql`select coalesce(nullif(me.sign_name, ''), me.legal_name) as name from program_merchants pm
        join merchants me on me.id = pm.merchant_id where pm.program_id = ${programId} order by 1 limit 50`,
  );
  return result.map((row) => String(row['name']));
}

/** Vouchers the customer holds in the program and can still use, soonest to expire first. */
export async function usableVouchersOf(executor: Executor, customerId: string, programId: string, today: string) {
  const result = await rows(
    executor,
    sql`select v.code, r.name, r.valid_until from vouchers v join rewards r on r.id = v.reward_id
        where v.customer_id = ${customerId} and r.program_id = ${programId} and v.status = 'issued'
          and (r.valid_until is null or r.valid_until >= ${today}::date)
        order by r.valid_until nulls last, v.id limit 20`,
  );
  return result.map((row) => ({
    code: String(row['code']),
    name: String(row['name']),
    validUntil: row['valid_until'] === null ? null : toDate(row['valid_until']).toISOString().slice(0, 10),
  }));
}

// ---- Card links ----

export async function findCardLink(executor: Executor, membershipId: string, options: { forUpdate?: boolean } = {}) {
  const [row] = await rows(
    executor,
    sql`select version, token_hash is not null as is_live from wallet_card_links where membership_id = ${membershipId}
        ${options.forUpdate ? sql`for update` : sql``}`,
  );
  return row ? { version: Number(row['version']), isLive: Boolean(row['is_live']) } : null;
}

export async function saveCardLink(executor: Executor, membershipId: string, version: number, tokenHash: Buffer, now: Date): Promise<void> {
  await executor.execute(
    sql`insert into wallet_card_links (membership_id, version, token_hash, created_at) values (${membershipId}, ${version}, ${tokenHash}, ${now})
        on conflict (membership_id) do update set version = excluded.version, token_hash = excluded.token_hash,
          created_at = excluded.created_at, revoked_at = null`,
  );
}

export async function membershipOfTokenHash(executor: Executor, tokenHash: Buffer): Promise<string | null> {
  const [row] = await rows(executor, sql`select membership_id from wallet_card_links where token_hash = ${tokenHash}`);
  return row ? String(row['membership_id']) : null;
}

/** Blocking or erasing: every link of the customer stops answering (the next one is a new version). */
export async function revokeCardLinksOf(executor: Executor, customerId: string, now: Date): Promise<number> {
  const result = await rows(
    executor,
    sql`update wallet_card_links l set token_hash = null, revoked_at = ${now}
        from memberships m where m.id = l.membership_id and m.customer_id = ${customerId} and l.token_hash is not null
        returning l.membership_id`,
  );
  return result.length;
}

// ---- Passes ----

export type PassRow = {
  membershipId: string;
  serialNumber: string;
  authVersion: number;
  updateTag: number;
  updatedAt: Date;
  isVoided: boolean;
  hasGoogleObject: boolean;
};

function toPass(row: Row): PassRow {
  return {
    membershipId: String(row['membership_id']),
    serialNumber: String(row['serial_number']),
    authVersion: Number(row['auth_version']),
    updateTag: Number(row['update_tag']),
    updatedAt: toDate(row['updated_at']),
    isVoided: Boolean(row['is_voided']),
    hasGoogleObject: Boolean(row['has_google_object']),
  };
}

const passColumns = sql`membership_id, serial_number, auth_version, update_tag, updated_at, is_voided, has_google_object`;

/**
 * The membership's pass, created on first use with the digest of what it shows now (so the sync job
 * does not count its creation as a change). `google`: a Google object is being issued too.
 */
export async function ensurePass(executor: Executor, membershipId: string, digest: string, now: Date, options: { google?: boolean } = {}): Promise<PassRow> {
  const [row] = await rows(
    executor,
    sql`insert into wallet_passes (membership_id, state_digest, updated_at, created_at, has_google_object)
        values (${membershipId}, ${digest}, ${now}, ${now}, ${options.google ?? false})
        on conflict (membership_id) do update set has_google_object = wallet_passes.has_google_object or excluded.has_google_object
        returning ${passColumns}`,
  );
  if (!row) throw new Error('pass upsert returned no row');
  return toPass(row);
}

export async function findPassBySerial(executor: Executor, serialNumber: string): Promise<PassRow | null> {
  if (!/^[0-9a-f-]{36}$/i.test(serialNumber)) return null;
  const [row] = await rows(executor, sql`select ${passColumns} from wallet_passes where serial_number = ${serialNumber}`);
  return row ? toPass(row) : null;
}

export async function findPass(executor: Executor, membershipId: string): Promise<PassRow | null> {
  const [row] = await rows(executor, sql`select ${passColumns} from wallet_passes where membership_id = ${membershipId}`);
  return row ? toPass(row) : null;
}

/**
 * The sync: every pass whose membership shows something else than when it was last built gets the
 * new digest, a new update tag and time, and `is_voided` when its customer is no longer active.
 * Reads the memberships without locking them: a ledger write never waits for it.
 */
export async function markChangedPasses(executor: Executor, now: Date, limit: number) {
  const result = await rows(
    executor,
    sql`with current as (
          select p.membership_id, ${stateDigestSql} as digest, c.status <> 'active' as is_void
          from wallet_passes p join memberships m on m.id = p.membership_id
          join customers c on c.id = m.customer_id join programs pr on pr.id = m.program_id
          where not p.is_voided and p.state_digest is distinct from ${stateDigestSql}
          limit ${limit})
        update wallet_passes p set state_digest = current.digest, update_tag = nextval('wallet_pass_update_seq'),
          updated_at = ${now}, is_voided = p.is_voided or current.is_void
        from current where p.membership_id = current.membership_id
        returning p.membership_id, p.serial_number, p.update_tag, p.has_google_object`,
  );
  return result.map((row) => ({
    membershipId: String(row['membership_id']),
    serialNumber: String(row['serial_number']),
    updateTag: Number(row['update_tag']),
    hasGoogleObject: Boolean(row['has_google_object']),
  }));
}

/**
 * Blocking or erasing: the customer's passes are void at once, with a new tag (the devices fetch the
 * voided pass), their digest cleared so the sync never brings them back. Answers the passes.
 */
export async function voidPassesOf(executor: Executor, customerId: string, now: Date) {
  const result = await rows(
    executor,
    sql`update wallet_passes p set is_voided = true, state_digest = 'void', update_tag = nextval('wallet_pass_update_seq'), updated_at = ${now}
        from memberships m where m.id = p.membership_id and m.customer_id = ${customerId}
        returning p.membership_id, p.serial_number, p.update_tag, p.has_google_object`,
  );
  return result.map((row) => ({
    membershipId: String(row['membership_id']),
    serialNumber: String(row['serial_number']),
    updateTag: Number(row['update_tag']),
    hasGoogleObject: Boolean(row['has_google_object']),
  }));
}

// ---- Devices (the PassKit web service) ----

/** true: a new registration; false: known (its push token refreshed). */
export async function register(executor: Executor, deviceLibraryId: string, serialNumber: string, pushToken: string, now: Date): Promise<boolean> {
  const [row] = await rows(
    executor,
    sql`insert into wallet_registrations (device_library_id, serial_number, push_token, created_at)
        values (${deviceLibraryId}, ${serialNumber}, ${pushToken}, ${now})
        on conflict (device_library_id, serial_number) do update set push_token = excluded.push_token
        returning (xmax = 0) as is_new`,
  );
  // A device has one push token: every pass it registered for now uses the latest.
  await executor.execute(sql`update wallet_registrations set push_token = ${pushToken} where device_library_id = ${deviceLibraryId} and push_token <> ${pushToken}`);
  return Boolean(row?.['is_new']);
}

export async function unregister(executor: Executor, deviceLibraryId: string, serialNumber: string): Promise<boolean> {
  const result = await rows(
    executor,
    sql`delete from wallet_registrations where device_library_id = ${deviceLibraryId} and serial_number = ${serialNumber} returning 1`,
  );
  return result.length > 0;
}

/** Serials of the device's passes updated after `sinceTag` (all when null), and the newest tag. */
export async function serialsUpdatedSince(executor: Executor, deviceLibraryId: string, sinceTag: number | null) {
  const result = await rows(
    executor,
    sql`select p.serial_number, p.update_tag from wallet_registrations r join wallet_passes p on p.serial_number = r.serial_number
        where r.device_library_id = ${deviceLibraryId} ${sinceTag === null ? sql`` : sql`and p.update_tag > ${sinceTag}`}
        order by p.update_tag`,
  );
  return result.map((row) => ({ serialNumber: String(row['serial_number']), updateTag: Number(row['update_tag']) }));
}

/** The distinct push tokens of the devices registered for these passes. */
export async function pushTokensOf(executor: Executor, serialNumbers: string[]): Promise<string[]> {
  if (serialNumbers.length === 0) return [];
  const result = await rows(
    executor,
    sql`select distinct push_token from wallet_registrations
        where serial_number in (${sql.join(serialNumbers.map((serial) => sql`${serial}::uuid`), sql`, `)}) order by 1`,
  );
  return result.map((row) => String(row['push_token']));
}

/**
 * Blocking or erasing: the devices of the customer's passes are forgotten after `forgetAfter`, time
 * enough for them to fetch the voided pass (a device asks once pushed; several devices may share a pass).
 */
export async function scheduleForgettingDevicesOf(executor: Executor, customerId: string, forgetAfter: Date): Promise<number> {
  const result = await rows(
    executor,
    sql`update wallet_registrations r set forget_after = ${forgetAfter} from wallet_passes p, memberships m
        where p.serial_number = r.serial_number and m.id = p.membership_id and m.customer_id = ${customerId} returning 1`,
  );
  return result.length;
}

export async function forgetDueDevices(executor: Executor, now: Date): Promise<number> {
  const result = await rows(executor, sql`delete from wallet_registrations where forget_after <= ${now} returning 1`);
  return result.length;
}

/** A voided pass of a customer who is active again: a new pass (new serial; the old devices go with the old row). */
export async function dropPass(executor: Executor, membershipId: string): Promise<void> {
  await executor.execute(sql`delete from wallet_passes where membership_id = ${membershipId}`);
}

/** A push token APNs said is gone (410): the device no longer wants any pass's updates. */
export async function forgetPushToken(executor: Executor, pushToken: string): Promise<void> {
  await executor.execute(sql`delete from wallet_registrations where push_token = ${pushToken}`);
}

// ---- Update jobs (the shared jobs table; src/lib/job-runner.ts runs them) ----

/**
 * One APNs push per device for a batch of changed passes, in the caller's transaction (so a push is
 * queued exactly when the change commits). The dedupe key carries the batch's newest tag: the same
 * device gets one push for all its passes that changed together.
 */
export async function queuePushes(executor: Executor, serialNumbers: string[], batchTag: number): Promise<number> {
  if (serialNumbers.length === 0) return 0;
  const result = await rows(
    executor,
    sql`insert into jobs (kind, dedupe_key, payload)
        select 'wallet.apns', 'wallet.apns:' || push_token || ':' || ${String(batchTag)}, jsonb_build_object('pushToken', push_token)
        from (select distinct push_token from wallet_registrations
              where serial_number in (${sql.join(serialNumbers.map((serial) => sql`${serial}::uuid`), sql`, `)})) tokens
        on conflict (dedupe_key) do nothing returning 1`,
  );
  return result.length;
}

/** One Google Wallet patch per changed membership that has a Google object. */
export async function queueGooglePatches(executor: Executor, changes: { membershipId: string; updateTag: number }[]): Promise<number> {
  if (changes.length === 0) return 0;
  const result = await rows(
    executor,
    sql`insert into jobs (kind, dedupe_key, payload)
        values ${sql.join(
          changes.map((change) => sql`('wallet.google', ${`wallet.google:${change.membershipId}:${change.updateTag}`}, ${JSON.stringify({ membershipId: change.membershipId })}::jsonb)`),
          sql`, `,
        )}
        on conflict (dedupe_key) do nothing returning 1`,
  );
  return result.length;
}

/** The program's logo (a data: URL, or null when it has none); undefined for an unknown program. */
export async function findProgramLogo(executor: Executor, programId: string): Promise<string | null | undefined> {
  const [row] = await rows(executor, sql`select wallet_logo from programs where id = ${programId}`);
  return row ? ((row['wallet_logo'] as string | null) ?? null) : undefined;
}

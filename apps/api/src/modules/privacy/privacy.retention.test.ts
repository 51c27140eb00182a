import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestContext } from '../../../test/helper.ts';
import { startBackgroundJobs } from '../../jobs.ts';
import { depsOf, type Caller } from '../../lib/caller.ts';
import { createCustomer, recordConsent } from '../customers/customers.service.ts';
import { verifyLedger } from '../ledger/ledger.verify.ts';

let now = new Date('2024-01-15T09:00:00Z');
const ctx = await createTestContext({ clock: { now: () => now } });

describe('the retention purge (profiling after 12 months, marketing after 24 from the last consent)', () => {
  // The fake clock jumps years: the services are called directly (a session would end meanwhile).
  let caller: Caller;
  beforeAll(async () => {
    const [admin] = await rows<{ id: string }>(sql`select id from users where email = 'admin@demo.test'`);
    caller = { actor: { id: admin!.id, email: 'admin@demo.test' }, userId: admin!.id, language: 'it' };
  });
  afterAll(() => ctx.close());

  const rows = async <T>(query: ReturnType<typeof sql>) => ((await ctx.app.db.execute(query)) as unknown as { rows: T[] }).rows;
  const yes = { granted: true, channel: 'counter', noticeVersion: '2024-01' };

  async function customer(lastName: string, consents: Record<string, unknown>) {
    return (await createCustomer(depsOf(ctx.app), caller, { firstName: 'Anna', lastName, consents } as never)).id;
  }
  const flags = async (id: string) =>
    (await rows<{ marketing_consent: boolean; profiling_consent: boolean }>(sql`select marketing_consent, profiling_consent from customers where id = ${id}`))[0];

  it('withdraws lapsed consents with a record, reports what it purged, and runs once per day through the job runner', async () => {
    const old = await customer('Vecchi', { service: yes, marketing: yes, profiling: yes });
    now = new Date('2025-03-01T09:00:00Z');
    const renewed = await customer('Rinnovati', { service: yes, marketing: yes, profiling: yes });
    // 13 months after the first customer's consents: profiling has lapsed for them only.
    now = new Date('2025-02-16T09:00:00Z');
    const runner = startBackgroundJobs(ctx.app, { isAutomatic: false });
    expect(await runner.tick()).toBeGreaterThanOrEqual(1);
    expect(await flags(old)).toEqual({ marketing_consent: true, profiling_consent: false });
    expect(await flags(renewed)).toEqual({ marketing_consent: true, profiling_consent: true });
    const [job] = await rows<{ result: { purposes: Record<string, { purged: number; customerIds: string[] }> } }>(
      sql`select result from jobs where dedupe_key = 'privacy.retention:2025-02-16'`,
    );
    expect(job?.result.purposes['profiling']).toMatchObject({ purged: 1, customerIds: [old] });
    expect(job?.result.purposes['marketing']).toMatchObject({ purged: 0 });
    expect(await runner.tick()).toBe(0);

    // 25 months: marketing lapses too; profiling, given again just now, stays.
    now = new Date('2026-02-20T09:00:00Z');
    await recordConsent(depsOf(ctx.app), caller, old, { purpose: 'profiling', granted: true, channel: 'app', noticeVersion: '2026-01' });
    expect(await runner.tick()).toBeGreaterThanOrEqual(1);
    expect(await flags(old)).toEqual({ marketing_consent: false, profiling_consent: true });
    // Their consents are 11 months old: nothing lapses yet.
    expect(await flags(renewed)).toEqual({ marketing_consent: true, profiling_consent: true });
    const history = await rows<{ purpose: string; granted: boolean; channel: string; notice_version: string; recorded_by: string | null }>(
      sql`select purpose, granted, channel, notice_version, recorded_by from customer_consents where customer_id = ${old} and notice_version = 'retention' order by id`,
    );
    // The platform withdrew them, not a person at the back-office: channel `system`, recorded by nobody.
    expect(history).toEqual([
      { purpose: 'profiling', granted: false, channel: 'system', notice_version: 'retention', recorded_by: null },
      { purpose: 'marketing', granted: false, channel: 'system', notice_version: 'retention', recorded_by: null },
    ]);
    // As the customer's page reads them: the current state and the history.
    const token = await ctx.tokenFor('admin@demo.test');
    const read = await ctx.request({ method: 'GET', url: `/api/admin/customers/${old}`, token });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().consents.marketing).toMatchObject({ granted: false, channel: 'system', noticeVersion: 'retention' });
    const answered = await ctx.request({ method: 'GET', url: `/api/admin/customers/${old}/consents`, token });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json().items[0]).toMatchObject({ purpose: 'marketing', granted: false, channel: 'system', noticeVersion: 'retention' });
    const audits = await rows<{ after: { purposes: Record<string, { purged: number }> } }>(
      sql`select after from audit_log where action = 'retention_purge' order by id`,
    );
    expect(audits.map((audit) => [audit.after.purposes['profiling']?.purged, audit.after.purposes['marketing']?.purged])).toEqual([
      [1, 0],
      [0, 1],
    ]);
    // The purge's withdrawals and flags agree: each customer's current consents = its latest records.
    expect(await verifyLedger(ctx.app.db)).toEqual([]);
    await runner.stop();
  });

  it("moves the purge's earlier withdrawals to the system channel, and leaves a person's back-office ones (migration 0032)", async () => {
    const id = await customer('Prima', { service: yes, marketing: yes, profiling: yes });
    // As the purge wrote them before, and a withdrawal an operator recorded at the back-office.
    await ctx.app.db.execute(
      sql`insert into customer_consents (customer_id, purpose, granted, channel, notice_version, at, recorded_by)
          values (${id}, 'profiling', false, 'back-office', 'retention', ${now}, null),
                 (${id}, 'marketing', false, 'back-office', '2024-01', ${now}, ${caller.userId})`,
    );
    const migration = await readFile(path.join(import.meta.dirname, '../../db/migrations/0032_consent_channel_system.sql'), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint')) await ctx.app.db.execute(sql.raw(statement));
    const records = await rows<{ purpose: string; channel: string }>(
      sql`select purpose, channel from customer_consents where customer_id = ${id} and not granted order by id`,
    );
    expect(records).toEqual([
      { purpose: 'profiling', channel: 'system' },
      { purpose: 'marketing', channel: 'back-office' },
    ]);
  });

  it('keeps the system channel for the purge itself: staff cannot record it', async () => {
    const id = await customer('Mano', { service: yes });
    const token = await ctx.tokenFor('admin@demo.test');
    const response = await ctx.request({
      method: 'POST',
      url: `/api/admin/customers/${id}/consents`,
      token,
      payload: { purpose: 'marketing', granted: false, channel: 'system', noticeVersion: '2026-01' },
    });
    expect(response.statusCode).toBe(400);
  });
});

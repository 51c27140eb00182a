import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture } from '../../../test/ledger-fixtures.ts';
import { campaignDepsOf } from './campaigns.deps.ts';
import { claimNextRecipient } from './campaigns.repository.ts';
import { runCampaignSlice, type CampaignDeps } from './campaigns.service.ts';

/**
 * The sender's rules, with a real SMTP server that answers as real ones do: a temporary refusal (451)
 * is retried later with backoff, a permanent one (550) fails with the server's answer, a send in
 * flight when its process died ends `unknown` and is never sent again, and the pace holds.
 */
describe('sending a campaign', () => {
  let ctx: TestContext;
  let server: SMTPServer;
  let smtpUrl = '';
  /** Addresses the server accepted a message for, in order. */
  const delivered: string[] = [];
  /** How many times each address was offered. */
  const offered = new Map<string, number>();
  let token = '';
  let deps: CampaignDeps;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        const to = address.address.toLowerCase();
        const times = (offered.get(to) ?? 0) + 1;
        offered.set(to, times);
        if (to.startsWith('gone')) return callback(Object.assign(new Error('5.1.1 Mailbox does not exist'), { responseCode: 550 }));
        if (to.startsWith('busy') && times === 1) return callback(Object.assign(new Error('4.2.1 Mailbox busy, try later'), { responseCode: 451 }));
        callback();
      },
      onData(stream, session, callback) {
        stream.on('data', () => undefined);
        stream.on('end', () => {
          for (const rcpt of session.envelope.rcptTo) delivered.push(rcpt.address.toLowerCase());
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    smtpUrl = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
    ctx = await createTestContext({ env: { SMTP_URL: smtpUrl, CAMPAIGN_RATE_PER_MINUTE: '60000', CAMPAIGN_LEASE_SECONDS: '30' } });
    token = await ctx.tokenFor('admin@demo.test');
    deps = campaignDepsOf(ctx.app);
  });
  afterAll(async () => {
    await ctx.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** A program whose members are these addresses (all consenting), and a campaign to it, sent. */
  async function sendingCampaign(addresses: string[]) {
    const fx = await createLedgerFixture(ctx.app.db, { customers: 0 });
    for (const address of addresses) {
      const id = randomUUID();
      await ctx.app.db.execute(
        sql`insert into customers (id, first_name, last_name, email, card_number, referral_code, marketing_consent)
            values (${id}, 'Prova', 'Invio', ${address}, ${String(Math.floor(Math.random() * 1e13)).padStart(13, '0')}, ${`S${randomUUID().slice(0, 8)}`}, true)`,
      );
      await ctx.app.db.execute(sql`insert into memberships (customer_id, program_id) values (${id}, ${fx.pointsProgramId})`);
    }
    const created = await ctx.request({
      method: 'POST',
      url: '/api/admin/campaigns',
      token,
      payload: { name: 'Invio', subject: 'Ciao {{nome}}', body: '<p>Offerta</p>', audience: { programId: fx.pointsProgramId } },
    });
    const { id } = created.json() as { id: string };
    const sent = await ctx.request({ method: 'POST', url: `/api/admin/campaigns/${id}/send`, token, payload: {} });
    expect(sent.statusCode, sent.body).toBe(200);
    return { id, version: (sent.json() as { version: number }).version };
  }

  const recipientRows = async (campaignId: string) =>
    (
      (await ctx.app.db.execute(
        sql`select email, status, attempts, last_error, next_attempt_at > now() + interval '20 seconds' as is_later
            from campaign_recipients where campaign_id = ${campaignId} order by email`,
      )) as unknown as { rows: { email: string; status: string; attempts: number; last_error: string | null; is_later: boolean }[] }
    ).rows;

  it('retries a temporary refusal later, with backoff, and fails a permanent one with the SMTP answer', async () => {
    const campaign = await sendingCampaign(['busy@example.it', 'gone@example.it', 'ok@example.it']);
    await runCampaignSlice(deps, { campaignId: campaign.id, version: campaign.version, slice: 0 });
    let rows = await recipientRows(campaign.id);
    expect(rows).toMatchObject([
      { email: 'busy@example.it', status: 'queued', attempts: 1, is_later: true },
      { email: 'gone@example.it', status: 'failed', attempts: 1 },
      { email: 'ok@example.it', status: 'sent', attempts: 1 },
    ]);
    expect(rows[0]!.last_error).toContain('451');
    expect(rows[1]!.last_error).toContain('550');
    // The next slice waits for the retry, as a job due then.
    const next = (await ctx.app.db.execute(
      sql`select run_at > now() + interval '20 seconds' as is_later from jobs where dedupe_key = ${`campaign-send:${campaign.id}:v${campaign.version}:1`}`,
    )) as unknown as { rows: { is_later: boolean }[] };
    expect(next.rows).toEqual([{ is_later: true }]);

    // Time passes: the retry is due.
    await ctx.app.db.execute(sql`update campaign_recipients set next_attempt_at = now() where campaign_id = ${campaign.id} and status = 'queued'`);
    await runCampaignSlice(deps, { campaignId: campaign.id, version: campaign.version, slice: 1 });
    rows = await recipientRows(campaign.id);
    expect(rows[0]).toMatchObject({ email: 'busy@example.it', status: 'sent', attempts: 2 });
    expect(delivered.filter((a) => a === 'busy@example.it')).toHaveLength(1);
    expect(delivered.filter((a) => a === 'gone@example.it')).toHaveLength(0);
    const report = await ctx.request({ method: 'GET', url: `/api/admin/campaigns/${campaign.id}`, token });
    expect(report.json()).toMatchObject({ status: 'sent', counts: { recipients: 3, sent: 2, failed: 1, queued: 0 } });
  });

  it("queues the next slice at the app's clock, not the machine's", async () => {
    const campaign = await sendingCampaign(['busy-clock@example.it']);
    // The app's clock an hour ahead (as a test that jumps days does): the retry's slice is due by it.
    const ahead = new Date(Date.now() + 3_600_000);
    await runCampaignSlice({ ...deps, clock: { now: () => ahead } }, { campaignId: campaign.id, version: campaign.version, slice: 0 });
    const next = (await ctx.app.db.execute(
      sql`select run_at from jobs where dedupe_key = ${`campaign-send:${campaign.id}:v${campaign.version}:1`}`,
    )) as unknown as { rows: { run_at: Date | string }[] };
    expect(new Date(next.rows[0]!.run_at).getTime()).toBe(ahead.getTime());
  });

  it('settles a send that was in flight when its process died as unknown, and never sends it again', async () => {
    const campaign = await sendingCampaign(['crash1@example.it', 'crash2@example.it']);
    // A process claimed the first recipient, then died before settling it; its claim has run out.
    const claimed = await claimNextRecipient(ctx.app.db, campaign.id, randomUUID(), 30);
    expect(claimed?.email).toBe('crash1@example.it');
    await ctx.app.db.execute(sql`update campaign_recipients set claimed_until = now() - interval '1 second' where id = ${claimed!.id}`);

    await runCampaignSlice(deps, { campaignId: campaign.id, version: campaign.version, slice: 0 });
    const rows = await recipientRows(campaign.id);
    expect(rows).toMatchObject([
      { email: 'crash1@example.it', status: 'unknown' },
      { email: 'crash2@example.it', status: 'sent' },
    ]);
    expect(offered.get('crash1@example.it')).toBeUndefined();
    const report = await ctx.request({ method: 'GET', url: `/api/admin/campaigns/${campaign.id}`, token });
    expect(report.json()).toMatchObject({ status: 'sent', counts: { recipients: 2, sent: 1, unknown: 1, queued: 0 } });
  });

  it('keeps to CAMPAIGN_RATE_PER_MINUTE', async () => {
    const campaign = await sendingCampaign(['pace1@example.it', 'pace2@example.it', 'pace3@example.it', 'pace4@example.it']);
    const started = Date.now();
    // 600 a minute: one every 100 ms, so four take at least 300 ms.
    await runCampaignSlice({ ...deps, ratePerMinute: 600 }, { campaignId: campaign.id, version: campaign.version, slice: 0 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(delivered.filter((a) => a.startsWith('pace'))).toHaveLength(4);
  });

  it('does nothing for a stale job (the campaign changed since it was queued)', async () => {
    const campaign = await sendingCampaign(['stale@example.it']);
    expect(await runCampaignSlice(deps, { campaignId: campaign.id, version: campaign.version - 1, slice: 0 })).toEqual({ stale: true });
  });
});

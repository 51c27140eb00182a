import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerDatabase, type ServerDatabase } from './helper.ts';
import { createLedgerFixture } from './ledger-fixtures.ts';
import { signedInClient, startServer, type ServerProcess } from './server-process.ts';
import { startSmtpCatcher, type SmtpCatcher } from '../../../tools/test-support/smtp-catcher.ts';

const RECIPIENTS = 500;

/**
 * kill -9 the REAL server process while a 500-recipient campaign is being sent to a real SMTP server,
 * start it again: the sending resumes by itself, nobody receives the campaign twice, and the report's
 * counts add up (a recipient whose send was in flight at the kill ends as `unknown`).
 */
describe('a campaign across a crash of the server process', () => {
  let database: ServerDatabase;
  const env: Record<string, string> = {};
  const started: ServerProcess[] = [];
  let smtp: SmtpCatcher;
  let programId = '';

  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    database = await createServerDatabase('campaign-crash');
    Object.assign(env, database.env, {
      SMTP_URL: smtp.url,
      APP_URL: 'http://app.example.test',
      // 100 e-mails a second: the 500 take ~5 s, long enough to be killed in the middle.
      CAMPAIGN_RATE_PER_MINUTE: '6000',
      CAMPAIGN_LEASE_SECONDS: '3',
      JOBS_INTERVAL_MS: '300',
    });
    const own = await database.open();
    const fx = await createLedgerFixture(own.db, { customers: 0 });
    programId = fx.pointsProgramId;
    // 500 members who consented to marketing (the consents row keeps the latest record's state).
    await own.db.execute(
      sql`insert into customers (first_name, last_name, email, card_number, referral_code, marketing_consent, service_consent)
          select 'Cliente', 'Numero ' || i, 'cliente' || i || '@example.it', lpad((9000000000000 + i)::text, 13, '0'), 'CR' || lpad(i::text, 6, '0'), true, true
          from generate_series(1, ${RECIPIENTS}) as i`,
    );
    await own.db.execute(
      sql`insert into memberships (customer_id, program_id) select id, ${programId} from customers where email like 'cliente%@example.it'`,
    );
    await own.close();
  });

  afterAll(async () => {
    for (const server of started) server.child.kill('SIGKILL');
    await smtp.close();
    await database.remove();
  });

  it('sends nobody the campaign twice after kill -9 and a restart, and the counts add up', { timeout: 240_000 }, async () => {
    const first = await startServer({ dataDir: database.dataDir, env });
    started.push(first);
    const one = await signedInClient(first);
    const created = await one.client.request('POST', '/api/admin/campaigns', {
      token: one.token,
      body: { name: 'Crash', subject: 'Ciao {{nome}}', body: '<p>Offerta</p>', audience: { programId } },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const sent = await one.client.request('POST', `/api/admin/campaigns/${id}/send`, { token: one.token, body: {} });
    expect(sent.status, await sent.clone().text()).toBe(200);
    expect(((await sent.json()) as { counts: { recipients: number } }).counts.recipients).toBe(RECIPIENTS);

    // Killed once a fifth has arrived.
    await smtp.waitFor(() => smtp.messages.length >= RECIPIENTS / 5, 60_000);
    first.child.kill('SIGKILL');
    await first.exited;
    const atKill = smtp.messages.length;
    expect(atKill).toBeLessThan(RECIPIENTS);

    const second = await startServer({ dataDir: database.dataDir, env });
    started.push(second);
    const two = await signedInClient(second);
    let report: { status: string; counts: Record<string, number> } | undefined;
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      const response = await two.client.request('GET', `/api/admin/campaigns/${id}`, { token: two.token });
      report = (await response.json()) as typeof report;
      if (report?.status === 'sent') break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(report?.status, second.output()).toBe('sent');
    const counts = report!.counts;

    const perAddress = new Map<string, number>();
    for (const email of smtp.messages) {
      const address = email.to?.[0]?.address ?? '';
      perAddress.set(address, (perAddress.get(address) ?? 0) + 1);
    }
    expect([...perAddress.values()].filter((n) => n > 1)).toEqual([]);
    expect(counts['recipients']).toBe(RECIPIENTS);
    expect(counts['queued']).toBe(0);
    expect(counts['sent']! + counts['failed']! + counts['skipped']! + counts['unknown']!).toBe(RECIPIENTS);
    expect(counts['failed']).toBe(0);
    expect(counts['skipped']).toBe(0);
    // Every `sent` arrived; an `unknown` may or may not have (it was in flight at the kill).
    expect(perAddress.size).toBeGreaterThanOrEqual(counts['sent']!);
    expect(perAddress.size).toBeLessThanOrEqual(counts['sent']! + counts['unknown']!);
    expect(smtp.messages.length).toBeGreaterThan(atKill);
    expect(await second.stop()).toBe(0);
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestContext, runJobsOnce, TEST_CONSENT, selectRows, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture, type LedgerFixture } from '../../../test/ledger-fixtures.ts';
import { startSmtpCatcher, type SmtpCatcher } from '../../../../../tools/test-support/smtp-catcher.ts';
import { localDate } from '../../lib/business-days.ts';
import { payBirthdayBonuses } from '../bonuses/bonuses.service.ts';
import { serviceEmailDepsOf, serviceEmailJobs } from './service-emails.jobs.ts';
import { queueExpiringReminders } from './service-emails.service.ts';
import { VOUCHER_QR_CID } from '../messages/messages.service.ts';
import QRCode from 'qrcode';


/**
 * The three messages caused by events: a voucher issued (with its code and validity), the birthday
 * bonus credited, and the points expiring in the next 30 days (at most one reminder a month). Each is
 * queued in the event's transaction only when the program has it on, and sent by the job runner.
 */
describe('service e-mails caused by events', () => {
  let ctx: TestContext;
  let smtp: SmtpCatcher;
  let token = '';
  let fx: LedgerFixture;
  let customerId = '';

  const runJobs = () => runJobsOnce(ctx.app, serviceEmailJobs(ctx.app).handlers);
  const switchOn = async (kind: string) => {
    const list = await ctx.request({ method: 'GET', url: `/api/admin/programs/${fx.pointsProgramId}/service-emails`, token });
    const current = (list.json().items as { kind: string; subjectIt: string; bodyIt: string; subjectEn: string; bodyEn: string; version: number }[]).find((item) => item.kind === kind)!;
    const { subjectIt, bodyIt, subjectEn, bodyEn, version } = current;
    const saved = await ctx.request({
      method: 'PUT',
      url: `/api/admin/programs/${fx.pointsProgramId}/service-emails/${kind}`,
      token,
      payload: { isEnabled: true, subjectIt, bodyIt, subjectEn, bodyEn, version },
    });
    expect(saved.statusCode, saved.body).toBe(200);
  };
  const mailsTo = (address: string) => smtp.messages.filter((m) => m.to?.[0]?.address === address);

  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    ctx = await createTestContext({ env: { AUTH_RATE_LIMIT: '1000', SMTP_URL: smtp.url, APP_URL: 'http://app.example.test' } });
    token = await ctx.tokenFor('admin@demo.test');
    fx = await createLedgerFixture(ctx.app.db, { customers: 0, expiry: { policy: 'afterDays', days: 20 } });
    // Born in this business month: the birthday job pays this month.
    const birthDate = `1990-${localDate(ctx.app.clock.now(), ctx.app.env.BUSINESS_TIME_ZONE).slice(5, 7)}-15`;
    const created = await ctx.request({
      method: 'POST',
      url: '/api/admin/customers',
      token,
      payload: { firstName: 'Franca', lastName: 'Eventi', email: 'franca@example.it', birthDate, consents: { service: TEST_CONSENT } },
    });
    expect(created.statusCode, created.body).toBe(201);
    customerId = created.json().id;
    const earned = await ctx.request({
      method: 'POST',
      url: '/api/admin/ledger',
      token,
      payload: { customerId, programId: fx.pointsProgramId, merchantId: fx.merchantId, kind: 'purchase', amountCents: 12_000 },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(earned.statusCode, earned.body).toBe(201);
  });
  afterAll(async () => {
    await ctx.close();
    await smtp.close();
  });

  it('sends "your voucher is ready" with the code and the validity, only once the program has it on', async () => {
    const redeem = async (name: string) => {
      const [reward] = await selectRows<{ id: string }>(
        ctx.app,
        sql`insert into rewards (program_id, name, cost, status, valid_until) values (${fx.pointsProgramId}, ${name}, 10, 'active', '2099-12-31') returning id`,
      );
      const response = await ctx.request({ method: 'POST', url: '/api/admin/redemptions', token, payload: { customerId, rewardId: reward!.id }, headers: { 'idempotency-key': randomUUID() } });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().voucher.code as string;
    };
    await redeem('Caffè (spento)');
    await runJobs();
    expect(mailsTo('franca@example.it')).toHaveLength(0);

    await switchOn('voucher');
    const code = await redeem('Cornetto');
    await runJobs();
    const [mail] = mailsTo('franca@example.it');
    expect(mail?.subject).toBe('Il tuo buono Cornetto è pronto');
    expect(mail?.text).toContain(`Mostra questo codice alla cassa: ${code}`);
    expect(mail?.text).toContain('Validità: 31 dicembre 2099.');
    expect(mail?.html).toContain(code);
    // The code's QR as an inline picture (a CID part: Gmail blocks data: images), with its alt text.
    const png = mail?.attachments.find((part) => part.mimeType === 'image/png');
    expect(png?.contentId).toBe(`<${VOUCHER_QR_CID}>`);
    expect(mail?.html).toContain(`src="cid:${VOUCHER_QR_CID}"`);
    expect(mail?.html).toContain(`alt="Codice QR del buono ${code}"`);
    const content = Buffer.from(png!.content as ArrayBuffer);
    expect(content.equals(await QRCode.toBuffer(code, { type: 'png', margin: 1, width: 240, errorCorrectionLevel: 'M' }))).toBe(true);
  });

  it('sends the birthday bonus credited, with the points and the new balance', async () => {
    await ctx.app.db.execute(sql`update programs set bonuses = '{"birthday": {"points": 50}}'::jsonb where id = ${fx.pointsProgramId}`);
    await switchOn('birthday');
    const before = mailsTo('franca@example.it').length;
    await payBirthdayBonuses(serviceEmailDepsOf(ctx.app));
    await runJobs();
    const mails = mailsTo('franca@example.it');
    expect(mails).toHaveLength(before + 1);
    expect(mails.at(-1)?.subject).toBe('Buon compleanno, Franca!');
    expect(mails.at(-1)?.text).toMatch(/Ti abbiamo regalato 50 punti: ora il tuo saldo è \d+\./);
  });

  it('reminds of points expiring in the next 30 days, at most once a month', async () => {
    await switchOn('expiring');
    const deps = serviceEmailDepsOf(ctx.app);
    expect(await queueExpiringReminders(deps)).toEqual({ queued: 1 });
    expect(await queueExpiringReminders(deps)).toEqual({ queued: 0 });
    const before = mailsTo('franca@example.it').length;
    await runJobs();
    const mails = mailsTo('franca@example.it');
    expect(mails).toHaveLength(before + 1);
    expect(mails.at(-1)?.subject).toMatch(/^Franca, hai \d+ punti in scadenza$/);
    expect(mails.at(-1)?.text).toMatch(/scadono il \d{1,2} \p{L}+ \d{4}\./u);
  });
});

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturedLog } from './log-lines.ts';
import { freePort } from './free-port.ts';
import { createTestContext, type TestContext } from './helper.ts';
import { createWalletMember } from './wallet-helpers.ts';

const NOT_ANSWERING_IT = "Il server di posta non risponde: l'e-mail non è stata inviata. Riprova più tardi";
const NOT_ANSWERING_EN = 'The mail server is not answering: the e-mail was not sent. Try again later';

/**
 * Every e-mail a staff member waits for, with SMTP_URL pointing at a loopback port where nothing
 * listens (a real refused connection, not a double): one code, `mail_unavailable` (503), and one text
 * in the reader's language, logged as the outage it is rather than as an unhandled error (a 500).
 */
describe('e-mails someone waits for, when the mail server cannot be reached', () => {
  let ctx: TestContext;
  let token = '';
  const { lines, logger } = capturedLog();

  beforeAll(async () => {
    ctx = await createTestContext({ env: { SMTP_URL: `smtp://127.0.0.1:${await freePort()}`, AUTH_RATE_LIMIT: '1000' }, logger });
    token = await ctx.tokenFor('admin@demo.test');
  });
  afterAll(async () => ctx?.close());

  /** The log lines of one request, by its id. */
  const logOf = (requestId: string) => lines.filter((line) => line.includes(requestId)).join('\n');

  it("answers a campaign's test 503 mail_unavailable, in Italian and English, and logs it as handled", async () => {
    const created = await ctx.request({ method: 'POST', url: '/api/admin/campaigns', token, payload: { name: 'Prova', subject: 'Ciao {{nome}}', body: '<p>Offerta</p>' } });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json() as { id: string };

    const italian = await ctx.request({ method: 'POST', url: `/api/admin/campaigns/${id}/test`, token });
    expect(italian.statusCode, italian.body).toBe(503);
    expect(italian.json().error).toMatchObject({ code: 'mail_unavailable', message: NOT_ANSWERING_IT });
    const english = await ctx.request({ method: 'POST', url: `/api/admin/campaigns/${id}/test`, token, headers: { 'accept-language': 'en' } });
    expect(english.json().error).toMatchObject({ code: 'mail_unavailable', message: NOT_ANSWERING_EN });

    const log = logOf(italian.json().error.requestId);
    expect(log).toContain('mail server unreachable');
    expect(log).toContain('ECONNREFUSED');
    expect(log).not.toContain('unhandled error');
  });

  it('answers the card link by e-mail the same, and records no sending in the audit', async () => {
    const member = await createWalletMember(ctx);
    await ctx.app.db.execute(sql`update customers set email = 'mario.rossi@example.it', service_consent = true where id = ${member.customerId}`);
    const sent = await ctx.request({ method: 'POST', url: `/api/admin/memberships/${member.membershipId}/card-link/email`, token });
    expect(sent.statusCode, sent.body).toBe(503);
    expect(sent.json().error).toMatchObject({ code: 'mail_unavailable', message: NOT_ANSWERING_IT });
    const audited = (await ctx.app.db.execute(sql`select count(*)::int as n from audit_log where action = 'card_link.email'`)) as unknown as { rows: { n: number }[] };
    expect(audited.rows[0]!.n).toBe(0);
    expect(logOf(sent.json().error.requestId)).not.toContain('unhandled error');
  });

  it('answers an invitation with the same code, and says that the invitation is kept', async () => {
    const invited = await ctx.request({
      method: 'POST',
      url: '/api/admin/staff/invitations',
      token,
      payload: { email: 'nuova@example.test', displayName: 'Nuova Collega', role: 'editor' },
    });
    expect(invited.statusCode, invited.body).toBe(503);
    expect(invited.json().error).toMatchObject({ code: 'mail_unavailable', message: "L'invito è salvato ma la sua e-mail non è partita: rinvialo più tardi" });
    const list = await ctx.request({ method: 'GET', url: '/api/admin/staff/invitations', token });
    expect(list.json().items).toEqual([expect.objectContaining({ email: 'nuova@example.test', status: 'pending' })]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Email } from 'postal-mime';
import { createTestContext, createTestCustomer, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture, uniquePartitaIva, type LedgerFixture } from '../../../test/ledger-fixtures.ts';
import { startSmtpCatcher, type SmtpCatcher } from '../../../../../tools/test-support/smtp-catcher.ts';
import { startBackgroundJobs } from '../../jobs.ts';

const APP_URL = 'http://app.example.test';

const header = (email: Email, name: string) => email.headers.find((h) => h.key.toLowerCase() === name.toLowerCase())?.value;

describe('campaigns through a real SMTP server', () => {
  let ctx: TestContext;
  let smtp: SmtpCatcher;
  let token = '';
  let fx: LedgerFixture;
  const ids: Record<string, string> = {};

  async function createCustomer(firstName: string, options: { marketing: boolean; member?: boolean; language?: 'it' | 'en' }) {
    const customer = await createTestCustomer(ctx, token, firstName, {
      lastName: 'Campagna',
      consents: options.marketing ? ['service', 'marketing', 'profiling'] : ['service'],
      ...(options.language ? { language: options.language } : {}),
    });
    if (options.member ?? true) {
      await ctx.app.db.execute(sql`insert into memberships (customer_id, program_id) values (${customer.id}, ${fx.pointsProgramId})`);
    }
    ids[firstName] = customer.id;
    return customer;
  }

  const runJobs = async () => {
    const jobs = startBackgroundJobs(ctx.app, { isAutomatic: false });
    try {
      await jobs.tick();
    } finally {
      await jobs.stop();
    }
  };

  const audience = (query: string) => ctx.request({ method: 'GET', url: `/api/admin/campaigns/audience?${query}`, token });

  async function createCampaign(name: string) {
    const response = await ctx.request({
      method: 'POST',
      url: '/api/admin/campaigns',
      token,
      payload: {
        name,
        subject: 'Ciao {{nome}}, un caffè ti aspetta',
        preheader: 'Solo questa settimana',
        body: '<p>Ciao {{nome}}, passa al <strong>Bar Centrale</strong>!</p><script>alert(1)</script><p><a href="https://example.it/promo">Scopri</a></p>',
        audience: { programId: fx.pointsProgramId },
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { id: string; version: number; body: string; status: string };
  }

  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    ctx = await createTestContext({ env: { AUTH_RATE_LIMIT: '1000', SMTP_URL: smtp.url, APP_URL, CAMPAIGN_RATE_PER_MINUTE: '60000' } });
    token = await ctx.tokenFor('admin@demo.test');
    fx = await createLedgerFixture(ctx.app.db, { customers: 0 });
    await createCustomer('Anna', { marketing: true });
    await createCustomer('Bruno', { marketing: true, language: 'en' });
    await createCustomer('Carla', { marketing: false });
    const dario = await createCustomer('Dario', { marketing: true });
    const blocked = await ctx.request({ method: 'PATCH', url: `/api/admin/customers/${dario.id}`, token, payload: { status: 'blocked', version: dario.version } });
    expect(blocked.statusCode, blocked.body).toBe(200);
    await createCustomer('Elena', { marketing: true, member: false });
  });
  afterAll(async () => {
    await ctx.close();
    await smtp.close();
  });

  it('counts only consenting, active customers with an address, and shows five of them', async () => {
    const inProgram = await audience(`programId=${fx.pointsProgramId}`);
    expect(inProgram.statusCode, inProgram.body).toBe(200);
    expect(inProgram.json().count).toBe(2);
    expect(inProgram.json().sample.map((c: { firstName: string }) => c.firstName)).toEqual(['Anna', 'Bruno']);
    // Without filters: Elena too (no program), never Carla (no consent) or Dario (blocked).
    expect((await audience('')).json().count).toBe(3);
    expect((await audience(`merchantId=${fx.merchantId}`)).json().count).toBe(2);
    expect((await audience('birthdayMonth=13')).statusCode).toBe(400);
  });

  it('refuses the campaigns to an editor', async () => {
    const editor = await ctx.tokenFor('editor@demo.test');
    expect((await ctx.request({ method: 'GET', url: '/api/admin/campaigns', token: editor })).statusCode).toBe(403);
  });

  let first: { id: string; version: number };

  it('creates a draft with a sanitised body, edits it, and sends a test copy to the signed-in admin', async () => {
    const created = await createCampaign('Caffè di novembre');
    expect(created.status).toBe('draft');
    expect(created.body).not.toContain('<script>');
    const patched = await ctx.request({ method: 'PATCH', url: `/api/admin/campaigns/${created.id}`, token, payload: { name: 'Caffè di dicembre', version: created.version } });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ name: 'Caffè di dicembre', version: created.version + 1 });
    const stale = await ctx.request({ method: 'PATCH', url: `/api/admin/campaigns/${created.id}`, token, payload: { name: 'x', version: created.version } });
    expect(stale.statusCode).toBe(409);
    first = patched.json();

    const test = await ctx.request({ method: 'POST', url: `/api/admin/campaigns/${first.id}/test`, token });
    expect(test.statusCode, test.body).toBe(200);
    const copy = await smtp.waitForMessageTo('admin@demo.test');
    expect(copy.subject).toMatch(/^\[Prova\] Ciao .+, un caffè ti aspetta$/);
  });

  it('reaches exactly the two consenting members, with the one-click unsubscribe headers and a plain-text part', async () => {
    const sent = await ctx.request({ method: 'POST', url: `/api/admin/campaigns/${first.id}/send`, token, payload: {} });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ status: 'sending', counts: { recipients: 2, queued: 2, sent: 0 } });
    const again = await ctx.request({ method: 'POST', url: `/api/admin/campaigns/${first.id}/send`, token, payload: {} });
    expect(again.statusCode).toBe(409);

    await runJobs();

    const report = await ctx.request({ method: 'GET', url: `/api/admin/campaigns/${first.id}`, token });
    expect(report.json()).toMatchObject({ status: 'sent', counts: { recipients: 2, queued: 0, sent: 2, failed: 0, skipped: 0, unknown: 0, unsubscribed: 0 } });
    expect(report.json().sentAt).not.toBeNull();

    const anna = await smtp.waitForMessageTo('anna@example.it');
    await smtp.waitForMessageTo('bruno@example.it');
    const campaignMails = smtp.messages.filter((m) => m.subject?.startsWith('Ciao'));
    expect(campaignMails.map((m) => m.to?.[0]?.address).sort()).toEqual(['anna@example.it', 'bruno@example.it']);
    expect(anna.subject).toBe('Ciao Anna, un caffè ti aspetta');
    expect(anna.html).toContain('<strong>Bar Centrale</strong>');
    expect(anna.text).toContain('Ciao Anna, passa al Bar Centrale!');
    expect(anna.text).toContain('Scopri (https://example.it/promo)');
    expect(header(anna, 'List-Unsubscribe')).toMatch(new RegExp(`^<${APP_URL}/u/[0-9a-f]{32}>$`));
    expect(header(anna, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');

    // The footer is in each customer's language (the body is the campaign's, as written).
    const bruno = await smtp.waitForMessageTo('bruno@example.it');
    expect(anna.text).toContain('Ricevi questa e-mail perché hai dato il consenso alle comunicazioni promozionali.');
    expect(bruno.subject).toBe('Ciao Bruno, un caffè ti aspetta');
    expect(bruno.text).toContain('You receive this e-mail because you agreed to receive promotional messages.');
    expect(bruno.html).toContain('Stop receiving these e-mails');
    expect(bruno.html).not.toContain('Non ricevere più queste e-mail');
    const brunoLink = /<http:\/\/app\.example\.test(\/u\/[0-9a-f]{32})>/.exec(header(bruno, 'List-Unsubscribe') ?? '')![1]!;
    const page = await ctx.request({ method: 'GET', url: brunoLink, headers: { 'accept-language': 'it' } });
    expect(page.body).toContain('Unsubscribe');
    expect(page.body).not.toContain("Annulla l'iscrizione");
  });

  it('unsubscribes with the one-click POST (never with a GET), records channel email_link, and the next count drops by one', async () => {
    const anna = await smtp.waitForMessageTo('anna@example.it');
    const link = /<http:\/\/app\.example\.test(\/u\/[0-9a-f]{32})>/.exec(header(anna, 'List-Unsubscribe') ?? '')![1]!;

    const page = await ctx.request({ method: 'GET', url: link, headers: { 'accept-language': 'it' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain("Annulla l'iscrizione");
    const still = await ctx.request({ method: 'GET', url: `/api/admin/customers/${ids['Anna']}`, token });
    expect(still.json().consents.marketing.granted).toBe(true);

    // As a mail provider sends it (RFC 8058): no cookie, no forgery-protection header.
    const oneClick = await ctx.app.inject({
      method: 'POST',
      url: link,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode, oneClick.body).toBe(200);
    const after = await ctx.request({ method: 'GET', url: `/api/admin/customers/${ids['Anna']}`, token });
    expect(after.json().consents.marketing).toMatchObject({ granted: false, channel: 'email_link' });
    // Profiling was not asked for: it stays.
    expect(after.json().consents.profiling.granted).toBe(true);
    const history = await ctx.request({ method: 'GET', url: `/api/admin/customers/${ids['Anna']}/consents`, token });
    expect(history.json().items[0]).toMatchObject({ purpose: 'marketing', granted: false, channel: 'email_link' });

    const report = await ctx.request({ method: 'GET', url: `/api/admin/campaigns/${first.id}`, token });
    expect(report.json().counts.unsubscribed).toBe(1);

    const second = await createCampaign('Seconda');
    expect((await audience(`programId=${fx.pointsProgramId}`)).json().count).toBe(1);
    const sent = await ctx.request({ method: 'POST', url: `/api/admin/campaigns/${second.id}/send`, token, payload: {} });
    expect(sent.json().counts.recipients).toBe(1);

    // The page's own form can also stop profiling; an unknown link says so.
    const profiling = await ctx.app.inject({ method: 'POST', url: link, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'profiling=withdraw' });
    expect(profiling.statusCode).toBe(200);
    const withoutProfiling = await ctx.request({ method: 'GET', url: `/api/admin/customers/${ids['Anna']}`, token });
    expect(withoutProfiling.json().consents.profiling).toMatchObject({ granted: false, channel: 'email_link' });
    expect((await ctx.app.inject({ method: 'GET', url: '/u/0123456789abcdef0123456789abcdef' })).statusCode).toBe(404);
  });

  it('keeps the email_link channel for the link itself: staff cannot record it', async () => {
    const refused = await ctx.request({
      method: 'POST',
      url: `/api/admin/customers/${ids['Elena']}/consents`,
      token,
      payload: { purpose: 'marketing', granted: false, channel: 'email_link', noticeVersion: '2026-01' },
    });
    expect(refused.statusCode).toBe(400);
  });

  it('skips a recipient whose consent was withdrawn after queueing', async () => {
    const third = await createCampaign('Terza');
    const sent = await ctx.request({ method: 'POST', url: `/api/admin/campaigns/${third.id}/send`, token, payload: {} });
    expect(sent.json().counts.recipients).toBe(1); // Bruno
    const withdrawn = await ctx.request({
      method: 'POST',
      url: `/api/admin/customers/${ids['Bruno']}/consents`,
      token,
      payload: { purpose: 'marketing', granted: false, channel: 'back-office', noticeVersion: '2026-01' },
    });
    expect(withdrawn.statusCode, withdrawn.body).toBe(201);
    await runJobs();
    const report = await ctx.request({ method: 'GET', url: `/api/admin/campaigns/${third.id}`, token });
    expect(report.json()).toMatchObject({ status: 'sent', counts: { recipients: 1, sent: 0, skipped: 1 } });
  });

  it("lists the messages on the customer's page", async () => {
    const messages = await ctx.request({ method: 'GET', url: `/api/admin/customers/${ids['Anna']}/messages`, token });
    expect(messages.statusCode, messages.body).toBe(200);
    expect(messages.json().items[0]).toMatchObject({ kind: 'campaign', campaignId: first.id, status: 'sent', subject: 'Ciao Anna, un caffè ti aspetta' });
    expect(messages.json().items[0].unsubscribedAt).not.toBeNull();
  });

  it("puts the messages in the access export, and erasure removes the address kept with them", async () => {
    const privacy = (kind: string, customerId: string) =>
      ctx.request({ method: 'POST', url: '/api/admin/privacy-requests', token, payload: { kind, customerId } });
    const act = (id: string, payload: Record<string, unknown>) =>
      ctx.request({ method: 'POST', url: `/api/admin/privacy-requests/${id}/actions`, token, payload });

    const access = (await privacy('access', ids['Anna']!)).json() as { id: string; version: number };
    const exported = await act(access.id, { action: 'export', version: access.version });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.json().export.campaign_recipients).toEqual([
      expect.objectContaining({ campaign_id: first.id, email: 'anna@example.it', status: 'sent' }),
    ]);

    const erasure = (await privacy('erasure', ids['Bruno']!)).json() as { id: string; version: number };
    const erased = await act(erasure.id, { action: 'erase', version: erasure.version });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json().request.outcome.at(-1).counts.messages).toBeGreaterThan(0);
    const kept = (await ctx.app.db.execute(
      sql`select email, status from campaign_recipients where customer_id = ${ids['Bruno']!}`,
    )) as unknown as { rows: { email: string | null; status: string }[] };
    expect(kept.rows.length).toBeGreaterThan(0);
    expect(kept.rows.every((row) => row.email === null)).toBe(true);
  });

  it('schedules a campaign, and cancels it before it starts', async () => {
    const fourth = await createCampaign('Quarta');
    const past = await ctx.request({ method: 'POST', url: `/api/admin/campaigns/${fourth.id}/send`, token, payload: { scheduledAt: '2020-01-01T00:00:00Z' } });
    expect(past.statusCode).toBe(400);
    // Refused in words, on the field, never moved to now.
    expect(past.json().error.fields).toEqual([{ field: 'scheduledAt', message: 'Invia il: scegli un momento futuro' }]);
    const scheduledAt = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await ctx.request({ method: 'POST', url: `/api/admin/campaigns/${fourth.id}/send`, token, payload: { scheduledAt } });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect(scheduled.json()).toMatchObject({ status: 'scheduled', counts: { recipients: 0 } });
    const cancelled = await ctx.request({ method: 'POST', url: `/api/admin/campaigns/${fourth.id}/cancel`, token });
    expect(cancelled.json().status).toBe('cancelled');
    expect((await ctx.request({ method: 'POST', url: `/api/admin/campaigns/${fourth.id}/cancel`, token })).statusCode).toBe(409);
    const list = await ctx.request({ method: 'GET', url: '/api/admin/campaigns?status=cancelled', token });
    expect(list.json().items.map((c: { id: string }) => c.id)).toEqual([fourth.id]);
  });

  it('lists the campaigns as the list kit asks: search in the name, status, sort by name, date and counts, paging', async () => {
    const names = async (query: string) => {
      const response = await ctx.request({ method: 'GET', url: `/api/admin/campaigns?${query}`, token });
      expect(response.statusCode, response.body).toBe(200);
      const page = response.json() as { items: { name: string }[]; total: number; page: number; pageSize: number };
      return { names: page.items.map((campaign) => campaign.name), total: page.total, page: page.page };
    };
    // Newest first by default, as before the list kit.
    expect((await names('')).names).toEqual(['Quarta', 'Terza', 'Seconda', 'Caffè di dicembre']);
    expect((await names('sort=name&order=asc')).names).toEqual(['Caffè di dicembre', 'Quarta', 'Seconda', 'Terza']);
    expect(await names('sort=name&order=asc&pageSize=2&page=2')).toEqual({ names: ['Seconda', 'Terza'], total: 4, page: 2 });
    // Sorted by the report's counts: the first campaign reached two, the others one or none.
    expect((await names('sort=recipients&order=desc')).names[0]).toBe('Caffè di dicembre');
    expect((await names('sort=sent&order=asc')).names.at(-1)).toBe('Caffè di dicembre');
    expect((await names('sort=sent&order=desc')).names[0]).toBe('Caffè di dicembre');
    // The date shown: the cancelled one was scheduled an hour ahead, later than every send.
    expect((await names('sort=date&order=desc')).names[0]).toBe('Quarta');
    expect(await names('q=DICEMBRE')).toEqual({ names: ['Caffè di dicembre'], total: 1, page: 1 });
    // The search's own wildcards are text.
    expect((await names('q=%25')).total).toBe(0);
    expect(await names('status=sent&q=a')).toEqual({ names: ['Terza', 'Seconda', 'Caffè di dicembre'], total: 3, page: 1 });
    expect((await ctx.request({ method: 'GET', url: '/api/admin/campaigns?sort=subject', token })).statusCode).toBe(400);
  });

  it('exports the list as CSV with its counts, the same search, filter and sort, in the reader’s language', async () => {
    const response = await ctx.request({ method: 'GET', url: '/api/admin/campaigns/export.csv?sort=name&order=asc&status=sent', token });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toContain('campagne.csv');
    const lines = response.rawPayload.toString('utf8').slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe('Nome;Oggetto;Stato;Programmata per;Inviata il;Destinatari;Inviate;Non recapitate;Saltate;Esito sconosciuto;Disiscritti;Creata il');
    expect(lines.slice(1).map((line) => line.split(';')[0])).toEqual(['Caffè di dicembre', 'Seconda', 'Terza']);
    expect(lines[1]!.split(';').slice(2, 3).concat(lines[1]!.split(';').slice(5, 11))).toEqual(['Inviata', '2', '2', '0', '0', '0', '1']);
    const en = await ctx.request({ method: 'GET', url: '/api/admin/campaigns/export.csv?q=quarta', token, headers: { 'accept-language': 'en' } });
    const enLines = en.rawPayload.toString('utf8').slice(1).trimEnd().split('\r\n');
    expect(enLines[0]).toMatch(/^Name;Subject;Status;Scheduled for;/);
    expect(enLines.slice(1).map((line) => line.split(';').slice(0, 3).join(';'))).toEqual(['Quarta;Ciao {{nome}}, un caffè ti aspetta;Cancelled']);
    const editor = await ctx.tokenFor('editor@demo.test');
    expect((await ctx.request({ method: 'GET', url: '/api/admin/campaigns/export.csv', token: editor })).statusCode).toBe(403);
  });

  it('refuses a suspended or archived merchant as a new audience, naming the field, and keeps one a draft already has', async () => {
    const added = await ctx.request({
      method: 'POST',
      url: '/api/admin/merchants',
      token,
      payload: { legalName: 'Forno Chiuso', vatNumber: uniquePartitaIva(), category: 'bakery', address: { street: 'Via Po 3', city: 'Torino', province: 'TO', postalCode: '10123' } },
    });
    expect(added.statusCode, added.body).toBe(201);
    const closed = added.json().id as string;
    const draft = await createCampaign('Per il forno');
    const chosen = await ctx.request({ method: 'PATCH', url: `/api/admin/campaigns/${draft.id}`, token, payload: { audience: { merchantId: closed }, version: draft.version } });
    expect(chosen.statusCode, chosen.body).toBe(200);
    const post = (merchantId: string, language: 'it' | 'en') =>
      ctx.request({
        method: 'POST',
        url: '/api/admin/campaigns',
        token,
        headers: { 'accept-language': language },
        payload: { name: 'Forno', subject: 'Ciao', preheader: '', body: '<p>Ciao</p>', audience: { merchantId } },
      });
    for (const status of ['suspended', 'archived']) {
      await ctx.app.db.execute(sql`update merchants set status = ${status} where id = ${closed}`);
      const refused = await post(closed, 'it');
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error.fields).toEqual([
        { field: 'audience.merchantId', message: 'Esercente: scegli un esercente attivo (uno sospeso o archiviato non può essere il pubblico di una campagna)' },
      ]);
    }
    expect((await post(closed, 'en')).json().error.fields[0].message).toBe("Merchant: choose an active merchant (a suspended or archived one cannot be a campaign's audience)");
    expect((await post('00000000-0000-4000-8000-000000000000', 'it')).json().error.fields[0].field).toBe('audience.merchantId');
    // The draft that already had it keeps it through an edit of its audience; another draft cannot pick it.
    const kept = await ctx.request({ method: 'PATCH', url: `/api/admin/campaigns/${draft.id}`, token, payload: { audience: { merchantId: closed, birthdayMonth: 5 }, version: chosen.json().version } });
    expect(kept.statusCode, kept.body).toBe(200);
    const other = await createCampaign('Senza forno');
    const joining = await ctx.request({ method: 'PATCH', url: `/api/admin/campaigns/${other.id}`, token, payload: { audience: { merchantId: closed }, version: other.version } });
    expect(joining.statusCode, joining.body).toBe(400);
    expect(joining.json().error.fields[0].field).toBe('audience.merchantId');
  });

  it('sends nothing whose text is empty, now or later, and says which field', async () => {
    const empty = await createCampaign('Vuota');
    const edited = await ctx.request({ method: 'PATCH', url: `/api/admin/campaigns/${empty.id}`, token, payload: { body: '<p> &nbsp;</p><p></p>', version: empty.version } });
    expect(edited.statusCode, edited.body).toBe(200);
    for (const payload of [{}, { scheduledAt: new Date(Date.now() + 3_600_000).toISOString() }]) {
      const refused = await ctx.request({ method: 'POST', url: `/api/admin/campaigns/${empty.id}/send`, token, payload });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error.fields).toEqual([{ field: 'body', message: 'Testo è obbligatorio' }]);
    }
    const still = await ctx.request({ method: 'GET', url: `/api/admin/campaigns/${empty.id}`, token });
    expect(still.json()).toMatchObject({ status: 'draft', counts: { recipients: 0 } });
  });

  it('refuses a placeholder it does not fill in, on create and on update, naming the field; keeps {{nome}}', async () => {
    const payload = { name: 'Segnaposto', subject: 'Ciao {{firstName}}', body: '<p>Saldo: {{saldo}}</p>', audience: { programId: fx.pointsProgramId } };
    const created = await ctx.request({ method: 'POST', url: '/api/admin/campaigns', token, payload });
    expect(created.statusCode, created.body).toBe(400);
    expect(created.json().error).toMatchObject({
      code: 'validation',
      fields: [
        { field: 'subject', message: 'Oggetto: il segnaposto {{firstName}} non esiste (si possono usare {{nome}})' },
        { field: 'body', message: 'Testo: il segnaposto {{saldo}} non esiste (si possono usare {{nome}})' },
      ],
    });

    const draft = await createCampaign('Segnaposto');
    for (const [field, change] of [['subject', { subject: 'Hi {{ firstName }}' }], ['body', { body: '<p>{{cognome}}</p>' }]] as const) {
      const refused = await ctx.request({ method: 'PATCH', url: `/api/admin/campaigns/${draft.id}`, token, payload: { ...change, version: draft.version } });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error.fields).toEqual([{ field, message: expect.stringMatching(/: il segnaposto \{\{(firstName|cognome)\}\} non esiste/) }]);
    }
    const kept = await ctx.request({ method: 'PATCH', url: `/api/admin/campaigns/${draft.id}`, token, payload: { subject: '{{ nome }}, ti aspettiamo', body: '<p>{{nome}}</p>', version: draft.version } });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json()).toMatchObject({ subject: '{{ nome }}, ti aspettiamo', body: '<p>{{nome}}</p>' });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createTestContext, createTestCustomer, multipartBody, runJobsOnce, selectRows, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture, type LedgerFixture } from '../../../test/ledger-fixtures.ts';
import { startSmtpCatcher, type SmtpCatcher } from '../../../../../tools/test-support/smtp-catcher.ts';
import { eraseMessages } from '../messages/message-log.service.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { serviceEmailDepsOf, serviceEmailJobs } from './service-emails.jobs.ts';
import { sendServiceMessage } from './service-emails.service.ts';
import { claimMessage } from './service-emails.repository.ts';
import { importDeps } from '../imports/imports.service.ts';
import { runImportChunk } from '../imports/imports.run.ts';

const APP_URL = 'http://app.example.test';

/**
 * Service e-mails through a real SMTP server: the welcome is queued with the customer (never sent in
 * the request), sent by the job runner with the program's texts, look and card link, only with the
 * service consent, once, and it shows in the customer's messages.
 */
describe('service e-mails', () => {
  let ctx: TestContext;
  let smtp: SmtpCatcher;
  let token = '';
  let fx: LedgerFixture;
  const closedProgramId = randomUUID();

  const runJobs = () => runJobsOnce(ctx.app, serviceEmailJobs(ctx.app).handlers);

  /** A new customer, joining the points program unless another (or none: null) is named. */
  const createCustomer = (firstName: string, options: { service?: boolean; email?: boolean; language?: 'it' | 'en'; programId?: string | null } = {}) => {
    const { programId = fx.pointsProgramId, service = true, ...rest } = options;
    return createTestCustomer(ctx, token, firstName, { lastName: 'Servizio', consents: service ? ['service'] : [], ...rest, ...(programId === null ? {} : { programId }) });
  };

  const messagesOf = async (customerId: string) => {
    const response = await ctx.request({ method: 'GET', url: `/api/admin/customers/${customerId}/messages`, token });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().items as { id: string; kind: string; serviceKind: string | null; subject: string; status: string; sentAt: string | null }[];
  };

  const settingsUrl = () => `/api/admin/programs/${fx.pointsProgramId}/service-emails`;

  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    ctx = await createTestContext({ env: { AUTH_RATE_LIMIT: '1000', SMTP_URL: smtp.url, APP_URL } });
    token = await ctx.tokenFor('admin@demo.test');
    fx = await createLedgerFixture(ctx.app.db, { customers: 0 });
    await ctx.app.db.execute(sql`update programs set wallet_background_color = '#7a1f2b', wallet_foreground_color = '#fefefe' where id = ${fx.pointsProgramId}`);
    // A second program with the welcome on: a new customer hears only from the program they join.
    await ctx.app.db.execute(
      sql`insert into service_email_settings (program_id, kind, is_enabled, subject_it, body_it, subject_en, body_en, updated_at)
          values (${fx.stampsProgramId}, 'welcome', true, 'Benvenuto nella Tessera Caffè', 'Ciao {{nome}}', 'Welcome', 'Hi', now())`,
    );
    await ctx.app.db.execute(sql`insert into programs (id, name, type, status, stamps_required, bonuses) values (${closedProgramId}, 'Chiuso', 'stamps', 'closed', 10, '{}'::jsonb)`);
  });
  afterAll(async () => {
    await ctx.close();
    await smtp.close();
  });

  it('lists the four messages, off, with the default texts in both languages', async () => {
    const response = await ctx.request({ method: 'GET', url: settingsUrl(), token });
    expect(response.statusCode, response.body).toBe(200);
    const items = response.json().items as { kind: string; isEnabled: boolean; subjectIt: string; bodyEn: string; version: number }[];
    expect(items.map((item) => item.kind)).toEqual(['welcome', 'voucher', 'birthday', 'expiring']);
    expect(items.every((item) => !item.isEnabled && item.version === 0)).toBe(true);
    expect(items[0]?.subjectIt).toContain('{{programma}}');
    expect(items[0]?.bodyEn).toContain('{{link_tessera}}');
  });

  it('refuses an unknown placeholder, naming the field, in the caller\'s language', async () => {
    const response = await ctx.request({
      method: 'PUT',
      url: `${settingsUrl()}/welcome`,
      token,
      payload: { isEnabled: true, subjectIt: 'Ciao {{nome}}', bodyIt: 'Il tuo saldo: {{saldo_punti}}', subjectEn: 'Hi', bodyEn: 'Hi', version: 0 },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 'validation',
      fields: [{ field: 'bodyIt', message: expect.stringMatching(/^Testo \(italiano\): il segnaposto \{\{saldo_punti\}\} non esiste/) }],
    });
  });

  it('names an unknown placeholder together with every other problem of the same save', async () => {
    const response = await ctx.request({
      method: 'PUT',
      url: `${settingsUrl()}/welcome`,
      token,
      payload: { isEnabled: true, subjectIt: '', bodyIt: 'Ciao {{nome}}', subjectEn: 'Hi', bodyEn: 'Your balance: {{balance}}', version: 0 },
    });
    expect(response.statusCode, response.body).toBe(400);
    // The English text's placeholder waited for the blank subject to be filled in: a second save.
    expect(response.json().error.fields).toEqual([
      { field: 'subjectIt', message: 'Oggetto (italiano) è obbligatorio' },
      { field: 'bodyEn', message: expect.stringMatching(/^Testo \(inglese\): il segnaposto \{\{balance\}\} non esiste \(si possono usare \{\{nome\}\}, /) },
    ]);
  });

  it('does not send a message that is off', async () => {
    const before = smtp.messages.length;
    const zeno = await createCustomer('Zeno');
    await runJobs();
    expect(smtp.messages.length).toBe(before);
    expect(await messagesOf(zeno.id)).toEqual([]);
  });

  it('sends the welcome once, after the request, with the edited subject, the card link, the preferences link and the program colours', async () => {
    const saved = await ctx.request({
      method: 'PUT',
      url: `${settingsUrl()}/welcome`,
      token,
      payload: {
        isEnabled: true,
        subjectIt: 'Eccoti in {{programma}}, {{nome}}',
        bodyIt: 'Ciao {{nome}},\n\nla tua tessera: {{link_tessera}}\n\nSaldo: {{saldo}}',
        subjectEn: 'Welcome, {{nome}}',
        bodyEn: 'Your card: {{link_tessera}}',
        version: 0,
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ isEnabled: true, isCustomised: true, version: 1 });
    const stale = await ctx.request({
      method: 'PUT',
      url: `${settingsUrl()}/welcome`,
      token,
      payload: { isEnabled: false, subjectIt: 'x', bodyIt: 'x', subjectEn: 'x', bodyEn: 'x', version: 0 },
    });
    expect(stale.statusCode).toBe(409);

    const anna = await createCustomer('Anna');
    // Queued with the customer, not sent inside the request.
    expect(smtp.messages.some((m) => m.to?.[0]?.address === 'anna@example.it')).toBe(false);
    expect((await messagesOf(anna.id)).map((m) => [m.kind, m.serviceKind, m.status])).toEqual([['service', 'welcome', 'queued']]);

    await runJobs();
    const mail = await smtp.waitForMessageTo('anna@example.it');
    expect(mail.subject).toBe('Eccoti in Circuito Punti, Anna');
    expect(mail.text).toMatch(new RegExp(`la tua tessera: ${APP_URL}/c/[A-Za-z0-9_-]{43}`));
    expect(mail.text).toContain('Saldo: 0');
    expect(mail.text).toMatch(new RegExp(`${APP_URL}/u/[0-9a-f]{32}`));
    expect(mail.html).toContain('#7a1f2b');
    expect(mail.html).toContain('Apri la tessera');

    const logged = await messagesOf(anna.id);
    expect(logged).toMatchObject([{ kind: 'service', serviceKind: 'welcome', subject: 'Eccoti in Circuito Punti, Anna', status: 'sent' }]);
    expect(logged[0]?.sentAt).not.toBeNull();

    // Nothing is sent twice.
    await runJobs();
    expect(smtp.messages.filter((m) => m.to?.[0]?.address === 'anna@example.it')).toHaveLength(1);
  });

  it("writes in the customer's language: an English customer gets the English texts and preferences page", async () => {
    const olga = await createCustomer('Olga', { language: 'en' });
    await runJobs();
    const mail = await smtp.waitForMessageTo('olga@example.it');
    expect(mail.subject).toBe('Welcome, Olga');
    expect(mail.text).toMatch(new RegExp(`^Your card: ${APP_URL}/c/[A-Za-z0-9_-]{43}`));
    expect(mail.text).toContain('Your preferences (promotions and profiling)');
    expect(mail.html).toContain('Open your card');
    expect(mail.html).toContain('<html lang="en"');
    const [row] = await selectRows<{ language: string }>(ctx.app, sql`select language from service_messages where customer_id = ${olga.id}`);
    expect(row?.language).toBe('en');
    // Her page is English whatever the browser asks for.
    const url = /\/u\/[0-9a-f]{32}/.exec(mail.text ?? '')![0];
    const page = await ctx.request({ method: 'GET', url, headers: { 'accept-language': 'it' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<html lang="en">');
    expect(page.body).toContain('Promotional messages');
  });

  it('enrols a new customer in the program chosen at creation, and only that program welcomes them', async () => {
    const ilaria = await createCustomer('Ilaria');
    const members = await selectRows<{ program_id: string }>(ctx.app, sql`select program_id from memberships where customer_id = ${ilaria.id}`);
    expect(members).toEqual([{ program_id: fx.pointsProgramId }]);
    const queued = await selectRows<{ program_id: string }>(ctx.app, sql`select program_id from service_messages where customer_id = ${ilaria.id}`);
    expect(queued).toEqual([{ program_id: fx.pointsProgramId }]);
    await runJobs();
    const mails = smtp.messages.filter((m) => m.to?.[0]?.address === 'ilaria@example.it');
    expect(mails.map((m) => m.subject)).toEqual(['Eccoti in Circuito Punti, Ilaria']);
    // Sending only read: still one membership.
    expect(await selectRows(ctx.app, sql`select program_id from memberships where customer_id = ${ilaria.id}`)).toHaveLength(1);
  });

  it('gives a customer created without a program no membership and no welcome', async () => {
    const leo = await createCustomer('Leo', { programId: null });
    await runJobs();
    expect(await selectRows(ctx.app, sql`select id from memberships where customer_id = ${leo.id}`)).toEqual([]);
    expect(await messagesOf(leo.id)).toEqual([]);
    expect(smtp.messages.some((m) => m.to?.[0]?.address === 'leo@example.it')).toBe(false);
  });

  it('refuses a program that is unknown or not active, naming the field, and creates nobody', async () => {
    const unknown = await ctx.request({
      method: 'POST',
      url: '/api/admin/customers',
      token,
      payload: { firstName: 'Mara', lastName: 'Servizio', email: 'mara@example.it', programId: randomUUID() },
    });
    expect(unknown.statusCode, unknown.body).toBe(400);
    expect(unknown.json().error).toMatchObject({ code: 'validation', fields: [{ field: 'programId', message: expect.stringContaining('Programma') }] });
    const closed = await ctx.request({
      method: 'POST',
      url: '/api/admin/customers',
      token,
      headers: { 'accept-language': 'en' },
      payload: { firstName: 'Mara', lastName: 'Servizio', email: 'mara@example.it', programId: closedProgramId },
    });
    expect(closed.statusCode, closed.body).toBe(400);
    expect(closed.json().error.fields).toEqual([{ field: 'programId', message: 'Program: choose an active program (only an active program takes new customers)' }]);
    expect(await selectRows(ctx.app, sql`select id from customers where email = 'mara@example.it'`)).toEqual([]);
  });

  it('skips a queued welcome whose membership is gone: sending never enrols', async () => {
    const nadia = await createCustomer('Nadia');
    await ctx.app.db.execute(sql`delete from memberships where customer_id = ${nadia.id}`);
    await runJobs();
    expect(smtp.messages.some((m) => m.to?.[0]?.address === 'nadia@example.it')).toBe(false);
    const [row] = await selectRows<{ status: string; last_error: string }>(ctx.app, sql`select status, last_error from service_messages where customer_id = ${nadia.id}`);
    expect(row).toEqual({ status: 'skipped', last_error: 'no_membership' });
    expect(await selectRows(ctx.app, sql`select id from memberships where customer_id = ${nadia.id}`)).toEqual([]);
  });

  it('skips a customer without the service consent, and queues nothing without an address', async () => {
    const bruno = await createCustomer('Bruno', { service: false });
    const carla = await createCustomer('Carla', { email: false });
    await runJobs();
    expect(smtp.messages.some((m) => m.to?.[0]?.address === 'bruno@example.it')).toBe(false);
    expect(await messagesOf(bruno.id)).toMatchObject([{ serviceKind: 'welcome', status: 'skipped' }]);
    expect(await messagesOf(carla.id)).toEqual([]);
  });

  it('skips a customer blocked after queueing', async () => {
    const dario = await createCustomer('Dario');
    const blocked = await ctx.request({ method: 'PATCH', url: `/api/admin/customers/${dario.id}`, token, payload: { status: 'blocked', version: dario.version } });
    expect(blocked.statusCode, blocked.body).toBe(200);
    await runJobs();
    expect(smtp.messages.some((m) => m.to?.[0]?.address === 'dario@example.it')).toBe(false);
    expect(await messagesOf(dario.id)).toMatchObject([{ status: 'skipped' }]);
  });

  it('never sends twice a message whose process died during the SMTP exchange: it ends unknown', async () => {
    const elena = await createCustomer('Elena');
    const [row] = await selectRows<{ id: string | number }>(ctx.app, sql`select id from service_messages where customer_id = ${elena.id}`);
    // Another process claimed it (before its SMTP exchange) and died: its claim has run out.
    const claimed = await claimMessage(ctx.app.db, Number(row!.id), '00000000-0000-4000-8000-000000000000', -1);
    expect(claimed?.status).toBe('sending');
    await runJobs();
    expect(smtp.messages.some((m) => m.to?.[0]?.address === 'elena@example.it')).toBe(false);
    expect(await messagesOf(elena.id)).toMatchObject([{ status: 'unknown' }]);
  });

  it("queues a temporary failure's retry at the app's clock, not the machine's", async () => {
    const ivo = await createCustomer('Ivo');
    const [row] = await selectRows<{ id: string | number }>(ctx.app, sql`select id from service_messages where customer_id = ${ivo.id}`);
    const ahead = new Date(Date.now() + 3_600_000);
    const busy: Mailer = {
      kind: 'smtp',
      send: async () => {
        throw Object.assign(new Error('451 4.2.1 Mailbox busy, try later'), { responseCode: 451 });
      },
    };
    const outcome = await sendServiceMessage({ ...serviceEmailDepsOf(ctx.app), mailer: busy, clock: { now: () => ahead }, retryBaseSeconds: 30 }, Number(row!.id));
    expect(outcome).toEqual({ status: 'retry' });
    const [retry] = await selectRows<{ run_at: Date | string }>(ctx.app, sql`select run_at from jobs where dedupe_key = ${`service-email-send:${row!.id}:1`}`);
    expect(new Date(retry!.run_at).getTime()).toBe(ahead.getTime() + 30_000);
  });

  it('does not send a message queued before its program switched it off', async () => {
    const gino = await createCustomer('Gino');
    const off = await ctx.request({
      method: 'PUT',
      url: `${settingsUrl()}/welcome`,
      token,
      payload: { isEnabled: false, subjectIt: 'Eccoti in {{programma}}, {{nome}}', bodyIt: 'x', subjectEn: 'x', bodyEn: 'x', version: 1 },
    });
    expect(off.statusCode, off.body).toBe(200);
    await runJobs();
    expect(smtp.messages.some((m) => m.to?.[0]?.address === 'gino@example.it')).toBe(false);
    expect(await messagesOf(gino.id)).toMatchObject([{ status: 'skipped' }]);
    // Skipped by the claim itself, which reads the program's switch in the same statement.
    expect(await selectRows(ctx.app, sql`select status, last_error from service_messages where customer_id = ${gino.id}`)).toEqual([{ status: 'skipped', last_error: 'switched_off' }]);
    const on = await ctx.request({
      method: 'PUT',
      url: `${settingsUrl()}/welcome`,
      token,
      payload: { isEnabled: true, subjectIt: 'Eccoti in {{programma}}, {{nome}}', bodyIt: 'Ciao {{nome}},\n\nla tua tessera: {{link_tessera}}\n\nSaldo: {{saldo}}', subjectEn: 'Welcome, {{nome}}', bodyEn: 'Your card: {{link_tessera}}', version: 2 },
    });
    expect(on.statusCode, on.body).toBe(200);
  });

  it('previews the texts as typed with a real customer\'s values, and refuses an unknown placeholder', async () => {
    const [anna] = await selectRows<{ id: string }>(ctx.app, sql`select id from customers where email = 'anna@example.it'`);
    const preview = await ctx.request({
      method: 'POST',
      url: `${settingsUrl()}/welcome/preview`,
      token,
      payload: { customerId: anna!.id, language: 'en', subject: 'Hi {{nome}} {{cognome}}', body: 'Balance {{saldo}} in {{programma}}' },
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().subject).toBe('Hi Anna Servizio');
    expect(preview.json().text).toContain('Balance 0 in Circuito Punti');
    expect(preview.json().html).toContain('Circuito Punti');
    const refused = await ctx.request({
      method: 'POST',
      url: `${settingsUrl()}/welcome/preview`,
      token,
      payload: { customerId: anna!.id, language: 'en', subject: 'Hi {{name}}', body: 'x' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields).toMatchObject([{ field: 'subjectEn', message: expect.stringContaining('{{name}}') }]);
  });

  it('links to the preferences page, where promotions and profiling can be stopped', async () => {
    const mail = await smtp.waitForMessageTo('anna@example.it');
    const url = /\/u\/([0-9a-f]{32})/.exec(mail.text ?? '')?.[0];
    expect(url).toBeDefined();
    const page = await ctx.request({ method: 'GET', url: url! });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Comunicazioni promozionali');
  });

  const uploadCustomers = (fields: Record<string, string>, names: string[]) => {
    const csv = ['Nome;Cognome;Email;Consenso servizio', ...names.map((name) => `${name};Importato;${name.toLowerCase()}@example.it;sì`)].join('\r\n');
    return ctx.request({ method: 'POST', url: '/api/admin/imports', token, ...multipartBody({ kind: 'customers', ...fields }, { name: 'clienti.csv', content: csv }) });
  };

  it('welcomes the customers of an import only when the operator ticked "invia il benvenuto", from the import\'s program, which they join', async () => {
    const importFile = async (sendWelcome: boolean, names: string[]) => {
      const response = await uploadCustomers({ dryRun: 'false', programId: fx.pointsProgramId, ...(sendWelcome ? { sendWelcome: 'true' } : {}) }, names);
      expect(response.statusCode, response.body).toBe(201);
      expect((await runImportChunk(importDeps(ctx.app), response.json().id)).status).toBe('done');
    };
    await importFile(false, ['Ugo', 'Vera']);
    await importFile(true, ['Walter', 'Xenia']);
    await runJobs();
    const welcomed = smtp.messages.map((m) => m.to?.[0]?.address).filter((to) => /^(ugo|vera|walter|xenia)@/.test(to ?? ''));
    expect(welcomed.sort()).toEqual(['walter@example.it', 'xenia@example.it']);
    // All four joined the import's program, and only it: the other program has the welcome on too.
    const members = await selectRows<{ email: string; program_id: string }>(
      ctx.app,
      sql`select c.email, m.program_id from memberships m join customers c on c.id = m.customer_id
          where c.email in ('ugo@example.it', 'vera@example.it', 'walter@example.it', 'xenia@example.it') order by c.email`,
    );
    expect(members).toEqual(['ugo', 'vera', 'walter', 'xenia'].map((name) => ({ email: `${name}@example.it`, program_id: fx.pointsProgramId })));
    const welcomes = await selectRows<{ program_id: string }>(
      ctx.app,
      sql`select s.program_id from service_messages s join customers c on c.id = s.customer_id where c.email in ('walter@example.it', 'xenia@example.it')`,
    );
    expect(welcomes).toEqual([{ program_id: fx.pointsProgramId }, { program_id: fx.pointsProgramId }]);
  });

  it('refuses "invia il benvenuto" without a program on the field, the dry run too, and a program that is not active', async () => {
    for (const dryRun of ['true', 'false']) {
      const refused = await uploadCustomers({ dryRun, sendWelcome: 'true' }, ['Yuri']);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error).toMatchObject({ code: 'validation', fields: [{ field: 'programId', message: expect.stringMatching(/^Programma: scegli il programma/) }] });
    }
    const closed = await uploadCustomers({ dryRun: 'true', sendWelcome: 'true', programId: closedProgramId }, ['Yuri']);
    expect(closed.statusCode, closed.body).toBe(400);
    expect(closed.json().error.fields).toMatchObject([{ field: 'programId', message: expect.stringMatching(/^Programma: scegli un programma attivo/) }]);
    const [yuri] = await selectRows<{ n: number }>(ctx.app, sql`select count(*)::int as n from customers where email = 'yuri@example.it'`);
    expect(yuri?.n).toBe(0);
  });

  it('refuses to start an import whose program was closed after its dry run, and imports nobody', async () => {
    const programId = randomUUID();
    await ctx.app.db.execute(sql`insert into programs (id, name, type, status, stamps_required, bonuses) values (${programId}, 'Chiude presto', 'stamps', 'active', 10, '{}'::jsonb)`);
    const checked = await uploadCustomers({ dryRun: 'true', programId }, ['Quirino']);
    expect(checked.statusCode, checked.body).toBe(201);
    await ctx.app.db.execute(sql`update programs set status = 'closed' where id = ${programId}`);
    const started = await ctx.request({ method: 'POST', url: `/api/admin/imports/${checked.json().id}/start`, token });
    expect(started.statusCode, started.body).toBe(400);
    expect(started.json().error.fields).toMatchObject([{ field: 'programId', message: expect.stringMatching(/^Programma: scegli un programma attivo/) }]);
    expect((await ctx.request({ method: 'GET', url: `/api/admin/imports/${checked.json().id}`, token })).json()).toMatchObject({ status: 'validated' });
    const [quirino] = await selectRows<{ n: number }>(ctx.app, sql`select count(*)::int as n from customers where email = 'quirino@example.it'`);
    expect(quirino?.n).toBe(0);
  });

  it('erasure removes the address and the texts from the message log', async () => {
    const [anna] = await selectRows<{ id: string }>(ctx.app, sql`select id from customers where email = 'anna@example.it'`);
    await ctx.app.db.transaction((tx) => eraseMessages(tx, anna!.id));
    const [row] = await selectRows<{ email: string | null; subject: string | null; body_text: string | null; status: string }>(
      ctx.app,
      sql`select email, subject, body_text, status from service_messages where customer_id = ${anna!.id}`,
    );
    expect(row).toEqual({ email: null, subject: null, body_text: null, status: 'sent' });
  });
});

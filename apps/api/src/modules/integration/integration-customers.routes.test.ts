import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestContext, selectRows, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture, type LedgerFixture } from '../../../test/ledger-fixtures.ts';

/**
 * `POST /api/integration/v1/customers`: the customers' app signs a person up in one program, through
 * the back-office's own creation (the membership, that program's welcome), once per Idempotency-Key.
 */
describe('signing customers up through the integration API', () => {
  let ctx: TestContext;
  let adminToken: string;
  let fx: LedgerFixture;
  let appKey: string;

  const createKey = async (body: Record<string, unknown>) => {
    const response = await ctx.request({ method: 'POST', url: '/api/admin/api-keys', token: adminToken, payload: body });
    return response;
  };
  const signUp = (key: string, body: Record<string, unknown>, idempotencyKey = 'app-signup-0001') =>
    ctx.request({
      method: 'POST',
      url: '/api/integration/v1/customers',
      headers: { authorization: `Bearer ${key}`, 'idempotency-key': idempotencyKey },
      payload: body,
    });
  const person = (email: string) => ({
    firstName: 'Giulia',
    lastName: 'Bianchi',
    email,
    consents: { service: { granted: true, noticeVersion: '2026-01' }, marketing: { granted: false, noticeVersion: '2026-01' } },
    programId: fx.pointsProgramId,
  });

  beforeAll(async () => {
    ctx = await createTestContext();
    adminToken = await ctx.tokenFor('admin@demo.test');
    fx = await createLedgerFixture(ctx.app.db, { customers: 0 });
    // Both programs have the welcome on: the person hears only from the one they join.
    for (const programId of [fx.pointsProgramId, fx.stampsProgramId]) {
      await ctx.app.db.execute(
        sql`insert into service_email_settings (program_id, kind, is_enabled, subject_it, body_it, subject_en, body_en, updated_at)
            values (${programId}, 'welcome', true, 'Benvenuto', 'Ciao {{nome}}', 'Welcome', 'Hi', now())`,
      );
    }
    const created = await createKey({ name: 'App clienti', kind: 'app', scopes: ['customers:write', 'cards:read'] });
    expect(created.statusCode, created.body).toBe(201);
    appKey = created.json().secret;
  });
  afterAll(async () => ctx?.close());

  it('signs a person up: card number, referral code and the membership of the program, consents recorded as given in the app, one welcome from that program', async () => {
    const response = await signUp(appKey, person('giulia@example.it'));
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      customerId: expect.any(String),
      cardNumber: expect.stringMatching(/^279\d{10}$/),
      referralCode: expect.stringMatching(/^[A-Z0-9]{8}$/),
      membership: { id: expect.any(String), programId: fx.pointsProgramId, balance: 0, stamps: 0, tier: null, joinedAt: expect.any(String) },
    });
    expect(JSON.stringify(body)).not.toMatch(/cardCode/);
    const consents = await selectRows<{ purpose: string; granted: boolean; channel: string; recorded_by: string | null }>(
      ctx.app,
      sql`select purpose, granted, channel, recorded_by from customer_consents where customer_id = ${body.customerId} order by purpose`,
    );
    expect(consents).toEqual([
      { purpose: 'marketing', granted: false, channel: 'app', recorded_by: null },
      { purpose: 'service', granted: true, channel: 'app', recorded_by: null },
    ]);
    const welcomes = await selectRows<{ program_id: string }>(ctx.app, sql`select program_id from service_messages where customer_id = ${body.customerId}`);
    expect(welcomes).toEqual([{ program_id: fx.pointsProgramId }]);
  });

  it("records the language the person uses in the app, Italian when the app says none", async () => {
    const english = await signUp(appKey, { ...person('oliver@example.it'), language: 'en' }, 'app-signup-lang-en');
    expect(english.statusCode, english.body).toBe(201);
    const plain = await signUp(appKey, person('piera@example.it'), 'app-signup-lang-none');
    expect(plain.statusCode, plain.body).toBe(201);
    const rows = await selectRows<{ email: string; language: string }>(
      ctx.app,
      sql`select email, language from customers where email in ('oliver@example.it', 'piera@example.it') order by email`,
    );
    expect(rows).toEqual([
      { email: 'oliver@example.it', language: 'en' },
      { email: 'piera@example.it', language: 'it' },
    ]);
  });

  it('answers a retry with the same key with the same customer, never a second one, and the welcome stays queued once', async () => {
    const first = await signUp(appKey, person('marco@example.it'), 'app-signup-retry');
    const again = await signUp(appKey, person('marco@example.it'), 'app-signup-retry');
    expect(first.statusCode, first.body).toBe(201);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const [count] = await selectRows<{ customers: number; welcomes: number }>(
      ctx.app,
      sql`select (select count(*)::int from customers where email = 'marco@example.it') as customers,
                 (select count(*)::int from service_messages s join customers c on c.id = s.customer_id where c.email = 'marco@example.it') as welcomes`,
    );
    expect(count).toEqual({ customers: 1, welcomes: 1 });
    const otherBody = await signUp(appKey, { ...person('marco@example.it'), firstName: 'Marta' }, 'app-signup-retry');
    expect(otherBody.statusCode).toBe(422);
  });

  it('says 409 already_used on the email field when the address is taken', async () => {
    const response = await signUp(appKey, person('giulia@example.it'), 'app-signup-taken');
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json().error).toMatchObject({ code: 'already_used', fields: [{ field: 'email' }] });
  });

  it('refuses a program that is not active on the field, and a missing program', async () => {
    await ctx.app.db.execute(sql`update programs set status = 'closed' where id = ${fx.stampsProgramId}`);
    const closed = await signUp(appKey, { ...person('anna@example.it'), programId: fx.stampsProgramId }, 'app-signup-closed');
    expect(closed.statusCode, closed.body).toBe(400);
    expect(closed.json().error.fields).toMatchObject([{ field: 'programId' }]);
    const { programId: _omitted, ...withoutProgram } = person('anna@example.it');
    const missing = await signUp(appKey, withoutProgram, 'app-signup-missing');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.fields).toMatchObject([{ field: 'programId' }]);
  });

  it('refuses a key without the customers:write scope (403), and never gives that scope to a merchant key', async () => {
    const reader = await createKey({ name: 'App sola lettura', kind: 'app', scopes: ['cards:read'] });
    const response = await signUp(reader.json().secret, person('pia@example.it'), 'app-signup-scope');
    expect(response.statusCode, response.body).toBe(403);
    expect(response.json().error.code).toBe('forbidden');
    const merchant = await createKey({ name: 'Cassa', kind: 'merchant', merchantId: fx.merchantId, scopes: ['purchases:write', 'customers:write'] });
    expect(merchant.statusCode).toBe(400);
    expect(merchant.json().error.fields).toMatchObject([{ field: 'scopes' }]);
    // A merchant key holding the scope anyway (written before the rule, or by hand) is still refused.
    const till = await createKey({ name: 'Cassa 2', kind: 'merchant', merchantId: fx.merchantId, scopes: ['purchases:write'] });
    await ctx.app.db.execute(sql`update api_keys set scopes = array['purchases:write', 'customers:write'] where id = ${till.json().key.id}`);
    const refused = await signUp(till.json().secret, person('pia@example.it'), 'app-signup-till');
    expect(refused.statusCode, refused.body).toBe(403);
    expect(await selectRows(ctx.app, sql`select id from customers where email = 'pia@example.it'`)).toEqual([]);
  });

  it('is documented in the integration OpenAPI document with an example', async () => {
    const response = await ctx.request({ method: 'GET', url: '/api/docs-integration/json' });
    expect(response.statusCode).toBe(200);
    const operation = response.json().paths['/api/integration/v1/customers']?.post;
    expect(operation?.summary).toMatch(/Iscrive/);
    expect(JSON.stringify(operation?.requestBody)).toContain('giulia.bianchi@example.it');
  });
});

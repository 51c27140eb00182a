import path from 'node:path';
import { readdir, readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helper.ts';
import { sql } from 'drizzle-orm';
import { capturedLog } from '../../test/log-lines.ts';
import { redactUrl } from './logger.ts';

describe('redactUrl', () => {
  it('keeps the path and harmless parameters, and redacts every value that could be a secret', () => {
    expect(redactUrl('/api/admin/user-by-token?token=eyJ.abc.def')).toBe('/api/admin/user-by-token?token=[redacted]');
    expect(redactUrl('/api/admin/news?page=2&status=draft')).toBe('/api/admin/news?page=2&status=draft');
    expect(redactUrl('http://h/auth/reset-password?x=1&%74oken=abc')).toBe('http://h/auth/reset-password?x=1&%74oken=[redacted]');
    expect(redactUrl('/a?refresh_token=r&id_token=i')).toBe('/a?refresh_token=[redacted]&id_token=[redacted]');
  });

  it("keeps an error's kind and code but not the data it quotes (a CSV parser's record, a statement's parameters)", async () => {
    const { errorForLog } = await import('./logger.ts');
    const csv = Object.assign(new Error('Invalid Opening Quote: a quote is found on field 0 at line 4, value is "Lucia Bianchi\n347 1234567"'), {
      code: 'INVALID_OPENING_QUOTE',
      lines: 4,
      record: ['Lucia', 'Bianchi'],
      raw: 'Lucia;Bianchi',
    });
    const logged = JSON.stringify(errorForLog(csv));
    expect(logged).toContain('INVALID_OPENING_QUOTE');
    expect(logged).toContain('"lines":4');
    expect(logged).not.toMatch(/Lucia|Bianchi|1234567/);
  });

  it("keeps a card's number and drops its presence code from an integration path (decision record 030)", () => {
    expect(redactUrl('/api/integration/v1/cards/2790000000018-K7PXM2QD9W')).toBe('/api/integration/v1/cards/2790000000018-[redacted]');
    expect(redactUrl('/api/integration/v1/cards/2790000000018%2dk7pxm2qd9w?x=1')).toBe('/api/integration/v1/cards/2790000000018-[redacted]?x=1');
    expect(redactUrl('/api/integration/v1/cards/2790000000018')).toBe('/api/integration/v1/cards/2790000000018');
  });
});

describe('what the server logs (issue 6, item 3)', () => {
  let ctx: TestContext;
  const { lines, logger } = capturedLog();
  beforeAll(async () => {
    // No SMTP_URL: the outbox mailer, as on a developer's machine.
    ctx = await createTestContext({ env: { RATE_LIMIT_ALLOW: '127.0.0.1' }, logger });
  });
  afterAll(() => ctx.close());

  it('never writes an ID token from the S4 query or a reset link’s token into the request log', async () => {
    const token = await ctx.tokenFor('admin@demo.test');
    const answer = await ctx.request({ method: 'GET', url: `/api/admin/user-by-token?token=${encodeURIComponent(token)}`, token });
    expect(answer.statusCode).toBe(200);
    await ctx.request({ method: 'GET', url: '/auth/reset-password?token=a-reset-secret-value' });
    const log = lines.join('\n');
    expect(log).toContain('/api/admin/user-by-token?token=[redacted]');
    expect(log).not.toContain(token);
    expect(log).not.toContain(token.split('.')[2]);
    expect(log).not.toContain('a-reset-secret-value');
  });

  it('logs a failing statement without its parameters, the values PostgreSQL echoes, or the row (issue 30)', async () => {
    const email = 'lucia.bianchi@example.it';
    await ctx.app.db.execute(sql`insert into customers (first_name, last_name, email, card_number, referral_code) values ('Lucia', 'Bianchi', ${email}, '2790000000991', 'LOGTEST1')`);
    const failure = await ctx.app.db
      .execute(sql`insert into customers (first_name, last_name, email, card_number, referral_code) values ('Lucia', 'Bianchi', ${email}, '2790000000992', 'LOGTEST2')`)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(JSON.stringify(failure, Object.getOwnPropertyNames(failure)) + String((failure as Error).message)).toContain(email);
    ctx.app.log.error({ err: failure }, 'a failing insert');
    const entry = lines.find((line) => line.includes('a failing insert'));
    expect(entry).toBeDefined();
    expect(entry).not.toContain(email);
    expect(entry).not.toContain('Bianchi');
    // What failed stays readable: the error's code and constraint.
    expect(entry).toContain('23505');
    expect(entry).toContain('customers_email_key');
  });

  it('writes reset e-mails to the outbox with the link, and logs only the file', async () => {
    expect((await ctx.request({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: 'admin@demo.test' } })).statusCode).toBe(200);
    const outbox = path.join(ctx.dataDir, 'outbox');
    let texts: string[] = [];
    for (let wait = 0; wait < 100 && texts.length === 0; wait += 1) {
      texts = (await readdir(outbox).catch(() => [] as string[])).filter((name) => name.endsWith('.txt'));
      if (texts.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const body = await readFile(path.join(outbox, texts[0]!), 'utf8');
    const link = body.match(/https?:\/\/\S+token=\S+/)?.[0];
    expect(link).toBeDefined();
    const entry = lines.find((line) => line.includes('e-mail written to the outbox'));
    expect(entry).toBeDefined();
    const log = lines.join('\n');
    expect(log).not.toContain(link!);
    expect(log).not.toContain(new URL(link!).searchParams.get('token')!);
  });
});

import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createServerDatabase, createTestContext, testDatabaseKind, type ServerDatabase, type TestContext } from '../../test/helper.ts';
import { DEMO_PASSWORD } from '../db/seed.ts';
import { auditLog, users } from '../db/schema.ts';
import { runStaffCli } from './staff.ts';

describe('staff CLI commands', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { AUTH_RATE_LIMIT: '1000' } });
  });
  afterAll(() => ctx.close());

  async function cli(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runStaffCli(argv, { out: (line) => out.push(line), err: (line) => err.push(line) }, {
      openDb: async () => ctx.app.database,
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }
  const login = (email: string, password: string) =>
    ctx.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } });

  it('creates an admin with a generated password that signs in, and audits it as "cli"', async () => {
    const result = await cli('create-admin', '--email', 'Boss@Example.test', '--name', 'Anna Maria Blu');
    expect(result.code).toBe(0);
    const password = /Password \(shown once, store it safely\): (\S+)/.exec(result.out)?.[1];
    expect(password).toHaveLength(24);
    const response = await login('boss@example.test', password!);
    expect(response.statusCode).toBe(200);
    expect((await ctx.app.tokenSigner.verify(response.json().idToken))).toMatchObject({ role: 'admin', name: 'Anna Maria Blu' });
    const [audit] = await ctx.app.db.select().from(auditLog).where(eq(auditLog.action, 'staff.create_admin'));
    expect(audit).toMatchObject({ actorEmail: 'cli', actorId: null });
  });

  it('creates an admin with a given password, and refuses a taken address or a common password', async () => {
    expect((await cli('create-admin', '--email', 'second@example.test', '--password', 'Pane-burro-e-marmellata')).code).toBe(0);
    expect((await login('second@example.test', 'Pane-burro-e-marmellata')).statusCode).toBe(200);
    const taken = await cli('create-admin', '--email', 'admin@demo.test');
    expect(taken).toMatchObject({ code: 1, err: expect.stringContaining('exists already') });
    const common = await cli('create-admin', '--email', 'third@example.test', '--password', 'password1');
    expect(common).toMatchObject({ code: 1, err: expect.stringContaining('most common') });
  });

  it('grants and revokes roles, and the guard follows at once', async () => {
    const token = await ctx.tokenFor('member@demo.test');
    expect((await ctx.request({ method: 'GET', url: '/api/admin/me', token })).statusCode).toBe(403);
    expect((await cli('grant', '--email', 'member@demo.test', '--role', 'editor')).code).toBe(0);
    expect((await ctx.request({ method: 'GET', url: '/api/admin/me', token })).statusCode).toBe(200);
    expect((await cli('revoke', '--email', 'member@demo.test')).code).toBe(0);
    const [member] = await ctx.app.db.select().from(users).where(eq(users.email, 'member@demo.test'));
    expect(member?.role).toBeNull();
    expect((await ctx.request({ method: 'GET', url: '/api/admin/me', token })).statusCode).toBe(403);
    const audits = await ctx.app.db.select().from(auditLog).where(eq(auditLog.entityId, member!.id));
    expect(audits.map((entry) => entry.action)).toEqual(expect.arrayContaining(['staff.grant_role', 'staff.revoke_role']));
  });

  it('disables an account, ending its sessions, and enables it again', async () => {
    const { refreshToken } = (await login('editor@demo.test', DEMO_PASSWORD)).json();
    expect((await cli('disable', '--email', 'editor@demo.test')).out).toContain('editor@demo.test is disabled');
    const refreshed = await ctx.request({
      method: 'POST',
      url: '/api/auth/token',
      payload: { grant_type: 'refresh_token', refresh_token: refreshToken },
    });
    expect(refreshed.json().error.code).toBe('invalid_grant');
    expect((await login('editor@demo.test', DEMO_PASSWORD)).statusCode).toBe(400);
    expect((await cli('enable', '--email', 'editor@demo.test')).code).toBe(0);
    expect((await login('editor@demo.test', DEMO_PASSWORD)).statusCode).toBe(200);
  });

  it('lists the accounts with role and status', async () => {
    const result = await cli('list');
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^admin@demo\.test\tadmin\tactive\tGiulia Rossi$/m);
  });

  it('explains bad input with exit code 1 and prints the help on --help', async () => {
    expect(await cli('grant', '--email', 'admin@demo.test', '--role', 'owner')).toMatchObject({
      code: 1,
      err: expect.stringContaining('--role must be one of: admin, editor, member'),
    });
    expect(await cli('disable')).toMatchObject({ code: 1, err: expect.stringContaining('--email is required') });
    expect(await cli('disable', '--email', 'not-an-address')).toMatchObject({ code: 1, err: expect.stringContaining('not a valid') });
    expect(await cli('promote')).toMatchObject({ code: 1, err: expect.stringContaining('Unknown command') });
    expect(await cli('list', '--colour')).toMatchObject({ code: 1, err: expect.stringContaining("Unknown option '--colour'") });
    const help = await cli('--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('ONE process at a time');
  });
});

// The command runs on an embedded database under its own DATA_DIR whatever the project's database is:
// the api-postgres run would repeat the api-pglite one exactly, so it runs once.
describe.skipIf(testDatabaseKind === 'postgres')('staff CLI as a real command', () => {
  // A DATA_DIR whose embedded database is already migrated: the migrations are not this test's subject.
  let database: ServerDatabase;
  beforeAll(async () => {
    database = await createServerDatabase('cli');
  });
  afterAll(() => database.remove());

  function run(...argv: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), 'staff.ts');
    return new Promise((resolve, reject) => {
      // A minimal environment: nothing of the developer's (DATABASE_URL, INIT_CWD) may reach a real
      // database. tsx as a loader in this one process (its CLI would start a second one).
      const child = spawn(process.execPath, ['--import', 'tsx', entry, ...argv], { env: { DATA_DIR: database.dataDir, NODE_ENV: 'test' } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  it('creates the first admin on the embedded database under DATA_DIR and fails with exit code 1 on bad input', { timeout: 120_000 }, async () => {
    // An unknown command is refused before the database is opened (runStaffCli), so it runs beside the
    // first command instead of after the other two: each start of a command through tsx takes seconds.
    const refused = run('promote', '--email', 'first@example.test');
    const created = await run('create-admin', '--email', 'first@example.test');
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('Created admin first@example.test');
    const listed = await run('list');
    expect(listed.stdout).toContain('first@example.test\tadmin\tactive');
    const bad = await refused;
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Unknown command or extra argument: promote');
  });
});

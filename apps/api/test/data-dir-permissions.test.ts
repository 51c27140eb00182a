import os from 'node:os';
import path from 'node:path';
import { chmod, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openClient, startServer } from './server-process.ts';
import { testDatabaseKind } from './helper.ts';

/** Every directory and file under `dir`, with its permission bits. */
async function modes(dir: string): Promise<{ file: string; mode: number; isDirectory: boolean }[]> {
  const entries = await readdir(dir, { recursive: true });
  return Promise.all(
    [dir, ...entries.map((entry) => path.join(dir, entry))].map(async (file) => {
      const info = await stat(file);
      return { file, mode: info.mode & 0o777, isDirectory: info.isDirectory() };
    }),
  );
}

/**
 * Issue 6, item 5: the real server on a fresh DATA_DIR, started from a shell with the usual umask
 * 022, keeps the database, keys and outbox to its own user.
 */
// The server runs on an embedded database under its DATA_DIR whatever the project's database is: the
// api-postgres run would repeat the api-pglite one exactly, so it runs once.
describe.skipIf(testDatabaseKind === 'postgres')('permissions of the data directory', () => {
  let parent = '';
  const originalUmask = process.umask();
  beforeAll(async () => {
    parent = await mkdtemp(path.join(os.tmpdir(), 'sf-perm-'));
    // The server inherits this process's umask: the permissive one most shells have.
    process.umask(0o022);
  });
  afterAll(async () => {
    process.umask(originalUmask);
    await rm(parent, { recursive: true, force: true });
  });

  // A real server start: generous on a loaded machine.
  it('creates DATA_DIR 0700 and writes nothing that the group or others can read', { timeout: 180_000 }, async () => {
    const dataDir = path.join(parent, 'fresh', 'data');
    const server = await startServer({ dataDir });
    try {
      // Something in every part: the database (started), keys (generated), the outbox (a reset e-mail).
      const client = await openClient(server.baseUrl);
      expect((await client.request('POST', '/api/auth/forgot-password', { body: { email: 'admin@demo.test' } })).status).toBe(200);
      for (let wait = 0; wait < 100; wait += 1) {
        if ((await readdir(path.join(dataDir, 'outbox')).catch(() => [])).length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await server.stop();
    }
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    const all = await modes(dataDir);
    expect(all.some((entry) => entry.file.includes(`${path.sep}pglite${path.sep}`) && !entry.isDirectory)).toBe(true);
    expect(all.some((entry) => entry.file.includes(`${path.sep}outbox${path.sep}`))).toBe(true);
    expect(all.some((entry) => entry.file.includes(`${path.sep}keys${path.sep}`))).toBe(true);
    const open = all.filter((entry) => (entry.mode & 0o077) !== 0).map((entry) => `${entry.file} ${entry.mode.toString(8)}`);
    expect(open).toEqual([]);
  });

  it('refuses to start on a DATA_DIR that other users can read, naming it and the fix', { timeout: 180_000 }, async () => {
    const dataDir = path.join(parent, 'loose');
    await mkdir(dataDir);
    await chmod(dataDir, 0o755);
    const failure = await startServer({ dataDir }).then(
      async (server) => {
        await server.stop();
        return '';
      },
      (error: Error) => error.message,
    );
    expect(failure).toContain('DATA_DIR is readable by other users');
    expect(failure).toContain(dataDir);
    expect(failure).toContain('chmod');
  });
});

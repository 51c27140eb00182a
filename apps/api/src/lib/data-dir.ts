import path from 'node:path';
import { chmod, mkdir, readdir, stat } from 'node:fs/promises';

/** What lives under DATA_DIR; each is checked when it exists. */
const SUBDIRECTORIES = ['pglite', 'keys', 'outbox', 'uploads'];

export class DataDirPermissionError extends Error {}

function tooOpen(mode: number): boolean {
  return (mode & 0o077) !== 0;
}

/**
 * DATA_DIR holds the embedded database (password hashes, also in its WAL), the signing key and the
 * forgery-protection secret, the outbox (live reset links) and the uploads: nobody but the server's
 * user may read it. At start:
 * - the process umask becomes 077, so every file the server, PGlite, the mailer or an upload creates
 *   is 0600 and every directory 0700, whatever the shell's umask was;
 * - DATA_DIR is created 0700 when missing;
 * - an existing DATA_DIR, or one of its own directories, open to the group or to others stops the
 *   start with the path and the command that fixes it (we do not silently chmod an operator's files).
 */
export async function prepareDataDir(dataDir: string): Promise<void> {
  process.umask(0o077);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const loose: string[] = [];
  const rootInfo = await stat(dataDir);
  if (tooOpen(rootInfo.mode)) loose.push(`${dataDir} (${(rootInfo.mode & 0o777).toString(8)})`);
  for (const name of SUBDIRECTORIES) {
    const dir = path.join(dataDir, name);
    const info = await stat(dir).catch(() => undefined);
    if (!info) continue;
    if (tooOpen(info.mode)) loose.push(`${dir} (${(info.mode & 0o777).toString(8)})`);
    if (name === 'keys') {
      for (const file of await readdir(dir)) {
        const fileInfo = await stat(path.join(dir, file));
        if (tooOpen(fileInfo.mode)) loose.push(`${path.join(dir, file)} (${(fileInfo.mode & 0o777).toString(8)})`);
      }
    }
  }
  if (loose.length > 0) {
    throw new DataDirPermissionError(
      `DATA_DIR is readable by other users: ${loose.join(', ')}. It holds the database, keys and e-mailed links; ` +
        `fix it with: chmod -R go-rwx '${dataDir}'`,
    );
  }
}

/**
 * PGlite (PostgreSQL compiled to WebAssembly) sets its files' modes itself, 0666, whatever the
 * umask; its directories follow the umask (0700). So after opening and after closing the embedded
 * database every file under its directory loses the group's and others' bits. Files it creates while
 * running sit in those 0700 directories, under a 0700 DATA_DIR, until the next close.
 */
export async function restrictTree(dir: string): Promise<void> {
  const entries = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  for (const entry of [dir, ...entries.map((name) => path.join(dir, name))]) {
    const info = await stat(entry).catch(() => undefined);
    if (info && tooOpen(info.mode)) await chmod(entry, info.mode & 0o7700 & ~0o077);
  }
}

import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeStaleCopies } from './compiled-server.ts';

describe("the compiled server's copies", () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('removes the copies of other sources written more than a day ago, and keeps the current one and the recent ones', async () => {
    root = mkdtempSync(path.join(tmpdir(), 'sf-compiled-'));
    const now = Date.now();
    const copy = (name: string, ageHours: number) => {
      mkdirSync(path.join(root, name));
      writeFileSync(path.join(root, name, 'server.mjs'), '// compiled');
      const at = new Date(now - ageHours * 3_600_000);
      utimesSync(path.join(root, name), at, at);
    };
    copy('current', 72);
    copy('yesterday-and-more', 25);
    copy('last-week', 24 * 7);
    copy('an-hour-ago', 1);

    await removeStaleCopies(root, 'current', now);

    expect(readdirSync(root).sort()).toEqual(['an-hour-ago', 'current']);
  });

  it('does nothing when the folder is not there yet', async () => {
    root = path.join(tmpdir(), `sf-compiled-absent-${process.pid}`);
    await expect(removeStaleCopies(root, 'current')).resolves.toBeUndefined();
  });
});

import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openDatabase, PGLITE_EXTENSIONS } from '../src/db/client.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A tarball of a PGlite data directory with every migration applied (api-pglite project). */
    pgliteMigratedDump: string;
  }
}

/**
 * For the API tests' "pglite" project: migrate an embedded PostgreSQL once for the whole run and keep
 * its data directory as a tarball. Every test file used to run the eleven migrations itself (seconds
 * each on a busy two-core machine); now each test database starts from this dump
 * (`PGlite.create({ loadDataDir })`), which is the same migrated PGlite, only not rebuilt per file.
 */
export default async function setup(project: TestProject) {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'sf-pglite-template-'));
  const template = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  const handle = await openDatabase({ pglite: template });
  await handle.migrate();
  const dump = await template.dumpDataDir('none');
  await handle.close();
  const file = path.join(folder, 'migrated.tar');
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteMigratedDump', file);
  return () => rm(folder, { recursive: true, force: true });
}

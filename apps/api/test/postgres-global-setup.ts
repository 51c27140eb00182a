import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.ts';
import { startPostgresServer } from './postgres-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
  }
}

/**
 * For the API tests' "postgres" project: a real PostgreSQL server, a template database migrated once,
 * and the server stopped at the end. Each test file clones the template (`CREATE DATABASE … TEMPLATE`),
 * which takes milliseconds.
 */
export default async function setup(project: TestProject) {
  const server = await startPostgresServer();
  const client = new pg.Client({ connectionString: `${server.adminUrl}/postgres` });
  await client.connect();
  await client.query('CREATE DATABASE sf_template');
  await client.end();
  const template = await openDatabase({ url: `${server.adminUrl}/sf_template`, poolSize: 1 });
  await template.migrate();
  await template.close();
  project.provide('postgresAdminUrl', server.adminUrl);
  return () => server.stop();
}

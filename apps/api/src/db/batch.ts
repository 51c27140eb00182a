import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import pg from 'pg';
import type { Database, Executor } from './client.ts';
import * as schema from './schema.ts';
import { isBoundStatement, preparedNameOf, type BoundStatement } from './statement-shape.ts';

/**
 * A transaction whose statements travel in batches: one round trip for `begin` and the first
 * statements, one for the last statements and `commit` (decision 026).
 *
 * Why: on a real PostgreSQL every round trip costs both processes a socket write and a wake-up
 * (measured: ~0.17 ms of the API's event loop each, half of a purchase's cost, and the member's row
 * stays locked across each of them). A batch is sent as ONE simple-protocol query, so its parameters
 * are written into the text as literals (`pg.escapeLiteral`, the driver's own quoting) — statements
 * built by us with Drizzle's `sql` template, never text from a request.
 *
 * Statements of one batch run in order, each with its own snapshot (READ COMMITTED): a statement
 * after a row lock sees every write committed before the lock was granted. If one fails, the rest of
 * its batch is skipped and the transaction is rolled back.
 *
 * Each statement is prepared on its connection after its first use (`PREPARE`, outside any
 * transaction, once per connection and statement shape) and then sent as `EXECUTE name(literals…)`:
 * PostgreSQL stops planning it on every write (planning the batch's four statements cost about as much
 * as running them). Parameter types are inferred as for any driver-sent statement.
 *
 * On the embedded PGlite (in-process, no round trips) the same statements run one by one inside a
 * Drizzle transaction: same order, same snapshots, same outcome.
 */
export type BatchedTransaction = {
  /** Runs the statements in one round trip (`begin` first if this is the first); their rows, in order. */
  send(statements: Statement[], options?: { commit?: boolean }): Promise<Record<string, unknown>[][]>;
  /** The transaction as an executor for the repositories' usual one-statement functions (after a send). */
  executor(): Executor;
};

/** A statement of a batch: a shape with its values (built once per shape), or any Drizzle `sql`. */
export type Statement = BoundStatement | SQL;

const dialect = new PgDialect({ casing: 'snake_case' });

/** A parameter as a SQL literal, for a simple-protocol query. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return String(value);
  }
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) return pg.escapeLiteral(value.toISOString());
  if (typeof value === 'string') return pg.escapeLiteral(value);
  return pg.escapeLiteral(JSON.stringify(value));
}

/** The statement as text with its parameters inlined (`$n` → literal). */
export function inlineStatement(statement: Statement): string {
  return inlineQuery(queryOf(statement));
}

/** Text and parameters: a shape's as they are, a Drizzle statement's built now. */
function queryOf(statement: Statement): { sql: string; params: readonly unknown[] } {
  return isBoundStatement(statement) ? { sql: statement.shape.text, params: statement.params } : dialect.sqlToQuery(statement);
}

/** The prepared name of a statement's shape (a shape knows its own). */
function nameOf(statement: Statement, text: string): string {
  return isBoundStatement(statement) ? statement.shape.name : statementName(text);
}

function inlineQuery(query: { sql: string; params: readonly unknown[] }): string {
  return query.sql.replace(/\$(\d+)(?!\d)/g, (_, index: string) => {
    const position = Number(index) - 1;
    if (position < 0 || position >= query.params.length) throw new Error(`statement parameter $${index} has no value`);
    return literal(query.params[position]);
  });
}

/** Statements prepared on each connection (name → shape), kept as long as the connection lives. */
const preparedOn = new WeakMap<pg.PoolClient, Set<string>>();
/** A Drizzle executor per connection, for the repositories' one-statement functions. */
const executors = new WeakMap<pg.PoolClient, Database>();
const statementNames = new Map<string, string>();

/** A Drizzle statement's prepared name (a shape knows its own), remembered: the texts are a handful. */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = preparedNameOf(text);
    if (statementNames.size >= 1_000) statementNames.clear();
    statementNames.set(text, name);
  }
  return name;
}

/** Past this many shapes on one connection, new ones run unprepared (the shapes are a handful). */
const MAX_PREPARED_PER_CONNECTION = 100;

const rowsOf = (result: pg.QueryResult | pg.QueryResult[]): pg.QueryResult[] => (Array.isArray(result) ? result : [result]);

/** The connection pool of a real PostgreSQL's handle; null for the embedded PGlite (in process). */
export function poolOf(db: Database): pg.Pool | null {
  const client = (db as unknown as { $client?: unknown }).$client;
  return client instanceof pg.Pool ? client : null;
}

/** Whether statements travel in batches over a connection (a real PostgreSQL), not one by one in process. */
export function supportsBatches(db: Database): boolean {
  return poolOf(db) !== null;
}

/**
 * A Drizzle executor over one checked-out connection (kept for the connection's life: building Drizzle
 * with the schema costs ~0.4 ms), for statements that must run on that connection.
 */
export function executorOn(client: pg.PoolClient): Database {
  let executor = executors.get(client);
  if (!executor) {
    executor = drizzlePg({ client, schema, casing: 'snake_case' }) as unknown as Database;
    executors.set(client, executor);
  }
  return executor;
}

export async function batchedTransaction<T>(db: Database, work: (transaction: BatchedTransaction) => Promise<T>): Promise<T> {
  const pool = poolOf(db);
  if (!pool) {
    return db.transaction(async (tx) =>
      work({
        async send(statements) {
          const results: Record<string, unknown>[][] = [];
          for (const statement of statements) {
            const sqlOf = isBoundStatement(statement) ? statement.getSQL() : statement;
            results.push(((await tx.execute(sqlOf)) as unknown as { rows: Record<string, unknown>[] }).rows);
          }
          return results;
        },
        executor: () => tx,
      }),
    );
  }

  const client = await pool.connect();
  let isOpen = false;
  let isDone = false;
  let broken: Error | undefined;
  const prepared = preparedOn.get(client) ?? new Set<string>();
  preparedOn.set(client, prepared);
  const toPrepare = new Map<string, string>();
  const transaction: BatchedTransaction = {
    async send(statements, options = {}) {
      if (isDone) throw new Error('the transaction has ended');
      const opening = isOpen ? [] : ['begin'];
      const texts = statements.map((statement) => {
        const query = queryOf(statement);
        const name = nameOf(statement, query.sql);
        if (prepared.has(name)) {
          return query.params.length === 0 ? `execute ${name}` : `execute ${name}(${query.params.map(literal).join(', ')})`;
        }
        toPrepare.set(name, query.sql);
        return inlineQuery(query);
      });
      const text = [...opening, ...texts, ...(options.commit ? ['commit'] : [])].join(';\n');
      isOpen = true;
      const results = rowsOf((await client.query(text)) as unknown as pg.QueryResult | pg.QueryResult[]);
      if (options.commit) isDone = true;
      return results.slice(opening.length, opening.length + statements.length).map((result) => result.rows as Record<string, unknown>[]);
    },
    executor() {
      if (!isOpen || isDone) throw new Error('send the first statements before using the executor');
      return executorOn(client);
    },
  };
  try {
    const result = await work(transaction);
    if (isOpen && !isDone) {
      await client.query('commit');
      isDone = true;
    }
    return result;
  } catch (error) {
    if (isOpen && !isDone) {
      // After a failed statement the transaction is aborted; after a failed commit there is none
      // (PostgreSQL then only warns). Either way nothing of it stays.
      await client.query('rollback').catch((rollbackError: Error) => (broken = rollbackError));
    }
    throw error;
  } finally {
    if (!broken && toPrepare.size > 0 && prepared.size + toPrepare.size <= MAX_PREPARED_PER_CONNECTION) {
      await prepareStatements(client, prepared, toPrepare).catch((error: Error) => (broken = error));
    }
    // A connection that could not roll back or prepare is dropped, not handed to the next request.
    client.release(broken);
  }
}

/** Prepares the shapes first used in this transaction, now that it has ended (one round trip). */
async function prepareStatements(client: pg.PoolClient, prepared: Set<string>, toPrepare: Map<string, string>): Promise<void> {
  try {
    await client.query([...toPrepare].map(([name, text]) => `prepare ${name} as ${text}`).join(';\n'));
    for (const name of toPrepare.keys()) prepared.add(name);
  } catch {
    // One of them may exist already (a statement twice in one transaction) or fail to prepare: learn
    // from the server what this connection holds, and run the others unprepared.
    const existing = await client.query<{ name: string }>(`select name from pg_prepared_statements where name like 'sf\\_%'`);
    for (const { name } of existing.rows) prepared.add(name);
  }
}

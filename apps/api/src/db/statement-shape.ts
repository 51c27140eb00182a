import { createHash } from 'node:crypto';
import { Placeholder, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

/**
 * A statement whose text is built once per shape, not once per request (decision 026).
 *
 * Why: a ledger write sent four statements built with Drizzle's `sql` template, and turning each into
 * text walked its tree of chunks (`sqlToQuery`) and looked its prepared name up by its whole text, for
 * texts that are the same every time: a third of a millisecond of the API's one thread per purchase
 * under load, −29 % purchases/s without shapes (issue 26's paired measure). A shape is
 * written once with named placeholders (`p('customerId')`); its text, parameter order and prepared
 * name are computed on first use. Each request only fills in its values (`shape.with({...})`).
 *
 * A bound statement is also a Drizzle `SQLWrapper`, so every executor runs it as before (PGlite, a
 * transaction's executor); the batched transaction on PostgreSQL reads its text and values directly.
 */
export type BoundStatement = SQLWrapper & {
  readonly shape: StatementShape<never>;
  readonly params: readonly unknown[];
};

const dialect = new PgDialect({ casing: 'snake_case' });

/** A parameter of the built text: a named placeholder's value, or a value fixed in the shape. */
type Slot = { name: string } | { value: unknown };

export class StatementShape<Names extends string> {
  private compiled: { text: string; slots: Slot[]; name: string; pieces: string[] } | undefined;

  /** `build` writes the statement with `p(name)` where each request's value goes. */
  constructor(private readonly build: (p: (name: Names) => Placeholder<Names>) => SQL) {}

  /** The text with `$n` parameters, built on first use. */
  get text(): string {
    return this.compile().text;
  }

  /** The name it is prepared under on a connection: a digest of its text. */
  get name(): string {
    return this.compile().name;
  }

  /** This shape with one request's values (every placeholder must have one). */
  with(values: Record<Names, unknown>): BoundStatement {
    const { slots } = this.compile();
    const params = slots.map((slot) => {
      if ('value' in slot) return slot.value;
      if (!(slot.name in values)) throw new Error(`no value for the statement's placeholder "${slot.name}"`);
      return values[slot.name as Names];
    });
    const shape = this as unknown as StatementShape<never>;
    return { shape, params, getSQL: () => shape.asSql(params) };
  }

  /** The statement as a Drizzle `SQL` with these parameters, for the executors that take one. */
  asSql(params: readonly unknown[]): SQL {
    const { pieces } = this.compile();
    const chunks: SQL[] = [];
    pieces.forEach((piece, index) => {
      chunks.push(sql.raw(piece));
      if (index < params.length) chunks.push(sql`${params[index]}`);
    });
    return sql.join(chunks);
  }

  private compile() {
    if (!this.compiled) {
      const query = dialect.sqlToQuery(this.build((name) => sql.placeholder(name)));
      const slots: Slot[] = query.params.map((param) => (param instanceof Placeholder ? { name: param.name as string } : { value: param }));
      // The text between parameters, in order: $1 … $n each appear once, numbered as they come.
      const pieces = query.sql.split(/\$\d+(?!\d)/);
      if (pieces.length !== slots.length + 1) throw new Error('a statement shape must use each parameter once, in order');
      this.compiled = { text: query.sql, slots, name: preparedNameOf(query.sql), pieces };
    }
    return this.compiled;
  }
}

/** A statement's prepared name on every connection: a digest of its text. */
export function preparedNameOf(text: string): string {
  return `sf_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
}

/** Shapes that vary with a few flags (a write with or without a tier change), each built once. */
export function shapesBy<Flags extends readonly (string | boolean)[], Names extends string>(
  build: (...flags: Flags) => StatementShape<Names>,
): (...flags: Flags) => StatementShape<Names> {
  const shapes = new Map<string, StatementShape<Names>>();
  return (...flags) => {
    const key = flags.join('|');
    let shape = shapes.get(key);
    if (!shape) {
      shape = build(...flags);
      shapes.set(key, shape);
    }
    return shape;
  };
}

export function isBoundStatement(statement: unknown): statement is BoundStatement {
  return typeof statement === 'object' && statement !== null && (statement as BoundStatement).shape instanceof StatementShape;
}

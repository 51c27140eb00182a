import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './unavailable.ts';

function withCode(message: string, code: string, cause?: unknown) {
  return Object.assign(new Error(message, cause === undefined ? undefined : { cause }), { code });
}

describe('isDatabaseUnavailable', () => {
  it('recognises a refused connection, also wrapped by the query builder and inside an AggregateError', () => {
    const refused = withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED');
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(isDatabaseUnavailable(new Error('Failed query: select 1', { cause: refused }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([refused], ''))).toBe(true);
  });

  it('recognises a server shutting down, starting up or out of connection slots', () => {
    for (const code of ['57P01', '57P03', '53300', '08006']) expect(isDatabaseUnavailable(withCode('x', code)), code).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it('leaves request faults and bugs to their own answers', () => {
    expect(isDatabaseUnavailable(withCode('duplicate key value', '23505'))).toBe(false);
    expect(isDatabaseUnavailable(withCode('syntax error', '42601'))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('x is not a function'))).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
  });
});

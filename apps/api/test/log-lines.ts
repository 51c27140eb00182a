import { Writable } from 'node:stream';
import { loggerOptions } from '../src/lib/logger.ts';

/**
 * The server's log as the tests read it: pass `logger` to `createTestContext`, then read `lines` (one
 * JSON line each, as the server writes them at `info`).
 */
export function capturedLog(): { lines: string[]; logger: ReturnType<typeof loggerOptions> & { stream: Writable } } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, logger: { ...loggerOptions('info'), stream } };
}

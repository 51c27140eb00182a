import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CopyBinaryValues } from './copy-binary-values.ts';

/** A one-column binary COPY stream, as PostgreSQL writes it (header with an extension, rows, trailer). */
function binaryCopy(values: (string | null)[], extension = Buffer.alloc(0)): Buffer {
  const header = Buffer.alloc(19);
  Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1').copy(header);
  header.writeUInt32BE(extension.length, 15);
  const rows = values.map((value) => {
    const bytes = value === null ? Buffer.alloc(0) : Buffer.from(value, 'utf8');
    const prefix = Buffer.alloc(6);
    prefix.writeInt16BE(1, 0);
    prefix.writeInt32BE(value === null ? -1 : bytes.length, 2);
    return Buffer.concat([prefix, bytes]);
  });
  const trailer = Buffer.alloc(2);
  trailer.writeInt16BE(-1, 0);
  return Buffer.concat([header, extension, ...rows, trailer]);
}

/** The stream cut at the given offsets, through the transform. */
async function valuesOf(stream: Buffer, cuts: number[]): Promise<string> {
  const offsets = [...new Set(cuts.map((cut) => cut % (stream.length + 1)))].sort((a, b) => a - b);
  const chunks = [0, ...offsets, stream.length].slice(1).map((end, index, ends) => stream.subarray(index === 0 ? 0 : ends[index - 1]!, end));
  return text(Readable.from(chunks.filter((chunk) => chunk.length > 0)).pipe(new CopyBinaryValues()));
}

describe('the values of a one-column binary COPY', () => {
  it('passes every value on, byte for byte, wherever the chunks are cut', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.option(fc.string({ unit: 'grapheme', maxLength: 40 }), { nil: null }), { maxLength: 30 }),
        fc.uint8Array({ maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        async (values, extension, cuts) => {
          const stream = binaryCopy(values, Buffer.from(extension));
          expect(await valuesOf(stream, cuts)).toBe(values.map((value) => value ?? '').join(''));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads a stream fed one byte at a time (CSV lines with quotes, CR and LF inside)', async () => {
    const lines = ['1;"a;b"\r\n', '2;"line\nbreak ""q"""\r\n', '3;sì, àèìòù €\r\n'];
    const stream = binaryCopy(lines);
    expect(await valuesOf(stream, Array.from({ length: stream.length }, (_, index) => index))).toBe(lines.join(''));
  });

  it('refuses what is not a complete binary COPY stream', async () => {
    const stream = binaryCopy(['a', 'b']);
    await expect(valuesOf(stream.subarray(0, stream.length - 1), [])).rejects.toThrow(/ended in the middle/);
    await expect(valuesOf(Buffer.from('id;name\r\n'.repeat(3)), [])).rejects.toThrow(/not a binary COPY/);
  });
});

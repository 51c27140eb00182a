import { Transform, type TransformCallback } from 'node:stream';

/**
 * The values of a one-column `COPY … TO STDOUT (FORMAT binary)`, as their bytes, one after the other
 * (decision 024, exports): PostgreSQL writes each CSV line whole (its quoting and CRLF included), and
 * this takes the COPY framing off — the 19-byte header and its extension, then per row a field count
 * (1) and the value's length, and the trailer (-1). No per-row object: each incoming chunk becomes one
 * outgoing buffer of the values it holds; a frame split across chunks is carried over (a few bytes).
 * Emits `header` once the stream's header has been read.
 *
 * Binary, not text or CSV: COPY's text format escapes backslashes, CR, LF and tabs (to be undone) and
 * its CSV format would quote our whole line; binary gives the text's bytes as they are.
 */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
/** Signature, flags (int32), header extension length (int32). */
const HEADER_BYTES = SIGNATURE.length + 8;
/** Field count (int16) and the value's length (int32). */
const ROW_PREFIX_BYTES = 6;

export class CopyBinaryValues extends Transform {
  private carried: Buffer = Buffer.alloc(0);
  /** Bytes of the current value not yet passed on. */
  private valueLeft = 0;
  private sawHeader = false;
  private sawTrailer = false;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const data = this.carried.length > 0 ? Buffer.concat([this.carried, chunk]) : chunk;
    this.carried = Buffer.alloc(0);
    // The values take at most the input's bytes.
    const out = Buffer.allocUnsafe(data.length);
    let written = 0;
    let at = 0;
    try {
      while (at < data.length) {
        if (this.valueLeft > 0) {
          const take = Math.min(this.valueLeft, data.length - at);
          written += data.copy(out, written, at, at + take);
          at += take;
          this.valueLeft -= take;
          continue;
        }
        if (this.sawTrailer) throw new Error('bytes after the end of the COPY data');
        if (!this.sawHeader) {
          if (data.length - at < HEADER_BYTES) break;
          if (!data.subarray(at, at + SIGNATURE.length).equals(SIGNATURE)) throw new Error('not a binary COPY stream');
          const extension = data.readUInt32BE(at + SIGNATURE.length + 4);
          if (data.length - at < HEADER_BYTES + extension) break;
          at += HEADER_BYTES + extension;
          this.sawHeader = true;
          // The COPY has started: its query was planned and runs (a failing one never gets here).
          this.emit('header');
          continue;
        }
        if (data.length - at < 2) break;
        const fields = data.readInt16BE(at);
        if (fields === -1) {
          this.sawTrailer = true;
          at += 2;
          continue;
        }
        if (fields !== 1) throw new Error(`a binary COPY row of ${fields} fields, expected 1`);
        if (data.length - at < ROW_PREFIX_BYTES) break;
        // -1 is a null value: nothing to pass on.
        this.valueLeft = Math.max(0, data.readInt32BE(at + 2));
        at += ROW_PREFIX_BYTES;
      }
    } catch (error) {
      done(error as Error);
      return;
    }
    // An incomplete header or row prefix waits for the next chunk (a copy: the chunk is released).
    if (at < data.length) this.carried = Buffer.from(data.subarray(at));
    if (written > 0) this.push(out.subarray(0, written));
    done();
  }

  override _flush(done: TransformCallback): void {
    done(this.sawTrailer && this.valueLeft === 0 && this.carried.length === 0 ? null : new Error('the COPY data ended in the middle of a row'));
  }
}

import { escapeJsonBytes } from '../watch/jsonText.ts';

// Bytes of an export, gathered into chunks: one write to the socket per entry of 200 bytes costs
// more than the bytes. A store's bytes go into a JSON string escaped as they are, never decoded
// into a string and encoded again (that was most of an export's time and garbage), a slice at a
// time, so a text of hundreds of megabytes never needs a buffer of its size.

/** About what a chunk holds before it is sent. */
const CHUNK_BYTES = 256 * 1024;
/** A text's bytes are escaped this many at a time: the chunk grows by at most 6 bytes for each. */
const SLICE_BYTES = 64 * 1024;
/** Base64 is made this many bytes at a time: a multiple of 3, so the pieces join into one string. */
const BASE64_SLICE_BYTES = 48 * 1024;

export type ChunkWriter = ReturnType<typeof createChunkWriter>;

export function createChunkWriter() {
  let buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  let at = 0;
  const taken: Buffer[] = [];
  const reserve = (bytes: number) => {
    if (at + bytes <= buffer.length) return;
    if (at > 0) taken.push(buffer.subarray(0, at));
    buffer = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, bytes));
    at = 0;
  };
  const writer = {
    writeText(text: string): void {
      if (text.length === 0) return;
      reserve(text.length * 3);
      at += buffer.write(text, at, 'utf8');
    },
    /**
     * Bytes already in their final form (JSON made elsewhere): copied into the chunk when they are
     * a small file's (a chunk of their own each was a socket write a file), else sent as their own chunk.
     */
    writeBytes(bytes: Uint8Array): void {
      if (bytes.length <= SLICE_BYTES) {
        reserve(bytes.length);
        buffer.set(bytes, at);
        at += bytes.length;
        return;
      }
      if (at > 0) taken.push(buffer.subarray(0, at));
      buffer = buffer.subarray(at);
      at = 0;
      taken.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    },
    /**
     * `bytes`, UTF-8, as a JSON string: the same bytes, with `"`, `\\` and those below 0x20
     * escaped (only ASCII is, so a slice may end inside a character). Read back, the string's
     * UTF-8 is `bytes` exactly. Yields between slices, when a chunk is full.
     */
    *writeJsonString(bytes: Uint8Array): Generator<Buffer> {
      writer.writeText('"');
      yield* writer.writeJsonPiece(bytes);
      writer.writeText('"');
    },
    /**
     * A piece of a JSON string's UTF-8 bytes, escaped, without its quotes: a text read in pieces
     * is written one piece after another (a piece may end inside a character: only ASCII is escaped).
     */
    *writeJsonPiece(bytes: Uint8Array): Generator<Buffer> {
      for (let start = 0; start < bytes.length; start += SLICE_BYTES) {
        escapeSlice(bytes.subarray(start, Math.min(bytes.length, start + SLICE_BYTES)));
        if (writer.isFull()) yield* writer.take();
      }
    },
    /**
     * Pieces of bytes in base64, as one JSON string: each piece's bytes past a multiple of 3 wait
     * for the next, so the pieces' base64 joins into the base64 of them all.
     */
    async *writeBase64Pieces(pieces: AsyncIterable<Uint8Array>): AsyncGenerator<Buffer> {
      writer.writeText('"');
      let carry: Uint8Array = new Uint8Array(0);
      for await (const piece of pieces) {
        const bytes = carry.length === 0 ? piece : Buffer.concat([carry, piece]);
        const whole = bytes.length - (bytes.length % 3);
        yield* writer.writeBase64(bytes.subarray(0, whole));
        carry = bytes.slice(whole);
      }
      yield* writer.writeBase64(carry);
      writer.writeText('"');
    },
    /** `bytes` in base64, whose length is a multiple of 3 unless they are the last; yields when a chunk is full. */
    *writeBase64(bytes: Uint8Array): Generator<Buffer> {
      for (let start = 0; start < bytes.length; start += BASE64_SLICE_BYTES) {
        const slice = bytes.subarray(start, Math.min(bytes.length, start + BASE64_SLICE_BYTES));
        writer.writeText(Buffer.from(slice.buffer, slice.byteOffset, slice.byteLength).toString('base64'));
        if (writer.isFull()) yield* writer.take();
      }
    },
    /** `bytes` in base64, as a JSON string; yields between slices, when a chunk is full. */
    *writeBase64String(bytes: Uint8Array): Generator<Buffer> {
      writer.writeText('"');
      yield* writer.writeBase64(bytes);
      writer.writeText('"');
    },
    isFull: () => at >= CHUNK_BYTES / 2 || taken.length > 0,
    /** The chunks written so far, to be sent. */
    *take(): Generator<Buffer> {
      if (at > 0) taken.push(buffer.subarray(0, at));
      buffer = buffer.subarray(at);
      at = 0;
      if (buffer.length < CHUNK_BYTES / 4) buffer = Buffer.allocUnsafe(CHUNK_BYTES);
      yield* taken.splice(0);
    },
  };

  /**
   * A slice escaped by JSON.stringify, byte for byte (server/watch/jsonText.ts). Looking at each
   * byte in JavaScript, with a view of the bytes between two escapes, was most of an export's loop time.
   */
  function escapeSlice(bytes: Uint8Array): void {
    const json = escapeJsonBytes(bytes);
    reserve(json.length - 2);
    at += buffer.write(json.slice(1, -1), at, 'latin1');
  }

  return writer;
}

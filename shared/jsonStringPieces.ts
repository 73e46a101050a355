// A JSON string too large to hold, decoded a piece at a time: the bytes of a spex line's `text`
// from just after its opening quote, as they are read, become the text's UTF-8 as they go. An
// escape cut across two pieces is finished with the next; the string's closing quote ends it.
// Pure: bytes in, bytes out.

const SIMPLE_ESCAPES: Readonly<Record<number, number>> = { 0x22: 0x22, 0x5c: 0x5c, 0x2f: 0x2f, 0x62: 0x08, 0x66: 0x0c, 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09 };
/** What a half of a pair without its other half becomes in UTF-8, as TextEncoder writes it. */
const REPLACEMENT = [0xef, 0xbf, 0xbd];

type JsonStringDecoder = {
  /** The UTF-8 of the next piece of the string; nothing once its closing quote was read. */
  decode(piece: Uint8Array): Uint8Array;
  /** Whether the closing quote was read. */
  ended(): boolean;
};

export function createJsonStringDecoder(): JsonStringDecoder {
  let carry: Uint8Array = new Uint8Array(0);
  /** A pair's first half, waiting for its second. */
  let high = -1;
  let ended = false;
  return {
    ended: () => ended,
    decode(piece) {
      if (ended) return new Uint8Array(0);
      const bytes = carry.length === 0 ? piece : concat(carry, piece);
      carry = new Uint8Array(0);
      // Decoded is never longer than written, but for a lone half (6 bytes become 3) held with one byte more.
      const out = new Uint8Array(bytes.length + 4);
      let at = 0;
      const flushHigh = () => {
        if (high === -1) return;
        out.set(REPLACEMENT, at);
        at += 3;
        high = -1;
      };
      // Most bytes are neither a quote nor a backslash: the next of each is found natively, and the run before it copied.
      let quote = -1;
      let slash = -1;
      for (let i = 0; i < bytes.length; ) {
        if (quote < i) quote = bytes.indexOf(0x22, i) >>> 0;
        if (slash < i) slash = bytes.indexOf(0x5c, i) >>> 0;
        const next = Math.min(quote, slash, bytes.length);
        if (next > i) {
          flushHigh();
          out.set(bytes.subarray(i, next), at);
          at += next - i;
          i = next;
          continue;
        }
        if (i === quote) {
          flushHigh();
          ended = true;
          break;
        }
        const kind = bytes[i + 1];
        if (kind === undefined || (kind === 0x75 && i + 6 > bytes.length)) {
          carry = bytes.slice(i);
          break;
        }
        if (kind !== 0x75) {
          flushHigh();
          out[at++] = SIMPLE_ESCAPES[kind] ?? kind;
          i += 2;
          continue;
        }
        const code = Number.parseInt(String.fromCharCode(...bytes.subarray(i + 2, i + 6)), 16);
        i += 6;
        if (code >= 0xdc00 && code <= 0xdfff && high !== -1) {
          at = writeCodePoint(out, at, 0x10000 + ((high - 0xd800) << 10) + (code - 0xdc00));
          high = -1;
          continue;
        }
        flushHigh();
        if (code >= 0xd800 && code <= 0xdbff) high = code;
        else at = writeCodePoint(out, at, code >= 0xdc00 && code <= 0xdfff ? 0xfffd : code);
      }
      return out.subarray(0, at);
    },
  };
}

function writeCodePoint(out: Uint8Array, at: number, code: number): number {
  if (code < 0x80) out[at++] = code;
  else if (code < 0x800) {
    out[at++] = 0xc0 | (code >> 6);
    out[at++] = 0x80 | (code & 0x3f);
  } else if (code < 0x10000) {
    out[at++] = 0xe0 | (code >> 12);
    out[at++] = 0x80 | ((code >> 6) & 0x3f);
    out[at++] = 0x80 | (code & 0x3f);
  } else {
    out[at++] = 0xf0 | (code >> 18);
    out[at++] = 0x80 | ((code >> 12) & 0x3f);
    out[at++] = 0x80 | ((code >> 6) & 0x3f);
    out[at++] = 0x80 | (code & 0x3f);
  }
  return at;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

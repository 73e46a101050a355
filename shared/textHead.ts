// The head of a text too large to read whole (a spex line, a set-agent-comm body of hundreds of
// megabytes): what a page and an item show of it, read from its first bytes only. Pure: bytes in,
// text out. A JSON line cut anywhere is walked as far as it goes, and never parsed whole.

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Bytes cut at a limit end on a whole UTF-8 character: a cut inside one is not the writer's bad byte. */
export function cutAtCharacter(bytes: Uint8Array): Uint8Array {
  let end = bytes.length;
  let back = 0;
  while (end > 0 && back < 3 && (bytes[end - 1]! & 0xc0) === 0x80) {
    end--;
    back++;
  }
  if (end > 0 && bytes[end - 1]! >= 0xc0) {
    const lead = bytes[end - 1]!;
    const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
    if (back + 1 < need) return bytes.subarray(0, end - 1);
  }
  return bytes;
}

/** The first `limitBytes` of bytes as text, cut at a character; null when they are not UTF-8. */
export function readTextHead(bytes: Uint8Array, limitBytes: number): string | null {
  try {
    return utf8.decode(cutAtCharacter(bytes.subarray(0, limitBytes)));
  } catch {
    return null;
  }
}

/**
 * The head of the string member `name` of the JSON object whose first bytes are `head`: at most
 * `limitBytes` of its UTF-8, decoded, and where its first byte is in `head` (after its quote).
 * Null when the head ends before the member, the member is not a string, or the bytes are not
 * a JSON object as far as they go. The first member of that name is taken: a line that writes a
 * key twice is no event, and its text is never looked for.
 */
export function readMemberHead(head: Uint8Array, name: string, limitBytes: number): { text: string; at: number } | null {
  const at = findStringMember(head, name);
  if (at === null) return null;
  const stop = Math.min(head.length, at + limitBytes);
  let end = at;
  // Bytes with no escape and no control character are their own text: JSON.parse, which took
  // twice as long as the decoding for a head of 128 KiB, is left to the heads that need it.
  let plain = true;
  // An escape is never cut: the text is cut before it. Escapes only shorten, so the text is within the limit.
  while (end < stop && head[end] !== 0x22) {
    const byte = head[end]!;
    if (byte === 0x5c || byte < 0x20) plain = false;
    const step = byte !== 0x5c ? 1 : head[end + 1] === 0x75 ? 6 : 2;
    if (end + step > stop) break;
    end += step;
  }
  try {
    const body = utf8.decode(cutAtCharacter(head.subarray(at, end)));
    let text = plain ? body : (JSON.parse(`"${body}"`) as string);
    // A pair's first half cut from its second is not shown.
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) text = text.slice(0, -1);
    return { text, at };
  } catch {
    return null;
  }
}

/** Where the first byte of the string value of top-level member `name` is, after its quote. */
function findStringMember(bytes: Uint8Array, name: string): number | null {
  let at = skipSpace(bytes, 0);
  if (bytes[at] !== 0x7b) return null;
  at++;
  for (;;) {
    at = skipSpace(bytes, at);
    if (bytes[at] !== 0x22) return null;
    const keyEnd = findStringEnd(bytes, at);
    if (keyEnd === -1) return null;
    let key: unknown;
    try {
      key = JSON.parse(utf8.decode(bytes.subarray(at, keyEnd + 1)));
    } catch {
      return null;
    }
    at = skipSpace(bytes, keyEnd + 1);
    if (bytes[at] !== 0x3a) return null;
    at = skipSpace(bytes, at + 1);
    if (key === name) return bytes[at] === 0x22 ? at + 1 : null;
    at = skipValue(bytes, at);
    if (at === -1) return null;
    at = skipSpace(bytes, at);
    if (bytes[at] !== 0x2c) return null;
    at++;
  }
}

function skipSpace(bytes: Uint8Array, at: number): number {
  while (at < bytes.length && (bytes[at] === 0x20 || bytes[at] === 0x09 || bytes[at] === 0x0a || bytes[at] === 0x0d)) at++;
  return at;
}

/**
 * The closing quote of the string opened at `open`; -1 when the bytes end first. A quote is found
 * by `indexOf` and is the string's end unless an odd run of backslashes stands before it: a
 * text of megabytes is crossed at the speed of a byte search, not a byte at a time.
 */
function findStringEnd(bytes: Uint8Array, open: number): number {
  let from = open + 1;
  for (;;) {
    const quote = bytes.indexOf(0x22, from);
    if (quote === -1) return -1;
    let slashes = 0;
    while (bytes[quote - 1 - slashes] === 0x5c) slashes++;
    if (slashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/**
 * Where the string value of top-level member `name` lies in `bytes`, a JSON object: `start` is
 * its first byte after the opening quote, `end` its closing quote. Null as for readMemberHead,
 * or when the bytes end inside the string.
 */
export function findStringMemberSpan(bytes: Uint8Array, name: string): { start: number; end: number } | null {
  const start = findStringMember(bytes, name);
  if (start === null) return null;
  const end = findStringEnd(bytes, start - 1);
  return end === -1 ? null : { start, end };
}

/**
 * How many bytes of UTF-8 the JSON string whose body (between its quotes, valid JSON) is `body`
 * decodes to, as Buffer.byteLength counts them (a lone surrogate 3), without decoding it: the
 * bytes between escapes are the text's own, and only the escapes are looked at.
 */
export function jsonStringUtf8Length(body: Uint8Array): number {
  let length = 0;
  let at = 0;
  for (;;) {
    const slash = body.indexOf(0x5c, at);
    if (slash === -1) return length + body.length - at;
    length += slash - at;
    if (body[slash + 1] !== 0x75) {
      length += 1;
      at = slash + 2;
      continue;
    }
    const unit = hexUnit(body, slash + 2);
    if (unit >= 0xd800 && unit <= 0xdbff && body[slash + 6] === 0x5c && body[slash + 7] === 0x75 && (hexUnit(body, slash + 8) & 0xfc00) === 0xdc00) {
      length += 4;
      at = slash + 12;
      continue;
    }
    length += unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3;
    at = slash + 6;
  }
}

/** The code unit written as four hex digits at `at`. */
function hexUnit(bytes: Uint8Array, at: number): number {
  return Number.parseInt(String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!), 16);
}

/** Where the value at `at` ends (the byte after it); -1 when the bytes end first. */
function skipValue(bytes: Uint8Array, at: number): number {
  if (bytes[at] === 0x22) {
    const end = findStringEnd(bytes, at);
    return end === -1 ? -1 : end + 1;
  }
  let depth = 0;
  for (; at < bytes.length; at++) {
    const byte = bytes[at]!;
    if (byte === 0x22) {
      at = findStringEnd(bytes, at);
      if (at === -1) return -1;
    } else if (byte === 0x7b || byte === 0x5b) depth++;
    else if (byte === 0x7d || byte === 0x5d) {
      if (depth === 0) return at;
      if (--depth === 0) return at + 1;
    } else if (depth === 0 && (byte === 0x2c || byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d)) return at;
  }
  return -1;
}

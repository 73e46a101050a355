// A file system name is bytes, and nothing makes them UTF-8. A name that is not cannot cross the
// wire as it is: it is shown with each byte that is not part of well-formed UTF-8 written as
// `\xhh`, and the rest as text, so that the same bytes always read the same.

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The name as text, or null when its bytes are not well-formed UTF-8. */
export function decodeName(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/** The name with every byte that is not part of well-formed UTF-8 as `\xhh`. */
export function escapeNameBytes(bytes: Uint8Array): string {
  let text = '';
  let run = 0; // where the current run of well-formed sequences began
  let at = 0;
  while (at < bytes.length) {
    const length = sequenceLength(bytes, at);
    if (length > 0) {
      at += length;
      continue;
    }
    text += utf8.decode(bytes.subarray(run, at)) + `\\x${bytes[at]!.toString(16).padStart(2, '0')}`;
    at += 1;
    run = at;
  }
  return text + utf8.decode(bytes.subarray(run, at));
}

/** The length of the well-formed UTF-8 sequence at `at` (Unicode, table 3-7), or 0. */
function sequenceLength(bytes: Uint8Array, at: number): number {
  const first = bytes[at]!;
  if (first < 0x80) return 1;
  const inRange = (offset: number, low = 0x80, high = 0xbf) => {
    const byte = bytes[at + offset];
    return byte !== undefined && byte >= low && byte <= high;
  };
  if (first >= 0xc2 && first <= 0xdf) return inRange(1) ? 2 : 0;
  if (first >= 0xe0 && first <= 0xef) {
    // No overlong forms (E0 A0..), no surrogates (ED ..9F).
    const second = first === 0xe0 ? inRange(1, 0xa0) : first === 0xed ? inRange(1, 0x80, 0x9f) : inRange(1);
    return second && inRange(2) ? 3 : 0;
  }
  if (first >= 0xf0 && first <= 0xf4) {
    // No overlong forms (F0 90..), nothing past U+10FFFF (F4 ..8F).
    const second = first === 0xf0 ? inRange(1, 0x90) : first === 0xf4 ? inRange(1, 0x80, 0x8f) : inRange(1);
    return second && inRange(2) && inRange(3) ? 4 : 0;
  }
  return 0;
}

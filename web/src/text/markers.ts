// Splits a text into plain runs and characters a reader could not otherwise see: line breaks,
// tabs, control characters, zero-width and direction-changing characters (rule.verbatim). Each
// such character is kept, and given a visible marker; nothing is removed, and none is applied.

type MarkKind = 'cr' | 'lf' | 'tab' | 'control' | 'bidi' | 'invisible' | 'space';

export type Segment =
  | { type: 'text'; text: string }
  | {
      type: 'mark';
      /** The character itself, kept so that the DOM text is the original text. */
      char: string;
      kind: MarkKind;
      /** What the reader sees in its place, e.g. ␍ or ⟨RLO⟩. */
      glyph: string;
      /** Its name and code point, for a tooltip. */
      label: string;
    };

const C0_NAMES = 'NUL SOH STX ETX EOT ENQ ACK BEL BS HT LF VT FF CR SO SI DLE DC1 DC2 DC3 DC4 NAK SYN ETB CAN EM SUB ESC FS GS RS US'.split(' ');

const BIDI_NAMES: Record<number, [string, string]> = {
  0x061c: ['ALM', 'arabic letter mark'],
  0x200e: ['LRM', 'left-to-right mark'],
  0x200f: ['RLM', 'right-to-left mark'],
  0x202a: ['LRE', 'left-to-right embedding'],
  0x202b: ['RLE', 'right-to-left embedding'],
  0x202c: ['PDF', 'pop directional formatting'],
  0x202d: ['LRO', 'left-to-right override'],
  0x202e: ['RLO', 'right-to-left override'],
  0x2066: ['LRI', 'left-to-right isolate'],
  0x2067: ['RLI', 'right-to-left isolate'],
  0x2068: ['FSI', 'first strong isolate'],
  0x2069: ['PDI', 'pop directional isolate'],
};

const INVISIBLE_NAMES: Record<number, string> = {
  0x00ad: 'soft hyphen',
  0x034f: 'combining grapheme joiner',
  0x115f: 'hangul choseong filler',
  0x1160: 'hangul jungseong filler',
  0x180e: 'mongolian vowel separator',
  0x200b: 'zero width space',
  0x200c: 'zero width non-joiner',
  0x200d: 'zero width joiner',
  0x2028: 'line separator',
  0x2029: 'paragraph separator',
  0x2060: 'word joiner',
  0x2061: 'function application',
  0x2062: 'invisible times',
  0x2063: 'invisible separator',
  0x2064: 'invisible plus',
  0x3164: 'hangul filler',
  0xfeff: 'zero width no-break space (BOM)',
  0xffa0: 'halfwidth hangul filler',
  0xfff9: 'interlinear annotation anchor',
  0xfffa: 'interlinear annotation separator',
  0xfffb: 'interlinear annotation terminator',
};

/** Spaces that look like a space but are not U+0020. */
const ODD_SPACES = new Set([0x00a0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x202f, 0x205f, 0x3000]);

const PICTOGRAPHIC = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F]/u;
const EMOJI_BASE = /\p{Emoji}/u;

export function hex(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The marker for one character at `i` of `chars`, or null when it shows as itself. */
function markFor(chars: string[], i: number, plainLayout: boolean): Omit<Extract<Segment, { type: 'mark' }>, 'type' | 'char'> | null {
  const char = chars[i]!;
  const cp = char.codePointAt(0)!;
  if (plainLayout && (cp === 0x0a || cp === 0x09)) return null;
  // Tokens in plain letters and common arrows: control pictures (␍) are missing from many fonts.
  if (cp === 0x0d) return { kind: 'cr', glyph: 'CR', label: `carriage return (${hex(cp)})` };
  if (cp === 0x0a) return { kind: 'lf', glyph: '↵', label: `line feed (${hex(cp)})` };
  if (cp === 0x09) return { kind: 'tab', glyph: '⇥', label: `tab (${hex(cp)})` };
  if (cp < 0x20) return { kind: 'control', glyph: `⟨${C0_NAMES[cp]}⟩`, label: `control character ${C0_NAMES[cp]} (${hex(cp)})` };
  if (cp === 0x7f) return { kind: 'control', glyph: '⟨DEL⟩', label: `delete (${hex(cp)})` };
  if (cp >= 0x80 && cp <= 0x9f) return { kind: 'control', glyph: `⟨${hex(cp)}⟩`, label: `control character ${hex(cp)}` };
  const bidi = BIDI_NAMES[cp];
  if (bidi !== undefined) return { kind: 'bidi', glyph: `⟨${bidi[0]}⟩`, label: `${bidi[1]} (${hex(cp)}): shown, not applied` };
  if (cp === 0x200d && isEmojiJoin(chars, i)) return null;
  const invisible = INVISIBLE_NAMES[cp];
  if (invisible !== undefined) return { kind: 'invisible', glyph: `⟨${hex(cp)}⟩`, label: `${invisible} (${hex(cp)})` };
  if (cp >= 0xfe00 && cp <= 0xfe0f) {
    // A variation selector after an emoji picks its presentation; anywhere else it hides.
    return i > 0 && EMOJI_BASE.test(chars[i - 1]!) ? null : { kind: 'invisible', glyph: `⟨${hex(cp)}⟩`, label: `variation selector (${hex(cp)})` };
  }
  if (cp >= 0xe0100 && cp <= 0xe01ef) return { kind: 'invisible', glyph: `⟨${hex(cp)}⟩`, label: `variation selector (${hex(cp)})` };
  if (cp >= 0xe0000 && cp <= 0xe007f) {
    // Tag characters spell subdivision flags after a black flag; elsewhere they can smuggle text.
    return isFlagTag(chars, i) ? null : { kind: 'invisible', glyph: `⟨${hex(cp)}⟩`, label: `tag character (${hex(cp)})` };
  }
  if (ODD_SPACES.has(cp)) return { kind: 'space', glyph: '', label: `not an ordinary space: ${hex(cp)}` };
  return null;
}

/** A zero width joiner inside an emoji sequence (👩‍💻) joins it; it hides nothing. */
function isEmojiJoin(chars: string[], i: number): boolean {
  const before = chars[i - 1];
  const after = chars[i + 1];
  return before !== undefined && after !== undefined && PICTOGRAPHIC.test(before) && /\p{Extended_Pictographic}/u.test(after);
}

function isFlagTag(chars: string[], i: number): boolean {
  for (let j = i - 1; j >= 0; j--) {
    const cp = chars[j]!.codePointAt(0)!;
    if (cp === 0x1f3f4) return true;
    if (cp < 0xe0000 || cp > 0xe007f) return false;
  }
  return false;
}

/**
 * `plainLayout`: line feeds and tabs show as themselves, for a file's own text (its JSON's layout,
 * which a marker on every line only hid); a message text marks them, where they are words' whitespace.
 */
export function segmentText(text: string, plainLayout = false): Segment[] {
  const chars = Array.from(text);
  const segments: Segment[] = [];
  let plain = '';
  for (let i = 0; i < chars.length; i++) {
    const mark = markFor(chars, i, plainLayout);
    if (mark === null) {
      plain += chars[i];
      continue;
    }
    if (plain !== '') segments.push({ type: 'text', text: plain });
    plain = '';
    segments.push({ type: 'mark', char: chars[i]!, ...mark });
  }
  if (plain !== '') segments.push({ type: 'text', text: plain });
  return segments;
}

/** The text's length in UTF-8 bytes, as the record counts it (textLength, textClipped). */
export function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

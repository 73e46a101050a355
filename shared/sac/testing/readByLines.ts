import { readHeader } from '../entryHeader.ts';
import { WHY_NO_BODY, WHY_NOT_SEPARATED, WHY_PENDING_BODY, WHY_PENDING_TAIL, WHY_TORN_BODY, WHY_TORN_TAIL, type SeatFileItem } from '../seatFile.ts';

// The reading of a whole seat file line by line, as the first reader did it: every line decoded
// where it starts with `## `, every body line looked at. For tests only: the reference the byte
// scan of seatFile.ts must agree with, item for item.

const NEWLINE = 0x0a;
const text = new TextDecoder('utf-8', { ignoreBOM: true });

type Entry = Extract<SeatFileItem, { type: 'entry' }>;

export function readByLines(data: Uint8Array, torn = false): SeatFileItem[] {
  const complete = data.lastIndexOf(NEWLINE) + 1;
  const items: SeatFileItem[] = [];
  let open: Entry | null = null;
  let bodyHasText = false;
  let lastLineEmpty = false;
  let lineStart = 0;
  while (lineStart < complete) {
    const lineEnd = data.indexOf(NEWLINE, lineStart);
    const line = data.subarray(lineStart, lineEnd);
    const facts = line.length >= 3 && line[0] === 0x23 && line[1] === 0x23 && line[2] === 0x20 ? readHeader(text.decode(line)) : null;
    if (facts !== null) {
      if (open !== null) {
        const why = !bodyHasText ? WHY_NO_BODY : !lastLineEmpty ? WHY_NOT_SEPARATED : null;
        items.push({ ...open, end: lineStart, open: false, evidence: why === null ? 'parsed' : 'damaged', why });
      }
      open = { type: 'entry', start: lineStart, end: lineStart, bodyStart: lineEnd + 1, facts, evidence: 'parsed', why: null, open: true };
      bodyHasText = false;
      lastLineEmpty = false;
    } else {
      if (open !== null) bodyHasText ||= /\S/.test(text.decode(line));
      else if (items[0]?.type === 'stray-text') items[0] = { ...items[0], end: lineEnd + 1 };
      else items.push({ type: 'stray-text', start: 0, end: lineEnd + 1, evidence: 'stray', why: 'text before the first header: not an entry' });
      lastLineEmpty = lineEnd === lineStart;
    }
    lineStart = lineEnd + 1;
  }
  const awaits = data.length > complete || (open !== null && !bodyHasText);
  const isTorn = torn && awaits;
  // A last entry with no body yet and the bytes after it are one write: one item to the end.
  const takesTail = open !== null && !bodyHasText;
  if (open !== null) {
    const waiting = !bodyHasText;
    items.push({ ...open, end: takesTail ? data.length : complete, evidence: waiting ? (isTorn ? 'damaged' : 'pending') : 'parsed', why: waiting ? (isTorn ? WHY_TORN_BODY : WHY_PENDING_BODY) : null });
  }
  if (data.length > complete && !takesTail) items.push({ type: 'tail', start: complete, end: data.length, evidence: isTorn ? 'damaged' : 'pending', why: isTorn ? WHY_TORN_TAIL : WHY_PENDING_TAIL });
  return items;
}

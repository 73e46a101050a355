import { mayHoldPrivateBytes } from '../../shared/spex/privateData.ts';
import { readMemberHead } from '../../shared/textHead.ts';
import type { TextPieces } from '../export/exportParts.ts';
import { decodeJsonPieces, lookThrough, PIECE_BYTES, readPieces, type PieceRead } from '../export/largeText.ts';
import { readRanges as readFileRanges, type FileIdentity } from '../watch/safeOpen.ts';

// A line too large to hold, for an export: read a piece at a time through the one safe open. Its
// private data cannot be cut out of a line that is never held whole, so a large line that names a
// private name (or escapes a printable character, which may spell one) is not given at all; any
// other is given as its segment holds it, each piece looked at again as it is sent.

/** Said of a large line withheld: its private data could not be taken out of it. */
const WITHHELD_WORDS = "a line this large that may hold spex's private delivery data is not exported: its private data cannot be taken out of it piece by piece";

/** A large line to be read again a piece at a time: its size, whether it is UTF-8, its longest run of backticks. */
type LinePieces = { type: 'pieces'; size: number; utf8: boolean; backticks: number; read: PieceRead };

export type LargeLine = LinePieces | { type: 'withheld'; why: string } | { type: 'gone'; why: string };

export async function readLargeLine(path: string, start: number, end: number, root: string, signal: AbortSignal): Promise<LargeLine> {
  const [first] = readFileRanges([{ path, start, end: start }], { root });
  if (first!.type !== 'bytes') return { type: 'gone', why: first!.why };
  const identity: FileIdentity = first!.identity;
  const read: PieceRead = (at, length) => {
    const [piece] = readFileRanges([{ path, start: start + at, end: start + at + length, identity }], { root });
    return piece!.type === 'bytes' ? piece!.bytes : { failed: piece!.why };
  };
  const key = `spex:${identity.dev}:${identity.ino}:${first!.size}:${first!.mtimeMs}:${start}:${end}`;
  const look = await lookThrough(key, end - start, read, mayHoldPrivateBytes, signal);
  if ('failed' in look) return { type: 'gone', why: look.failed };
  if (look.seen) return { type: 'withheld', why: WITHHELD_WORDS };
  // Each piece is looked at again as it is sent (with the end of the one before it, when it
  // follows it): bytes rewritten since the look never go out.
  let before: Uint8Array = new Uint8Array(0);
  let next = 0;
  const checked: PieceRead = (at, length) => {
    const piece = read(at, length);
    if (!(piece instanceof Uint8Array)) return piece;
    if (at !== next) before = new Uint8Array(0);
    if (mayHoldPrivateBytes(before.length === 0 ? piece : Buffer.concat([before, piece]))) return { failed: 'the line changed: it now names private data' };
    before = piece.slice(Math.max(0, piece.length - 64));
    next = at + piece.length;
    return piece;
  };
  return { type: 'pieces', size: end - start, utf8: look.utf8, backticks: look.backticks, read: checked };
}

/** The line's bytes as its segment holds them, a piece at a time. */
export function readLinePieces(line: LinePieces): TextPieces {
  return readPieces(line.size, line.read, line.utf8);
}

/**
 * The text of the line's string member `name` (`text`, `note`), decoded a piece at a time; where
 * it begins is found in the line's first piece. Null when it is not there, or not a string.
 */
export function readMemberPieces(line: LinePieces, name: string): TextPieces | null {
  const first = line.read(0, Math.min(PIECE_BYTES, line.size));
  if (!(first instanceof Uint8Array)) return null;
  const member = readMemberHead(first, name, 0);
  if (member === null) return null;
  return decodeJsonPieces(readPieces(line.size - member.at, (at, length) => line.read(member.at + at, length), line.utf8));
}

import { mayHoldPrivateBytes } from '../../shared/spex/privateData.ts';
import type { TextPieces } from '../export/exportParts.ts';
import { lookThrough, readPieces, type PieceRead } from '../export/largeText.ts';
import { readRanges as readFileRanges, type FileIdentity } from '../watch/safeOpen.ts';

// A line too large to hold, for an export: read a piece at a time through the one safe open. Its
// private data cannot be cut out of a line that is never held whole, so a large line that names a
// private name (or escapes a printable character, which may spell one) is not given at all; any
// other is given as its segment holds it, each piece looked at again as it is sent.

/** Said of a large line withheld: its private data could not be taken out of it. */
const WITHHELD_WORDS = "a line this large that may hold spex's private delivery data is not exported: its private data cannot be taken out of it piece by piece";

export type LargeLine = { type: 'pieces'; pieces: TextPieces; size: number } | { type: 'withheld'; why: string } | { type: 'gone'; why: string };

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
  // Each piece is looked at again as it is sent: bytes rewritten since the look never go out.
  let before: Uint8Array = new Uint8Array(0);
  const checked: PieceRead = (at, length) => {
    const piece = read(at, length);
    if (!(piece instanceof Uint8Array)) return piece;
    if (mayHoldPrivateBytes(before.length === 0 ? piece : Buffer.concat([before, piece]))) return { failed: 'the line changed: it now names private data' };
    before = piece.slice(Math.max(0, piece.length - 64));
    return piece;
  };
  return { type: 'pieces', pieces: readPieces(end - start, checked, look.utf8), size: end - start };
}

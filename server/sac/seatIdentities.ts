import { noteSeatFileWithheld, type SeatFileReading } from '../../shared/sac/seatFile.ts';
import { beginsAsRead, type AppendMark } from '../watch/appendRead.ts';
import type { SeatFileState } from './sacRooms.ts';

/**
 * Each seat file read, by its device and inode. Another name for one of them holds that seat's
 * entries, not another seat's: sac never renames or links a seat file, and a seat is the file's
 * name. Read as a seat of its own, a seat file moved to another name was a new sender, its
 * entries counted twice in the room. The file under the new name is withheld, saying whose it is.
 * `holds` says whether the store still holds a file (its room not dropped, the store not read afresh).
 */
export function createSeatIdentities(holds: (file: SeatFileState) => boolean) {
  const readAs = new Map<string, SeatFileState>();
  return {
    /** The seat file read before under another name that `file` is, or null: then `file` claims its identity. */
    otherNameOf(file: SeatFileState, identity: { dev: number; ino: number }, read: { bytes: Uint8Array } | { mark: AppendMark }): string | null {
      const key = `${identity.dev}:${identity.ino}`;
      const owner = readAs.get(key);
      if (owner !== undefined && owner !== file && owner.mark !== null && holds(owner)) {
        // Still there, it is the same file under two names; gone, it is that file moved if it holds
        // what was read of it (else the system gave its inode number to a new file).
        const gone = owner.reading.problem?.code === 'changed-after-read';
        if (!gone || beginsAsRead(owner.mark, read)) return owner.relative;
      }
      readAs.set(key, file);
      return null;
    },
    /** Withholds `file`, the same file as `other`: never read as a seat of its own. */
    withhold(file: SeatFileState, before: SeatFileReading, other: string): void {
      file.withheld = `the same file (device and inode) as ${other}, read under that name: sac never renames or links a seat file, so its entries are that seat's, not another's`;
      file.reading = noteSeatFileWithheld(before, file.withheld);
    },
  };
}

export type SeatIdentities = ReturnType<typeof createSeatIdentities>;

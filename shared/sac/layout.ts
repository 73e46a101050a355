// Which names under a sac root a reader may open, as pure functions of names (sac-channels-format:
// Layout). The reader lists folders and asks here before it opens anything; nothing else decides.

/** The JSON files this reader reads: written whole and renamed into place by sac. */
export const STORE_FILES = ['registry.json', 'members.json', 'rooms.json', 'focus.json', 'presence.json', 'cursors.json'] as const;
export type StoreFileName = (typeof STORE_FILES)[number];

/**
 * Secrets: the relay secret and the HTTP daemon's tokens. Never opened, never served, never
 * listed. sac writes them through a temporary (`relays.json.tmp.<pid>`) and a person may keep a
 * copy beside them, so every name that begins with one of these is a secret, in any case (a
 * file system that folds case opens `RELAYS.JSON` as the secret itself).
 */
export const SECRET_FILES = ['relays.json', 'http-tokens.json'] as const;

/** What the reader's listing says a name holds. A link is never followed, whatever it points at. */
export type NameKind = 'file' | 'folder' | 'link' | 'other';

type StoreName =
  | { role: 'channels' }
  | { role: 'store-file'; file: StoreFileName }
  /** Never opened and never shown; its name is not listed either. */
  | { role: 'secret' }
  /** A file sac keeps for itself that this reader does not read (nudges, the stats ledger): no stray, it belongs there. */
  | { role: 'sac-own'; why: string }
  /** Something this reader does not read (a temporary, a link, an unknown name): a stray of the store. */
  | { role: 'not-read'; why: string };

/** Whether a name at the top of a sac root is a secret. */
export function isSecretName(name: string): boolean {
  const lower = name.toLowerCase();
  return SECRET_FILES.some((secret) => lower.startsWith(secret));
}

/** A writer's temporary: `writeJson` writes `<file>.tmp.<pid>` and renames it into place. */
function isTemporary(name: string): boolean {
  return /\.tmp\.\d+$/.test(name);
}

/** What one name at the top of a sac root is to this reader. */
export function classifyStoreName(name: string, kind: NameKind): StoreName {
  // Secrets first: no other rule may make one readable.
  if (isSecretName(name)) return { role: 'secret' };
  if (kind === 'link') return { role: 'not-read', why: 'a link: never followed' };
  if (name === 'channels') return kind === 'folder' ? { role: 'channels' } : { role: 'not-read', why: 'channels is not a folder' };
  if (isTemporary(name)) return { role: 'not-read', why: 'a writer’s temporary' };
  const file = STORE_FILES.find((known) => known === name);
  if (file !== undefined) return kind === 'file' ? { role: 'store-file', file } : { role: 'not-read', why: `${name} is not a file` };
  if (name === 'nudges.json') return { role: 'sac-own', why: 'what each seat has been told: not read' };
  if (name === 'stats') return { role: 'sac-own', why: 'the ledger of waking decisions: not read' };
  return { role: 'not-read', why: 'not a name sac writes here' };
}

type RoomFolderName = { role: 'room'; room: string } | { role: 'skipped'; why: string };

/**
 * What one name under `channels/` is. sac lists rooms by skipping every dot-folder, which is how
 * retired rooms (`channels/.archive/<room>`) leave every list: they are skipped here too.
 */
export function classifyRoomFolder(name: string, kind: NameKind): RoomFolderName {
  if (name === '.archive') return { role: 'skipped', why: 'retired rooms' };
  if (name.startsWith('.')) return { role: 'skipped', why: 'a dot-folder' };
  if (name === '') return { role: 'skipped', why: 'an empty name' };
  if (kind === 'link') return { role: 'skipped', why: 'a link: never followed' };
  if (kind !== 'folder') return { role: 'skipped', why: 'not a folder' };
  return { role: 'room', room: name };
}

type SeatFileName = { role: 'seat-file'; seat: string } | { role: 'not-a-seat'; why: string };

/**
 * What one name in a room folder is: `<seat>.md` is the file that seat writes, and the seat is
 * its writer. `README.md` is not a seat (sac skips it), and a writer's temporary is ignored.
 */
export function classifySeatFile(name: string, kind: NameKind): SeatFileName {
  if (isTemporary(name)) return { role: 'not-a-seat', why: 'a writer’s temporary' };
  if (!name.endsWith('.md')) return { role: 'not-a-seat', why: 'not a .md file' };
  if (name === 'README.md') return { role: 'not-a-seat', why: 'the room’s README' };
  const seat = name.slice(0, -'.md'.length);
  if (seat === '') return { role: 'not-a-seat', why: 'no seat name' };
  if (kind === 'link') return { role: 'not-a-seat', why: 'a link: never followed' };
  if (kind !== 'file') return { role: 'not-a-seat', why: 'not a file' };
  return { role: 'seat-file', seat };
}

/**
 * Whether the reader may open a path relative to the sac root (`/`-separated): a store JSON file,
 * or `channels/<room>/<seat>.md`. An allowlist, so a secret, a traversal (`channels/../relays.json`)
 * or any name sac does not write is refused without being named here. The reader must still open
 * without following links: this judges names, and a link's name says nothing of its target.
 */
export function mayOpen(path: string): boolean {
  const parts = path.split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..' || /[\\\0]/.test(part))) return false;
  if (parts.some(isSecretName)) return false;
  if (parts.length === 1) return classifyStoreName(parts[0]!, 'file').role === 'store-file';
  if (parts.length === 3 && parts[0] === 'channels') {
    return classifyRoomFolder(parts[1]!, 'folder').role === 'room' && classifySeatFile(parts[2]!, 'file').role === 'seat-file';
  }
  return false;
}

/** The path of a seat's file in a room, relative to the sac root: how reasons name files. */
export function seatFilePath(room: string, seat: string): string {
  return `channels/${room}/${seat}.md`;
}

/** The room and seat of a seat file's path (seatFilePath's), or null for any other path. */
export function readSeatFilePath(file: string): { room: string; seat: string } | null {
  const parts = file.split('/');
  if (parts.length !== 3 || parts[0] !== 'channels' || !parts[2]!.endsWith('.md')) return null;
  return { room: parts[1]!, seat: parts[2]!.slice(0, -3) };
}

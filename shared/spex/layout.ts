// Which names in a spex session folder make up its timeline, and in what order (spex-timeline-format:
// Layout). The log is the legacy `timeline.ndjson`, if any, then the numbered segments of
// `timeline/` in numeric order; file order is event order, so this order is the only one there is.

/** The legacy first segment, kept by sessions older than numbered segments. */
const LEGACY_SEGMENT = 'timeline.ndjson';
/** The folder of numbered segments. */
export const SEGMENT_FOLDER = 'timeline';
/** The session's current state, written whole and renamed into place: not a segment. */
export const SESSION_JSON = 'session.json';

const NUMBERED_SEGMENT = /^(\d+)\.ndjson$/;

/** What the shell found under a name: only a file is read; a link is never followed. */
export type NameType = 'file' | 'folder' | 'link' | 'other';

/** A name as the shell lists it, with what it holds. */
export type ListedName = { name: string; type: NameType };

export type Segment = {
  /** The segment's name within the session folder: `timeline.ndjson` or `timeline/000000000001.ndjson`. */
  name: string;
  /** The segment number, as decimal digits without leading zeros; null for the legacy segment. */
  number: string | null;
};

/** A name where a segment could be that is not one: listed, never read. */
export type Stray = { name: string; why: string };

type SegmentLayout = { segments: Segment[]; strays: Stray[] };

/**
 * The segments of one session's log in log order, and the strays beside them. `sessionFolder`
 * lists the session folder; `timelineFolder` lists `timeline/`, or is null when there is none.
 *
 * Decided here: in `timeline/`, the log's own folder, every name that is not a segment's is a
 * stray (a sealed segment compressed by a later spex, say, is history this reader cannot read,
 * and must be seen). In the session folder, names other than the log's and `session.json` are
 * spex's delivery state and bookkeeping (`cursors.json`, `pending.json`, its temporary files):
 * never history, so they are ignored, not listed.
 */
export function listSegments(sessionFolder: Iterable<ListedName>, timelineFolder: Iterable<ListedName> | null): SegmentLayout {
  const segments: Segment[] = [];
  const strays: Stray[] = [];
  for (const { name, type } of sessionFolder) {
    if (name === LEGACY_SEGMENT) {
      if (type === 'file') segments.push({ name, number: null });
      else strays.push({ name, why: `${describeType(type)} where the legacy segment belongs: never read` });
    } else if (name === SEGMENT_FOLDER && type !== 'folder') {
      strays.push({ name, why: `${describeType(type)} where the segment folder belongs: never read` });
    }
  }
  for (const { name, type } of timelineFolder ?? []) {
    const path = `${SEGMENT_FOLDER}/${name}`;
    const number = numberOf(name);
    if (number === null) strays.push({ name: path, why: 'not a segment name (digits and .ndjson): never read' });
    else if (type !== 'file') strays.push({ name: path, why: `${describeType(type)} under a segment name: never read` });
    else segments.push({ name: path, number });
  }
  segments.sort(compareSegments);
  strays.sort((a, b) => compareText(a.name, b.name));
  return { segments, strays };
}

/**
 * Reads a segment's place from its name within the session folder, or null when the name is not
 * a segment's. The name is never checked for being a file: that is the shell's to say.
 */
export function parseSegmentName(name: string): Segment | null {
  if (name === LEGACY_SEGMENT) return { name, number: null };
  if (!name.startsWith(`${SEGMENT_FOLDER}/`)) return null;
  const number = numberOf(name.slice(SEGMENT_FOLDER.length + 1));
  return number === null ? null : { name, number };
}

/**
 * Log order: the legacy segment first, then by numeric value, however many digits (`9` before
 * `10`, and `000000000010` equal to `10`); the name breaks a tie between two spellings of one number.
 */
export function compareSegments(a: Segment, b: Segment): number {
  if (a.number === null || b.number === null) {
    if (a.number !== b.number) return a.number === null ? -1 : 1;
  } else if (a.number !== b.number) {
    // Digits without leading zeros compare as numbers by length, then as text: exact at any size.
    if (a.number.length !== b.number.length) return a.number.length - b.number.length;
    return a.number < b.number ? -1 : 1;
  }
  return compareText(a.name, b.name);
}

function numberOf(fileName: string): string | null {
  const match = NUMBERED_SEGMENT.exec(fileName);
  if (match === null) return null;
  return match[1]!.replace(/^0+(?=\d)/, '');
}

function describeType(type: NameType): string {
  switch (type) {
    case 'file':
      return 'a file';
    case 'folder':
      return 'a folder';
    case 'link':
      return 'a symbolic link';
    case 'other':
      return 'something that is not a file';
  }
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// A project folder's name is the repository's directory with every `/` and `.` made `-`
// (spex-timeline-format: Layout): `-home-dev-my-app` may be /home/dev/my.app or /home/dev-my/app,
// so it is never decoded. A project is labelled by its sessions' worktree_path instead.

/** The name spex gives a repository's folder under `projects/`. */
export function encodeProjectPath(path: string): string {
  return path.replace(/[/.]/g, '-');
}

export type ProjectLabel = {
  /** What to call the project. */
  label: string;
  /**
   * Where the label comes from: a session's `worktree_path` whose encoding is the folder's name
   * (the repository itself), another session's `worktree_path`, or the folder's encoded name,
   * which must be shown as such, never as a path.
   */
  source: 'repository' | 'worktree_path' | 'encoded-name';
  /** The folder's name under `projects/`, as found. */
  encodedName: string;
  /** The sessions' worktree paths, each once, in the order given. */
  worktreePaths: string[];
};

/**
 * Labels a project folder from its sessions' `worktree_path`s (null or '' when a session has none).
 * A path that encodes to the folder's name is the repository and wins; else the first path given;
 * else the encoded name, said to be one.
 */
export function labelProject(encodedName: string, worktreePaths: Iterable<string | null>): ProjectLabel {
  const seen = new Set<string>();
  for (const path of worktreePaths) if (path !== null && path !== '') seen.add(path);
  const paths = [...seen];
  const repository = paths.find((path) => encodeProjectPath(path) === encodedName);
  if (repository !== undefined) return { label: repository, source: 'repository', encodedName, worktreePaths: paths };
  if (paths.length > 0) return { label: paths[0]!, source: 'worktree_path', encodedName, worktreePaths: paths };
  return { label: encodedName, source: 'encoded-name', encodedName, worktreePaths: paths };
}

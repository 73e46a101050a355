import { statSync } from 'node:fs';
import { describeError } from './describeError.ts';

// A store's root may go (moved away, deleted) and come back (moved back, made again, another
// folder put in its place). Watches of its folders do not say so reliably (a watch follows a
// folder that moved, and a folder made again is not watched at all), so the root is looked at on
// a timer, as the record's reader does: within a second of its return it is read again.

/**
 * What a look at the root found. `identity` names the folder itself: another folder under the
 * root's path is another store. A missing root has no reason beyond its state: what is shown of it
 * says it does not exist, and said again as its reason, a banner said it twice.
 */
export type RootLook = { state: 'present'; identity: string } | { state: 'missing' } | { state: 'unreadable'; why: string };

/** Looks at the root now (following a link: the person may have named one). */
function lookAtRoot(root: string): RootLook {
  try {
    const stat = statSync(root);
    if (!stat.isDirectory()) return { state: 'unreadable', why: 'not a folder' };
    // An inode number is soon given again to a folder made anew: its birth time tells them apart.
    // (Node reads it with statx; where a sandbox forbids statx, libuv gives the change time instead,
    // which moves whenever a name comes or goes in the folder, and each such change reads it anew.)
    return { state: 'present', identity: `${stat.dev}:${stat.ino}:${stat.birthtimeMs}` };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { state: 'missing' };
    return { state: 'unreadable', why: describeError(error as NodeJS.ErrnoException) };
  }
}

/** The identity of the folder at the root's path now (see RootLook), or null when there is none. */
export function rootIdentity(root: string): string | null {
  const look = lookAtRoot(root);
  return look.state === 'present' ? look.identity : null;
}

/**
 * Looks at the root every `everyMs` and calls `onChange` with the look when it differs from the
 * last one told: gone, back, or another folder. `lookNow` looks at once (a watch saw something).
 */
export function createRootPoll(root: string, onChange: (look: RootLook) => void, everyMs = 1_000) {
  let last: RootLook | null = null;
  let timer: NodeJS.Timeout | null = null;

  function lookNow(): RootLook {
    const look = lookAtRoot(root);
    const same = last !== null && JSON.stringify(last) === JSON.stringify(look);
    last = look;
    if (!same) onChange(look);
    return look;
  }

  return {
    /** The first look, told; then one every `everyMs`. */
    start(): RootLook {
      const look = lookNow();
      timer = setInterval(lookNow, everyMs);
      timer.unref();
      return look;
    },
    lookNow,
    stop(): void {
      if (timer !== null) clearInterval(timer);
      timer = null;
    },
  };
}

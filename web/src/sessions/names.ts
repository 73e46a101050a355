// How ids and projects are written short in lists: the full one is always on hover.

const PREFIX = 8;
const LEAST_TAIL = 4;

/** The ids listed that share their first 8 characters with another, each with how it is shown apart. */
let apart = new Map<string, string>();
const seen = new WeakSet<object>();

/**
 * Tells shortId the ids the stores list now (each new list once): two sessions whose ids share
 * their first 8 characters stay two everywhere, so such ids are written with as much of their end
 * as tells them apart (`9c0ffee0…000a`), or whole.
 */
export function knowListedIds(list: { projects: readonly { sessions: readonly { id: string; statedSession: string | null }[] }[] }): void {
  if (seen.has(list)) return;
  seen.add(list);
  const byPrefix = new Map<string, Set<string>>();
  const add = (id: string) => {
    if (id.length <= PREFIX) return;
    const prefix = id.slice(0, PREFIX);
    let ids = byPrefix.get(prefix);
    if (ids === undefined) byPrefix.set(prefix, (ids = new Set()));
    ids.add(id);
  };
  for (const project of list.projects) {
    // Its id in its store, and the session it states (a seat's: the head of its session's row).
    for (const { id, statedSession } of project.sessions) {
      add(id);
      if (statedSession !== null) add(statedSession);
    }
  }
  const next = new Map<string, string>();
  for (const ids of byPrefix.values()) if (ids.size > 1) for (const id of ids) next.set(id, writtenApart(id, ids));
  apart = next;
}

/** `id` with the least of its end that no other of `alike` ends with; whole if its end cannot tell it. */
function writtenApart(id: string, alike: ReadonlySet<string>): string {
  for (let tail = LEAST_TAIL; PREFIX + 1 + tail < id.length; tail++) {
    const end = id.slice(-tail);
    if (![...alike].some((other) => other !== id && other.endsWith(end))) return `${id.slice(0, PREFIX)}…${end}`;
  }
  return id;
}

export function shortId(sessionId: string): string {
  return apart.get(sessionId) ?? (sessionId.length > PREFIX ? sessionId.slice(0, PREFIX) : sessionId);
}

export function projectName(cwd: string | null): string {
  if (cwd === null) return 'no directory named';
  const parts = cwd.split('/').filter((part) => part !== '');
  return parts.at(-1) ?? cwd;
}

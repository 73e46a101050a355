import type { SourceRef } from './wire/common.ts';

// Projects are working directories: a reader assigns a conversation to the project its store
// names (the record: its entries' cwd, rule.byDirectory; spex: the session's worktree; set-agent-
// comm: the agent's project). Conversations of every kind and source are grouped together by it,
// and each still says its source: two are never merged. Chains link a record child session to its
// parent; nothing else links sessions.

type ProjectMember = { source: SourceRef; id: string; cwd: string | null; lastAt: string | null };

export type Project<S extends ProjectMember> = {
  /** null for conversations whose store names no directory (a record session with no entry parsed yet). */
  cwd: string | null;
  sessions: S[];
};

/** Groups conversations by directory; the most recently active project and conversation come first. */
export function groupProjects<S extends ProjectMember>(sessions: Iterable<S>): Project<S>[] {
  const byCwd = new Map<string | null, S[]>();
  for (const session of sessions) {
    const list = byCwd.get(session.cwd);
    if (list === undefined) byCwd.set(session.cwd, [session]);
    else list.push(session);
  }
  const projects: Project<S>[] = [];
  for (const [cwd, list] of byCwd) {
    list.sort(byLatestFirst);
    projects.push({ cwd, sessions: list });
  }
  projects.sort((a, b) => byLatestFirst(a.sessions[0]!, b.sessions[0]!) || compareCwd(a.cwd, b.cwd));
  return projects;
}

function byLatestFirst(a: ProjectMember, b: ProjectMember): number {
  const x = a.lastAt ?? '';
  const y = b.lastAt ?? '';
  if (x !== y) return x < y ? 1 : -1;
  if (a.id !== b.id) return a.id < b.id ? -1 : 1;
  return a.source.id < b.source.id ? -1 : a.source.id > b.source.id ? 1 : 0;
}

/** Directories in order, those named by no store last. */
export function compareCwd(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

// Projects are working directories: a reader assigns a session to the project its entries name
// (rule.byDirectory). Chains link a child session to its parent; nothing else links sessions.

type ProjectMember = { sessionId: string; cwd: string | null; lastAt: string | null };

export type Project<S extends ProjectMember> = {
  /** null for sessions whose entries name no directory (no entry parsed yet). */
  cwd: string | null;
  sessions: S[];
};

/** Groups sessions by directory; the most recently active project and session come first. */
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
  return a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0;
}

function compareCwd(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

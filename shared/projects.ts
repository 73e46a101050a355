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
  const byCwd = byDirectory(sessions);
  const projects: Project<S>[] = [];
  for (const [cwd, list] of byCwd) {
    list.sort(byLatestFirst);
    projects.push({ cwd, sessions: list });
  }
  return projects.sort(byProjectOrder);
}

/**
 * The projects as `groupProjects` would group them after taking out every conversation `replaced`
 * says and putting `added` in; a project neither touched is the same object, and only the
 * projects touched are sorted again. A client's list changes with every write told: grouping all
 * of it again for one conversation was most of what a write cost the page.
 */
export function regroupProjects<S extends ProjectMember>(projects: readonly Project<S>[], replaced: (conversation: S) => boolean, added: readonly S[]): Project<S>[] {
  const addedIn = byDirectory(added);
  const result: Project<S>[] = [];
  for (const project of projects) {
    const kept = project.sessions.some(replaced) ? project.sessions.filter((conversation) => !replaced(conversation)) : null;
    const more = addedIn.get(project.cwd);
    addedIn.delete(project.cwd);
    if (kept === null && more === undefined) {
      result.push(project);
      continue;
    }
    const sessions = [...(kept ?? project.sessions), ...(more ?? [])].sort(byLatestFirst);
    if (sessions.length > 0) result.push({ cwd: project.cwd, sessions });
  }
  for (const [cwd, list] of addedIn) result.push({ cwd, sessions: list.sort(byLatestFirst) });
  return result.sort(byProjectOrder);
}

/** Conversations by their directory, in the order given. */
function byDirectory<S extends ProjectMember>(conversations: Iterable<S>): Map<string | null, S[]> {
  const byCwd = new Map<string | null, S[]>();
  for (const conversation of conversations) {
    const list = byCwd.get(conversation.cwd);
    if (list === undefined) byCwd.set(conversation.cwd, [conversation]);
    else list.push(conversation);
  }
  return byCwd;
}

function byProjectOrder<S extends ProjectMember>(a: Project<S>, b: Project<S>): number {
  return byLatestFirst(a.sessions[0]!, b.sessions[0]!) || compareCwd(a.cwd, b.cwd);
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

/** One conversation's key among every store's: its source and its id. */
export function conversationKey(source: string, id: string): string {
  return `${source}\u0000${id}`;
}

/**
 * What is looked up in a project's conversations, made once per list of them: a new list keeps
 * the list of a project none of whose conversations changed (regroupProjects), and with it what
 * was made of it. While a store is indexed the list changes with every write told, and making
 * these of every conversation for each was most of what a write then cost the page.
 */
type ProjectLookups = { byKey: Map<string, ProjectMember>; children: { parentOf: unknown; children: { child: ProjectMember; parent: string }[] } | null };
const lookups = new WeakMap<readonly ProjectMember[], ProjectLookups>();

function lookupsOf(sessions: readonly ProjectMember[]): ProjectLookups {
  let made = lookups.get(sessions);
  if (made === undefined) {
    const byKey = new Map<string, ProjectMember>();
    for (const conversation of sessions) byKey.set(conversationKey(conversation.source.id, conversation.id), conversation);
    made = { byKey, children: null };
    lookups.set(sessions, made);
  }
  return made;
}

/** The conversation of this source and id in the projects; undefined while none lists it. */
export function findConversation<S extends ProjectMember>(projects: readonly Project<S>[], source: string, id: string): S | undefined {
  const key = conversationKey(source, id);
  for (const project of projects) {
    const found = lookupsOf(project.sessions).byKey.get(key);
    if (found !== undefined) return found as S;
  }
  return undefined;
}

/**
 * Children whose parent (`parentOf`: a conversation of the same store, by its id) is listed in
 * another project than theirs: by their parent's key (`source` NUL `id`), and by their parent's
 * project, in the list's order.
 */
export function childrenInOtherProjects<S extends ProjectMember>(projects: readonly Project<S>[], parentOf: (conversation: S) => string | null) {
  const byParent = new Map<string, S[]>();
  const byProject = new Map<string | null, S[]>();
  for (const project of projects) {
    for (const { child, parent } of childrenOf(project.sessions, parentOf)) {
      const parentCwd = findConversation(projects, child.source.id, parent)?.cwd;
      if (parentCwd === undefined || parentCwd === project.cwd) continue;
      const parentKey = conversationKey(child.source.id, parent);
      const siblings = byParent.get(parentKey);
      if (siblings === undefined) byParent.set(parentKey, [child]);
      else siblings.push(child);
      const here = byProject.get(parentCwd);
      if (here === undefined) byProject.set(parentCwd, [child]);
      else here.push(child);
    }
  }
  return { byParent, byProject };
}

/** A project's conversations that name a parent other than themselves, with its id. */
function childrenOf<S extends ProjectMember>(sessions: readonly S[], parentOf: (conversation: S) => string | null): { child: S; parent: string }[] {
  const made = lookupsOf(sessions);
  if (made.children?.parentOf !== parentOf) {
    const children: { child: S; parent: string }[] = [];
    for (const child of sessions) {
      const parent = parentOf(child);
      if (parent !== null && parent !== child.id) children.push({ child, parent });
    }
    made.children = { parentOf, children };
  }
  return made.children.children as { child: S; parent: string }[];
}

import { join, sep } from 'node:path';
import { labelProject, type ProjectLabel } from '../../shared/spex/layout.ts';
import { NOTHING_INDEXED, type SentIndex } from '../../shared/spex/sentBy.ts';
import { foldTimelineFacts } from '../../shared/spex/timeline.ts';
import { FOLDER_NAME_NOT_UTF8, listStoreFolder, type FolderEntry } from '../watch/listFolder.ts';
import type { PendingTails } from '../watch/pendingTails.ts';
import type { Stirred } from '../watch/stirBatch.ts';
import type { StoreWalker } from '../watch/storeWatch.ts';
import type { SpexSession } from './spexReader.ts';
import type { SessionReads } from './spexSessions.ts';

// Which folders of a spex home hold sessions (spex-timeline-format: Layout): `projects/<project>/
// sessions/<session id>/`. The walk lists them (the first scan, each reconcile), the watch's events
// list again what stirred, and what went is forgotten. Nothing is followed through a link, and
// nothing outside the home is listed; a name not UTF-8 is listed with its bytes escaped and not
// read. What is found and not read is a stray of the home: listed, never opened.

const PROJECTS = 'projects';
const SESSIONS = 'sessions';
/** Where a home's own strays are kept, beside each project's. */
const HOME = '';

type HomeContext = {
  root: string;
  sessions: Map<string, SpexSession>;
  labels: Map<string, ProjectLabel>;
  reads: SessionReads;
  sentIndex: SentIndex;
  pending: PendingTails;
  watch(folder: string): void;
  unwatchUnder(folder: string): void;
  /** Asks for a folder to be listed again, as if its watch had told. */
  stir(folder: string): void;
  /** Whether the first scan runs: what it reads is the start, not news. */
  scanning(): boolean;
  onChanged(ids: Set<string>): void;
};

type SpexHome = StoreWalker & {
  /** Names under the home that are listed and not read: links, names that are not UTF-8. */
  strays(): string[];
  /** A session's folder is gone or not a folder: its project is listed again. */
  listProjectOf(session: SpexSession): void;
  relabel(projectFolder: string, changed: Set<string>): void;
};

export function createSpexHome(context: HomeContext): SpexHome {
  const { root, sessions, labels } = context;
  const projectsDir = join(root, PROJECTS);
  /** Strays by where they were found: the home, or a project folder. */
  const strays = new Map<string, string[]>();

  function* walk(): Generator<void> {
    const changed = new Set<string>();
    yield* walkHome(changed);
    if (changed.size > 0 && !context.scanning()) context.onChanged(changed);
  }

  function* walkHome(changed: Set<string>): Generator<void> {
    const found: string[] = [];
    strays.set(HOME, found);
    // Each folder is watched before it is listed: what comes in between is told by its watch.
    context.watch(root);
    const home = listStoreFolder(root, root);
    if (home.type !== 'listed') return forgetAll(changed);
    const entry = home.entries.find((candidate) => candidate.name === PROJECTS);
    // A home without projects/ has recorded nothing yet: nothing, not unknown.
    if (entry === undefined || !entry.isDirectory()) {
      if (entry?.isSymbolicLink() === true) found.push(PROJECTS);
      return forgetAll(changed);
    }
    context.watch(projectsDir);
    const projects = listStoreFolder(projectsDir, root);
    if (projects.type !== 'listed') {
      if (projects.type === 'refused') found.push(PROJECTS);
      return forgetAll(changed);
    }
    const present = new Set<string>();
    for (const project of projects.entries) {
      if (project.bytes !== undefined || project.isSymbolicLink()) {
        found.push(`${PROJECTS}/${project.name}`);
        continue;
      }
      if (!project.isDirectory()) continue;
      present.add(project.name);
      yield* walkProject(project.name, changed);
    }
    for (const session of [...sessions.values()]) if (!present.has(session.projectFolder)) forget(session, changed);
    for (const project of [...strays.keys()]) if (project !== HOME && !present.has(project)) strays.delete(project);
  }

  function* walkProject(projectFolder: string, changed: Set<string>): Generator<void> {
    const projectDir = join(projectsDir, projectFolder);
    const sessionsDir = join(projectDir, SESSIONS);
    const found: string[] = [];
    strays.set(projectFolder, found);
    context.watch(projectDir);
    let names: FolderEntry[] = [];
    const project = listStoreFolder(projectDir, root);
    const entry = project.type === 'listed' ? project.entries.find((candidate) => candidate.name === SESSIONS) : undefined;
    if (entry?.isSymbolicLink() === true) found.push(`${PROJECTS}/${projectFolder}/${SESSIONS}`);
    else if (entry?.isDirectory() === true) {
      context.watch(sessionsDir);
      const listing = listStoreFolder(sessionsDir, root);
      if (listing.type === 'listed') names = listing.entries;
      else if (listing.type === 'refused') found.push(`${PROJECTS}/${projectFolder}/${SESSIONS}`);
    }
    const present = new Set<string>();
    for (const name of names) {
      if (name.isSymbolicLink()) found.push(`${PROJECTS}/${projectFolder}/${SESSIONS}/${name.name}`);
      if (!name.isDirectory()) continue;
      present.add(name.name);
      let session = sessions.get(name.name);
      if (session === undefined) {
        session = createSession(name.name, projectFolder, join(sessionsDir, name.name), name.bytes === undefined ? null : FOLDER_NAME_NOT_UTF8);
        sessions.set(name.name, session);
        if (session.notRead !== null) changed.add(session.sessionId);
        context.reads.refresh(session, changed, true);
        yield;
      } else if (session.projectFolder === projectFolder) {
        context.reads.refresh(session, changed);
        yield;
      }
    }
    for (const session of [...sessions.values()]) if (session.projectFolder === projectFolder && !present.has(session.sessionId)) forget(session, changed);
    relabel(projectFolder, changed);
  }

  function forgetAll(changed: Set<string>): void {
    for (const session of [...sessions.values()]) forget(session, changed);
  }

  function forget(session: SpexSession, changed: Set<string>): void {
    sessions.delete(session.sessionId);
    context.pending.settle(session.sessionId);
    session.indexed = context.sentIndex.unindex(session.sessionId, [...session.segments.values()].map((state) => state.reading), session.indexed, changed);
    context.unwatchUnder(session.folder);
    changed.add(session.sessionId);
    relabel(session.projectFolder, changed);
  }

  const relabel = (projectFolder: string, changed: Set<string>) => relabelProject(sessions, labels, projectFolder, changed);

  function take(stirred: Stirred, scanningNow: boolean): Stirred | void {
    const changed = new Set<string>();
    const left: Stirred = new Map();
    let listHome = false;
    const listProjects = new Set<string>();
    for (const [folder, names] of stirred) {
      const rel = folder.length > projectsDir.length && folder.startsWith(`${projectsDir}${sep}`) ? folder.slice(projectsDir.length + 1).split(sep) : [];
      // projects/<p>/sessions/<id>[/timeline]: the session is read again, if it is known.
      const session = rel.length >= 3 && rel[1] === SESSIONS ? sessions.get(rel[2]!) : undefined;
      if (session !== undefined) context.reads.refresh(session, changed);
      else if (scanningNow) left.set(folder, names);
      else if (rel.length === 0) listHome = true;
      else listProjects.add(rel[0]!);
    }
    if (listHome) for (const _step of walkHome(changed));
    else for (const project of listProjects) for (const _step of walkProject(project, changed));
    if (changed.size > 0) context.onChanged(changed);
    return left.size > 0 ? left : undefined;
  }

  return {
    walk,
    take,
    forget() {
      const changed = new Set<string>();
      forgetAll(changed);
      strays.clear();
      if (changed.size > 0) context.onChanged(changed);
    },
    count() {
      let files = 0;
      for (const session of sessions.values()) files += session.segments.size;
      return files;
    },
    strays: () => [...strays.values()].flat().sort(),
    listProjectOf(session) {
      context.stir(join(projectsDir, session.projectFolder, SESSIONS));
    },
    relabel,
  };
}

/** A project's label comes from its sessions' worktree paths: a change tells each of them. */
function relabelProject(sessions: ReadonlyMap<string, SpexSession>, labels: Map<string, ProjectLabel>, projectFolder: string, changed: Set<string>): void {
  const members = [...sessions.values()].filter((session) => session.projectFolder === projectFolder);
  if (members.length === 0) {
    labels.delete(projectFolder);
    return;
  }
  const label = labelProject(
    projectFolder,
    members.map((session) => (session.sessionJson?.state === 'known' ? session.sessionJson.meta.worktree_path : null)),
  );
  const before = labels.get(projectFolder);
  labels.set(projectFolder, label);
  if (before !== undefined && (before.label !== label.label || before.source !== label.source)) for (const session of members) changed.add(session.sessionId);
}

/** A session as first found: nothing read of it yet, or never to be (`notRead` says why). */
function createSession(sessionId: string, projectFolder: string, folder: string, notRead: string | null): SpexSession {
  return {
    sessionId,
    projectFolder,
    folder,
    sessionJson: null,
    sessionJsonStamp: null,
    segments: new Map(),
    strays: [],
    fold: foldTimelineFacts(sessionId, null, [], [], notRead),
    version: 0,
    indexed: NOTHING_INDEXED,
    notRead,
  };
}

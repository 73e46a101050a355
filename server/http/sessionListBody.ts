import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { sessionChangesResponseSchema, sessionsHeadSchema } from '../../shared/wire/conversations.ts';
import { groupProjects } from '../../shared/projects.ts';
import { sessionKey } from '../../shared/sessionList.ts';
import { createLoopTurns, type LoopTurns } from '../sources/loopTurns.ts';
import type { ListedConversation, Source } from '../sources/source.ts';

/** The list's envelope is checked here; its conversations are validated one by one by their sources. */
const changesEnvelopeSchema = sessionChangesResponseSchema.omit({ changed: true });

type ProjectBody = { conversations: ListedConversation['json'][]; bytes: Buffer };
type SessionListBody = { version: string; chunks: Buffer[]; bytes: number };
/** The whole list as JSON, and as lines (`application/x-ndjson`): its envelope, then each project, one a line. */
type WholeList = SessionListBody & { lines: SessionListBody };
/** A conversation as last listed, and the list's generation in which it last changed. */
type Kept = { json: string; changedIn: number; ref: { source: Source['ref']; id: string } };

const COMMA = Buffer.from(',');
const NEWLINE = Buffer.from('\n');
const CLOSE = Buffer.from(']}');
/** Conversations gone from the list are remembered this many; a client further behind is answered the whole list. */
const REMOVED_KEPT = 10_000;

/**
 * The body of `GET /api/sessions` (rec.sessions/4), as UTF-8 chunks: the envelope, then one chunk
 * per project, kept while none of the project's conversations changed. At 10,000 sessions the
 * list is 4 MB; assembling and encoding all of it again for every change made 10–12 MB of garbage
 * per answer, and a client asking after each write grew the server by 700 MB. Now a change costs
 * the changed project's chunk, and unchanged sources answer with the chunks they already have.
 * Projects are gathered across sources: a project is a working directory, whichever store names
 * it; each conversation still says its source, and none is merged with another.
 *
 * Each new body is a generation of the list; the version names it with this process's own prefix,
 * so that `changesSince` answers a client only what changed after the generation it holds.
 *
 * A body is built a conversation a step, each step in `turns` (server/sources/loopTurns.ts):
 * listing a conversation a source has not summarised since it changed folds it, and while the
 * record's first scan runs that is most of them. Built in one step, a list asked for in the
 * middle of a first scan of 1,000 sessions held the event loop 100–370 ms, and every write's
 * notice waited behind it. One body is built at a time; an asker meanwhile waits for it.
 */
export function createSessionListBody(sources: readonly Source[], turns: LoopTurns = createLoopTurns()) {
  const prefix = randomBytes(4).toString('hex');
  let generation = 0;
  let projects = new Map<string | null, ProjectBody>();
  let kept = new Map<string, Kept>();
  /** Conversations no longer listed, by key, with the generation they went in; oldest first. */
  const removed = new Map<string, Kept>();
  /** The oldest generation `changesSince` can answer from: removals before it were forgotten. */
  let forgottenBefore = 0;
  let last: WholeList | null = null;
  /** The sources' version `last` is the list as of; null when they changed while it was built. */
  let lastVersion: string | null = null;
  let building: Promise<WholeList> | null = null;
  let sourcesNow: unknown = [];
  let degradedNow = 0;
  const versionNow = () => sources.map((source) => source.version()).join('/');

  const build = async (): Promise<WholeList> => {
    while (building !== null) await building;
    if (last !== null && lastVersion === versionNow()) return last;
    building = buildNow();
    try {
      return await building;
    } finally {
      building = null;
    }
  };

  const buildNow = async (): Promise<WholeList> => {
    generation++;
    const listed: (ListedConversation & { source: Source['ref'] })[] = [];
    const keptNow = new Map<string, Kept>();
    let degradedSessions = 0;
    // Listing may change a source's version (a fold made on demand): what changed between steps
    // is what changed meanwhile, and a body that may have missed it is not kept as current.
    let changedMeanwhile = false;
    for (const source of sources) {
      for (const conversation of source.conversations()) {
        if (conversation.degraded) degradedSessions++;
        listed.push({ ...conversation, source: source.ref });
        const key = sessionKey({ source: source.ref, id: conversation.id });
        const before = kept.get(key);
        keptNow.set(key, before?.json === conversation.json ? before : { json: conversation.json, changedIn: generation, ref: { source: source.ref, id: conversation.id } });
        removed.delete(key);
        const seen = versionNow();
        await turns.take('answer');
        if (versionNow() !== seen) changedMeanwhile = true;
      }
    }
    for (const [key, one] of kept) if (!keptNow.has(key)) removed.set(key, { ...one, changedIn: generation });
    for (const [key, one] of removed) {
      if (removed.size <= REMOVED_KEPT) break;
      forgottenBefore = one.changedIn;
      removed.delete(key);
    }
    kept = keptNow;
    sourcesNow = sources.map((source) => ({ ...source.status(), strays: source.strays() }));
    degradedNow = degradedSessions;
    const head = JSON.stringify(sessionsHeadSchema.parse({ schema: 'rec.sessions/4', version: `${prefix}.${generation}`, sources: sourcesNow, degradedSessions }));
    const chunks: Buffer[] = [Buffer.from(`${head.slice(0, -1)},"projects":[`)];
    const lines: Buffer[] = [Buffer.from(`${head}\n`)];
    const projectsNow = new Map<string | null, ProjectBody>();
    for (const project of groupProjects(listed)) {
      const conversations = project.sessions.map((conversation) => conversation.json);
      let body = projects.get(project.cwd);
      if (body === undefined || !sameStrings(body.conversations, conversations)) {
        // Assembled from the sources' validated JSON: the same JSON as serializing the project,
        // without serializing its unchanged conversations again.
        const json = `{"cwd":${JSON.stringify(project.cwd)},"sessions":[${conversations.join(',')}]}`;
        body = { conversations, bytes: Buffer.from(json) };
      }
      projectsNow.set(project.cwd, body);
      if (projectsNow.size > 1) chunks.push(COMMA);
      chunks.push(body.bytes);
      lines.push(body.bytes, NEWLINE);
    }
    chunks.push(CLOSE);
    projects = projectsNow;
    const version = `${prefix}.${generation}`;
    last = { version, chunks, bytes: byteCount(chunks), lines: { version, chunks: lines, bytes: byteCount(lines) } };
    lastVersion = changedMeanwhile ? null : versionNow();
    return last;
  };

  return {
    /** The whole list as of now; its `lines`, the same list a project a line. */
    body: build,
    /**
     * What changed after the list's version `since` (rec.session-changes/1), as of now; null when
     * `since` is not a version this list can answer from: the whole list is the answer then.
     */
    async changesSince(since: string): Promise<SessionListBody | null> {
      const match = /^([0-9a-f]{8})\.([0-9]+)$/.exec(since);
      const from = match === null || match[1] !== prefix ? NaN : Number(match[2]);
      await build();
      if (!Number.isSafeInteger(from) || from > generation || from < forgottenBefore) return null;
      const changed: string[] = [];
      for (const one of kept.values()) if (one.changedIn > from) changed.push(one.json);
      const gone: Kept['ref'][] = [];
      for (const one of removed.values()) if (one.changedIn > from) gone.push(one.ref);
      const head = JSON.stringify(changesEnvelopeSchema.parse({ schema: 'rec.session-changes/1', since, version: `${prefix}.${generation}`, sources: sourcesNow, degradedSessions: degradedNow, removed: gone }));
      const chunk = Buffer.from(`${head.slice(0, -1)},"changed":[${changed.join(',')}]}`);
      return { version: since, chunks: [chunk], bytes: chunk.length };
    },
  };
}

/** The body as a stream for one answer; the chunks are shared, never written to. */
export function streamOf(body: { chunks: Buffer[] }): Readable {
  return Readable.from(body.chunks, { objectMode: false });
}

function byteCount(chunks: readonly Buffer[]): number {
  return chunks.reduce((sum, chunk) => sum + chunk.length, 0);
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

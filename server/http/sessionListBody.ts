import { Readable } from 'node:stream';
import { sessionsResponseSchema } from '../../shared/wire/conversations.ts';
import { groupProjects } from '../../shared/projects.ts';
import type { ListedConversation, Source } from '../sources/source.ts';

/** The list's envelope; its conversations are validated one by one by their sources. */
const sessionsEnvelopeSchema = sessionsResponseSchema.omit({ projects: true });

type ProjectBody = { conversations: ListedConversation['json'][]; bytes: Buffer };
type SessionListBody = { version: string; chunks: Buffer[]; bytes: number };

const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']}');

/**
 * The body of `GET /api/sessions` (rec.sessions/3), as UTF-8 chunks: the envelope, then one chunk
 * per project, kept while none of the project's conversations changed. At 10,000 sessions the
 * list is 4 MB; assembling and encoding all of it again for every change made 10–12 MB of garbage
 * per answer, and a client asking after each write grew the server by 700 MB. Now a change costs
 * the changed project's chunk, and unchanged sources answer with the chunks they already have.
 * Projects are gathered across sources: a project is a working directory, whichever store names
 * it; each conversation still says its source, and none is merged with another.
 */
export function createSessionListBody(sources: readonly Source[]): () => SessionListBody {
  let projects = new Map<string | null, ProjectBody>();
  let last: SessionListBody | null = null;
  const versionNow = () => sources.map((source) => source.version()).join('/');

  return () => {
    if (last?.version === versionNow()) return last;
    const listed: (ListedConversation & { source: Source['ref'] })[] = [];
    let degradedSessions = 0;
    for (const source of sources) {
      for (const conversation of source.conversations()) {
        if (conversation.degraded) degradedSessions++;
        listed.push({ ...conversation, source: source.ref });
      }
    }
    const envelope = sessionsEnvelopeSchema.parse({
      schema: 'rec.sessions/3',
      sources: sources.map((source) => ({ ...source.status(), strays: source.strays() })),
      degradedSessions,
    });
    const head = JSON.stringify(envelope);
    const chunks: Buffer[] = [Buffer.from(`${head.slice(0, -1)},"projects":[`)];
    const kept = new Map<string | null, ProjectBody>();
    for (const project of groupProjects(listed)) {
      const conversations = project.sessions.map((conversation) => conversation.json);
      let body = projects.get(project.cwd);
      if (body === undefined || !sameStrings(body.conversations, conversations)) {
        // Assembled from the sources' validated JSON: the same JSON as serializing the project,
        // without serializing its unchanged conversations again.
        const json = `{"cwd":${JSON.stringify(project.cwd)},"sessions":[${conversations.join(',')}]}`;
        body = { conversations, bytes: Buffer.from(json) };
      }
      kept.set(project.cwd, body);
      if (kept.size > 1) chunks.push(COMMA);
      chunks.push(body.bytes);
    }
    chunks.push(CLOSE);
    projects = kept;
    // Listing may have changed an index (a fold is made on demand): key by the version after.
    last = { version: versionNow(), chunks, bytes: chunks.reduce((sum, chunk) => sum + chunk.length, 0) };
    return last;
  };
}

/** The body as a stream for one answer; the chunks are shared, never written to. */
export function streamOf(body: SessionListBody): Readable {
  return Readable.from(body.chunks, { objectMode: false });
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

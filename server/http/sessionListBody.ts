import { Readable } from 'node:stream';
import { sessionsResponseSchema } from '../../shared/api.ts';
import { groupProjects } from '../../shared/record/projects.ts';
import type { RecordSource } from '../record/recordSource.ts';
import type { CachedSummary, SummaryCache } from './summaryCache.ts';

/** The list's envelope; its sessions are validated one by one as they are cached. */
const sessionsEnvelopeSchema = sessionsResponseSchema.omit({ projects: true });

type Listed = { sessionId: string; cwd: string | null; lastAt: string | null; cached: CachedSummary };
type ProjectBody = { summaries: CachedSummary[]; bytes: Buffer };
type SessionListBody = { version: string; chunks: Buffer[]; bytes: number };

const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']}');

/**
 * The body of `GET /api/sessions` (rec.sessions/2), as UTF-8 chunks: the envelope, then one chunk
 * per project, kept while none of the project's summaries changed. At 10,000 sessions the list is
 * 4 MB; assembling and encoding all of it again for every change made 10–12 MB of garbage per
 * answer, and a client asking after each write grew the server by 700 MB. Now a change costs the
 * changed project's chunk, and an unchanged record answers with the chunks it already has.
 */
export function createSessionListBody(source: RecordSource, summaryOf: SummaryCache): () => SessionListBody {
  let projects = new Map<string | null, ProjectBody>();
  let last: SessionListBody | null = null;

  return () => {
    if (last?.version === source.version()) return last;
    const listed: Listed[] = [];
    let degradedSessions = 0;
    for (const sessionId of source.sessionIds()) {
      const fold = source.fold(sessionId);
      if (fold === null) continue;
      const cached = summaryOf(fold);
      if (cached.summary.degraded.length > 0) degradedSessions++;
      listed.push({ sessionId, cwd: cached.summary.cwd, lastAt: cached.summary.lastAt, cached });
    }
    const envelope = sessionsEnvelopeSchema.parse({
      schema: 'rec.sessions/2',
      sources: [{ ...source.status(), strays: source.looseFiles() }],
      degradedSessions,
    });
    const head = JSON.stringify(envelope);
    const chunks: Buffer[] = [Buffer.from(`${head.slice(0, -1)},"projects":[`)];
    const kept = new Map<string | null, ProjectBody>();
    for (const project of groupProjects(listed)) {
      const summaries = project.sessions.map((session) => session.cached);
      let body = projects.get(project.cwd);
      if (body === undefined || !sameSummaries(body.summaries, summaries)) {
        // Assembled from the cached, already validated summaries: the same JSON as serializing
        // the project, without serializing its unchanged summaries again.
        const json = `{"cwd":${JSON.stringify(project.cwd)},"sessions":[${summaries.map((summary) => summary.json).join(',')}]}`;
        body = { summaries, bytes: Buffer.from(json) };
      }
      kept.set(project.cwd, body);
      if (kept.size > 1) chunks.push(COMMA);
      chunks.push(body.bytes);
    }
    chunks.push(CLOSE);
    projects = kept;
    // Folding may have changed the index (a fold is made on demand): key by the version after.
    last = { version: source.version(), chunks, bytes: chunks.reduce((sum, chunk) => sum + chunk.length, 0) };
    return last;
  };
}

/** The body as a stream for one answer; the chunks are shared, never written to. */
export function streamOf(body: SessionListBody): Readable {
  return Readable.from(body.chunks, { objectMode: false });
}

function sameSummaries(a: readonly CachedSummary[], b: readonly CachedSummary[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  DEFAULT_PAGE_LIMIT,
  MAX_PAGE_LIMIT,
  PAGE_TEXT_LIMIT_BYTES,
  fileResponseSchema,
  sessionResponseSchema,
  sessionsResponseSchema,
} from '../../shared/api.ts';
import { groupProjects } from '../../shared/record/projects.ts';
import type { RecordSource } from '../record/recordSource.ts';
import { projectItem } from './projection.ts';
import type { CachedSummary, SummaryCache } from './summaryCache.ts';

const sessionParams = z.object({ sessionId: z.string().min(1) });
const fileParams = z.object({ sessionId: z.string().min(1), file: z.string().min(1) });
const pageQuery = z.object({
  offset: z.coerce.number().int().nonnegative().default(0),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(DEFAULT_PAGE_LIMIT),
  /** A file name: answer with the page that holds it, for a link to one entry. */
  around: z.string().min(1).optional(),
});

/** The list's envelope; its sessions are validated one by one as they are cached. */
const sessionsEnvelopeSchema = sessionsResponseSchema.omit({ projects: true });

type Listed = CachedSummary & { sessionId: string; cwd: string | null; lastAt: string | null };

/**
 * The JSON API. Session ids and file names from the URL are looked up in the index and never
 * joined into a path: only names the reader found on disk reach the file system.
 */
export function registerSessionRoutes(app: FastifyInstance, source: RecordSource, summaryOf: SummaryCache): void {
  // The list as last sent, kept while nothing in the record has changed since.
  let lastList: { version: string; body: string } | null = null;

  app.get('/api/sessions', async (_request, reply) => {
    const version = source.version();
    if (lastList?.version === version) return reply.type('application/json; charset=utf-8').send(lastList.body);
    const listed: Listed[] = [];
    let degradedSessions = 0;
    for (const sessionId of source.sessionIds()) {
      const fold = source.fold(sessionId);
      if (fold === null) continue;
      const cached = summaryOf(fold);
      if (cached.summary.degraded.length > 0) degradedSessions++;
      listed.push({ ...cached, sessionId, cwd: cached.summary.cwd, lastAt: cached.summary.lastAt });
    }
    const { record, indexing } = source.status();
    const envelope = sessionsEnvelopeSchema.parse({
      schema: 'rec.sessions/1',
      recordDir: source.recordDir,
      record,
      indexing,
      degradedSessions,
      strays: source.strays(),
    });
    // Assembled from the cached, already validated summaries: the same JSON as serializing the
    // whole response, without serializing 10,000 unchanged summaries again.
    const projects = groupProjects(listed)
      .map((project) => `{"cwd":${JSON.stringify(project.cwd)},"sessions":[${project.sessions.map((session) => session.json).join(',')}]}`)
      .join(',');
    const head = JSON.stringify(envelope);
    // Folding may have changed the index (a fold is made on demand): key by the version after.
    lastList = { version: source.version(), body: `${head.slice(0, -1)},"projects":[${projects}]}` };
    return reply.type('application/json; charset=utf-8').send(lastList.body);
  });

  app.get('/api/sessions/:sessionId', async (request, reply) => {
    const params = sessionParams.safeParse(request.params);
    const query = pageQuery.safeParse(request.query);
    if (!params.success || !query.success) {
      return reply.code(400).send({ error: 'bad-request', message: 'offset must be 0 or more, and limit from 1 to ' + MAX_PAGE_LIMIT });
    }
    const fold = source.fold(params.data.sessionId);
    if (fold === null) return reply.code(404).send({ error: 'not-found', message: 'no such session in this record' });
    const { limit, around } = query.data;
    let offset = query.data.offset;
    if (around !== undefined) {
      const at = fold.items.findIndex((item) => item.type !== 'gap' && item.fact.name === around);
      if (at === -1) return reply.code(404).send({ error: 'not-found', message: 'no such file in this session' });
      offset = Math.max(0, at - Math.floor(limit / 2));
    }
    const read = (name: string) => source.readNow(fold.sessionId, name);
    const items = fold.items.slice(offset, offset + limit).map((item) => projectItem(item, read, PAGE_TEXT_LIMIT_BYTES));
    // Reading the page may have found a file changed or gone since the fold; the summary is
    // taken afterwards so that it agrees with the items.
    const current = source.fold(fold.sessionId) ?? fold;
    return sessionResponseSchema.parse({
      schema: 'rec.session/1',
      session: summaryOf(current).summary,
      runs: current.runs,
      page: { offset, limit, total: fold.items.length },
      items,
    });
  });

  app.get('/api/sessions/:sessionId/files/:file', async (request, reply) => {
    const params = fileParams.safeParse(request.params);
    if (!params.success) return reply.code(400).send({ error: 'bad-request', message: 'a session id and a file name are needed' });
    const fold = source.fold(params.data.sessionId);
    const item = fold?.items.find((candidate) => candidate.type !== 'gap' && candidate.fact.name === params.data.file);
    if (fold == null || item === undefined) {
      return reply.code(404).send({ error: 'not-found', message: 'no such file in this session' });
    }
    const wire = projectItem(item, (name) => source.readNow(fold.sessionId, name), null);
    if (wire.type !== 'file') return reply.code(404).send({ error: 'not-found', message: 'a stray file is listed, never read' });
    return fileResponseSchema.parse({ schema: 'rec.file/1', sessionId: fold.sessionId, item: wire });
  });
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { timedGet } from './dashboardProcess.ts';
import { spread, type Spread } from './stats.ts';

export type ApiTimes = {
  sessions: number;
  /** GET /api/sessions. */
  list: Spread & { bytes: number };
  /** The baseline: a request the server answers without touching the record (a 404). */
  trivial: Spread;
  /** GET /api/sessions/:id, the first page (default limit), of ordinary sessions. */
  firstPage: Spread;
  /** The first page and the last page of the longest session. */
  bigFirstPage: Spread | null;
  bigLastPage: Spread | null;
  /**
   * The longest session's first ask of its first page and of its last, and the rounds of both
   * asked after them before the timed ones: not in the spreads above (see WARM_ROUNDS).
   */
  bigOpen: { first: number; last: number; warm: number[] } | null;
  /** The baseline for those pages: reading and parsing the same files, plainly, in the bench. */
  bigFirstPlain: Spread | null;
  bigLastPlain: Spread | null;
  /** The bytes of the files on each of those pages. */
  bigFirstBytes: number;
  bigLastBytes: number;
  bigTotal: number;
};

/**
 * Rounds of the longest session's two pages asked, and reported, before its timed rounds. The
 * first asks start reader threads (a lane for its 2 MB entry: the last page's first ask took
 * 159–211 ms; one for pages in a row) and run the page's code before it is optimized (20–44 ms
 * each, where the pages settle at 15–23 ms at p50): timed with the rest, a few of sixty set the
 * p95 (docs/performance.md, eighteenth round). The session's order is made before, by the list.
 */
const WARM_ROUNDS = 5;

/** Times the API, one request at a time, as a single browser tab would ask. */
/** Each request starts with the bench's own garbage collected (see timedGet). */
const CLEAN = { collectFirst: true };

type PageAnswer = { page: { total: number; limit: number }; items: { type: string; file?: string }[] };

/** readFileSync and JSON.parse of a page's files: what the disk and the parser alone cost. */
function readPlainly(folder: string, answer: PageAnswer): { ms: number; bytes: number } {
  const started = performance.now();
  let bytes = 0;
  for (const item of answer.items) {
    if (item.type !== 'file' || item.file === undefined) continue;
    const raw = readFileSync(join(folder, item.file));
    bytes += raw.length;
    try {
      JSON.parse(raw.toString('utf8'));
    } catch {
      // a damaged file costs its read
    }
  }
  return { ms: performance.now() - started, bytes };
}

export async function measureApi(url: string, recordDir: string, sessionIds: readonly string[], bigSessionId: string | null, rounds: number): Promise<ApiTimes> {
  const list: number[] = [];
  const trivial: number[] = [];
  let bytes = 0;
  let sessions = 0;
  for (let i = 0; i < rounds; i++) {
    const answer = await timedGet<{ projects: { sessions: unknown[] }[] }>(url, '/api/sessions', CLEAN);
    list.push(answer.ms);
    bytes = answer.bytes;
    sessions = answer.body.projects.reduce((n, p) => n + p.sessions.length, 0);
    trivial.push((await timedGet(url, '/api/sessions/no-such-session', CLEAN)).ms);
  }
  const firstPage: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const sessionId = sessionIds[Math.floor((i * 7919) % sessionIds.length)]!;
    firstPage.push((await timedGet(url, `/api/sessions/${encodeURIComponent(sessionId)}`, CLEAN)).ms);
  }
  let bigFirst: number[] | null = null;
  let bigLast: number[] | null = null;
  const firstPlain: number[] = [];
  const lastPlain: number[] = [];
  let bigFirstBytes = 0;
  let bigLastBytes = 0;
  let bigTotal = 0;
  let bigOpen: ApiTimes['bigOpen'] = null;
  if (bigSessionId !== null) {
    bigFirst = [];
    bigLast = [];
    const folder = join(recordDir, bigSessionId);
    const opened = await timedGet<PageAnswer>(url, `/api/sessions/${bigSessionId}`, CLEAN);
    const lastOffset = Math.max(0, opened.body.page.total - opened.body.page.limit);
    bigOpen = { first: opened.ms, last: (await timedGet(url, `/api/sessions/${bigSessionId}?offset=${lastOffset}`, CLEAN)).ms, warm: [] };
    for (let i = 0; i < WARM_ROUNDS; i++) {
      bigOpen.warm.push((await timedGet(url, `/api/sessions/${bigSessionId}`, CLEAN)).ms);
      bigOpen.warm.push((await timedGet(url, `/api/sessions/${bigSessionId}?offset=${lastOffset}`, CLEAN)).ms);
    }
    for (let i = 0; i < rounds; i++) {
      const first = await timedGet<PageAnswer>(url, `/api/sessions/${bigSessionId}`, CLEAN);
      bigFirst.push(first.ms);
      const plainFirst = readPlainly(folder, first.body);
      firstPlain.push(plainFirst.ms);
      bigFirstBytes = plainFirst.bytes;
      bigTotal = first.body.page.total;
      const offset = Math.max(0, bigTotal - first.body.page.limit);
      const last = await timedGet<PageAnswer>(url, `/api/sessions/${bigSessionId}?offset=${offset}`, CLEAN);
      bigLast.push(last.ms);
      const plainLast = readPlainly(folder, last.body);
      lastPlain.push(plainLast.ms);
      bigLastBytes = plainLast.bytes;
    }
  }
  return {
    sessions,
    list: { ...spread(list), bytes },
    trivial: spread(trivial),
    firstPage: spread(firstPage),
    bigFirstPage: bigFirst === null ? null : spread(bigFirst),
    bigLastPage: bigLast === null ? null : spread(bigLast),
    bigFirstPlain: bigFirst === null ? null : spread(firstPlain),
    bigLastPlain: bigLast === null ? null : spread(lastPlain),
    bigFirstBytes,
    bigLastBytes,
    bigTotal,
    bigOpen,
  };
}

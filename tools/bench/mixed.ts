import { Agent, get } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createSeededRandom } from '../../shared/seededRandom.ts';
import { BENCH_AUTH, connectEvents, startDashboardProcess } from './dashboardProcess.ts';
import type { GeneratedRecord, RecordShape } from './generateRecord.ts';
import { readPeakRss } from './proc.ts';
import type { Row } from './report.ts';
import { spread, type Spread } from './stats.ts';

// What many clients at once get: 20 clients send 500 requests between them over a 100k record,
// each waiting for its answer before its next, as tabs and scripts do: pages and items (what a
// person waits for), searches (one in five a slow regular expression) and exports of long
// sessions read in full. Per kind of request: its round trips, how many were refused, and how
// long a refusal took to arrive; beside each, the same requests asked one at a time with nothing
// else running, in the same run (a 404 for a refusal: an answer that does no work).

const CLIENTS = 20;
const REQUESTS = 500;
/** 80,000 entries in ordinary sessions, 20,000 in four long ones that are exported whole. */
export const MIXED_SHAPE: RecordShape = { sessions: 800, entriesPerSession: 100, bigSessions: 4, bigSessionEntries: 5_000, seed: 4 };
const MIX = [
  { kind: 'page', plural: 'pages', share: 0.45 },
  { kind: 'item', plural: 'items', share: 0.2 },
  { kind: 'search', plural: 'searches', share: 0.2 },
  { kind: 'slow search', plural: 'slow searches (regex)', share: 0.05 },
  { kind: 'export', plural: 'exports read whole', share: 0.1 },
] as const;
type Kind = (typeof MIX)[number]['kind'];

/** `stoppedEarly`: a search answered with what it found when its time ran out (rec.search/4). */
type Answer = { kind: Kind; status: number; ms: number; bytes: number; retryAfter: string | null; stoppedEarly: boolean };

export type MixedKind = { answered: Spread; statuses: Record<string, number>; refused: Spread | null; refusedWithoutRetryAfter: number; stoppedEarly: number; bytes: number };
/** Round trips with nothing else running: pages, items, and a 404 (an answer that does no work). */
type Quiet = { page: Spread; item: Spread; trivial: Spread };
/**
 * `benchLoopMaxMs`: the longest the bench's own event loop was held during the mix: a round trip
 * is timed by it, so an answer that arrived meanwhile is counted late by as much.
 * `connections`: the TCP connections its clients opened; the server accepts one a loop iteration.
 */
export type MixedLoad = { clients: number; requests: number; wallMs: number; quiet: Quiet; all: Spread; kinds: Record<string, MixedKind>; peakRssBytes: number; benchLoopMaxMs: number; connections: number };

/** The kinds of the 500 requests, in the order the clients take them: the same every run. */
function planRequests(): Kind[] {
  const random = createSeededRandom(21);
  return Array.from({ length: REQUESTS }, () => {
    let roll = random();
    for (const { kind, share } of MIX) {
      if (roll < share) return kind;
      roll -= share;
    }
    return 'page';
  });
}

/**
 * The clients' connections: kept alive, one a client at most, as a tab's or a script's are. fetch
 * (undici) opened a new connection for 180 of a mix's ~200 that carried one request: its body ends
 * before its connection is back in its pool, so a client asking again at once found every one busy
 * and opened another, and the surplus was closed once idle (measured: 40 connections for 20 clients
 * asking one at a time with nothing else running). Each connection accepted cut the server's turns
 * short (server/sources/loopTurns.ts), and a refusal asked on one waited to be accepted.
 */
function createClients(url: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  const sockets = new WeakSet<object>();
  let connections = 0;
  return {
    /** Connections opened so far. */
    connections: () => connections,
    close: () => agent.destroy(),
    /** GETs a path and reads its answer to the end without parsing it. */
    ask(kind: Kind, path: string): Promise<Answer> {
      const started = performance.now();
      return new Promise((resolve, reject) => {
        const request = get(new URL(path, url), { agent, headers: BENCH_AUTH }, (response) => {
          let bytes = 0;
          // A search's answer is small: kept, to tell one that stopped early.
          const kept: Buffer[] = [];
          response.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            if (kind !== 'export') kept.push(chunk);
          });
          response.on('error', reject);
          response.on('end', () => {
            const ms = performance.now() - started;
            const status = response.statusCode ?? 0;
            const retryAfter = response.headers['retry-after'];
            try {
              const stoppedEarly = kind.endsWith('search') && status === 200 && (JSON.parse(Buffer.concat(kept).toString('utf8')) as { stoppedEarly?: unknown }).stoppedEarly != null;
              resolve({ kind, status, ms, bytes, retryAfter: typeof retryAfter === 'string' ? retryAfter : null, stoppedEarly });
            } catch (error) {
              reject(error as Error);
            }
          });
        });
        request.on('socket', (socket) => {
          if (!sockets.has(socket)) connections++;
          sockets.add(socket);
        });
        request.on('error', reject);
      });
    },
  };
}

function describeKind(answers: readonly Answer[]): MixedKind {
  const statuses: Record<string, number> = {};
  for (const { status } of answers) statuses[status] = (statuses[status] ?? 0) + 1;
  const refused = answers.filter((answer) => answer.status === 503);
  return {
    answered: spread(answers.map((answer) => answer.ms)),
    statuses,
    refused: refused.length === 0 ? null : spread(refused.map((answer) => answer.ms)),
    refusedWithoutRetryAfter: refused.filter((answer) => answer.retryAfter === null).length,
    stoppedEarly: answers.filter((answer) => answer.stoppedEarly).length,
    bytes: answers.reduce((sum, answer) => sum + answer.bytes, 0),
  };
}

/**
 * Runs the command on `dir`, a record of MIXED_SHAPE of its own (the mix only reads it, so one kept
 * by --dir serves the next run), waits for it to be ready, and sends the mix.
 */
export async function measureMixed(bin: string, dir: string, record: GeneratedRecord, log: (line: string) => void): Promise<{ rows: Row[]; results: MixedLoad }> {
  const dashboard = await startDashboardProcess(bin, dir);
  try {
    const { url } = dashboard;
    const events = await connectEvents(url);
    await events.next((n) => n.event.type === 'source' && n.event.source.indexing.state === 'ready', 600_000);
    events.close();
    const ordinary = record.sessionIds.filter((id) => !record.bigSessionIds.includes(id));
    // The files of a few sessions, for the items asked for.
    const files: { sessionId: string; file: string }[] = [];
    for (const sessionId of ordinary.slice(0, 20)) {
      const response = await fetch(new URL(`/api/sessions/${encodeURIComponent(sessionId)}`, url), { headers: BENCH_AUTH });
      const page = (await response.json()) as { items: { file?: string }[] };
      for (const item of page.items) if (item.file !== undefined) files.push({ sessionId, file: item.file });
    }
    const plan = planRequests();
    const pathOf = (kind: Kind, i: number): string => {
      switch (kind) {
        case 'page':
          return `/api/sessions/${encodeURIComponent(ordinary[(i * 7919) % ordinary.length]!)}`;
        case 'item': {
          const { sessionId, file } = files[(i * 104729) % files.length]!;
          return `/api/sessions/${encodeURIComponent(sessionId)}/items/${encodeURIComponent(file)}`;
        }
        case 'search':
          return `/api/search?q=${encodeURIComponent(['schema change', 'flaky test', 'zqxjkv-no-such-text', 'retry policy'][i % 4]!)}`;
        case 'slow search':
          return `/api/search?regex=1&q=${encodeURIComponent('(a+)+$')}`;
        case 'export':
          return `/api/sessions/${encodeURIComponent(record.bigSessionIds[i % record.bigSessionIds.length]!)}/export?format=ndjson`;
      }
    };
    const alone = createClients(url);
    const quietly = async (kind: Kind, path: (i: number) => string) => {
      const times: number[] = [];
      for (let i = 0; i < 40; i++) times.push((await alone.ask(kind, path(i))).ms);
      return spread(times);
    };
    const quiet: Quiet = { page: await quietly('page', (i) => pathOf('page', i)), item: await quietly('item', (i) => pathOf('item', i)), trivial: await quietly('page', () => '/api/sessions/no-such-session') };
    alone.close();
    log(`mixed: ${CLIENTS} clients send ${REQUESTS} requests (${MIX.map(({ kind }) => `${plan.filter((k) => k === kind).length} ${kind}`).join(', ')})`);
    const answers: Answer[] = [];
    let next = 0;
    // The generated record's garbage is collected before the clock starts (npm run bench passes
    // --expose-gc): a collection of it inside the mix held the bench's loop 187 ms, counted into
    // whichever round trips were under way.
    (globalThis as { gc?: () => void }).gc?.();
    const benchLoop = monitorEventLoopDelay({ resolution: 5 });
    const clients = createClients(url);
    benchLoop.enable();
    const started = performance.now();
    const client = async () => {
      for (let i = next++; i < REQUESTS; i = next++) answers.push(await clients.ask(plan[i]!, pathOf(plan[i]!, i)));
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    const wallMs = performance.now() - started;
    benchLoop.disable();
    const connections = clients.connections();
    clients.close();
    const kinds = Object.fromEntries(MIX.map(({ kind }) => [kind, describeKind(answers.filter((answer) => answer.kind === kind))]));
    const results: MixedLoad = { clients: CLIENTS, requests: REQUESTS, wallMs, quiet, all: spread(answers.map((answer) => answer.ms)), kinds, peakRssBytes: readPeakRss(dashboard.pid) ?? 0, benchLoopMaxMs: benchLoop.max / 1e6, connections };
    return { rows: describeRows(results), results };
  } finally {
    await dashboard.stop();
  }
}

function describeRows(load: MixedLoad): Row[] {
  const { all } = load;
  const rows: Row[] = [
    {
      measure: `mixed 100k: ${load.requests} requests from ${load.clients} clients (p50)`,
      value: all.p50,
      unit: 'ms',
      target: '≤ 1 s, none over 10 s',
      met: all.p50 <= 1_000 && all.max <= 10_000,
      note: `p95 ${Math.round(all.p95)} ms, max ${Math.round(all.max)} ms; all answered in ${(load.wallMs / 1000).toFixed(1)} s; peak RSS ${Math.round(load.peakRssBytes / 2 ** 20)} MB; ${load.connections} connections opened; the bench's own loop held up to ${Math.round(load.benchLoopMaxMs)} ms`,
    },
  ];
  for (const { kind, plural } of MIX) {
    const figures = load.kinds[kind]!;
    const alone = kind === 'page' ? load.quiet.page : kind === 'item' ? load.quiet.item : null;
    const statuses = Object.entries(figures.statuses).map(([status, n]) => `${n}× ${status}`).join(', ');
    const refused = figures.refused;
    rows.push({
      measure: `           ${plural} (p95)`,
      value: figures.answered.p95,
      unit: 'ms',
      ...(alone === null ? {} : { baseline: { value: alone.p95, what: 'alone' }, ratio: figures.answered.p95 / alone.p95 }),
      note: `p50 ${Math.round(figures.answered.p50)} ms, max ${Math.round(figures.answered.max)} ms over ${figures.answered.n} (${statuses}${figures.stoppedEarly > 0 ? `, ${figures.stoppedEarly} of the 200s stopped early` : ''})${kind === 'export' ? `, ${Math.round(figures.bytes / 2 ** 20)} MB read` : ''}`,
    });
    if (refused !== null) {
      rows.push({
        measure: `           a refused ${kind}, answered in (max)`,
        value: refused.max,
        unit: 'ms',
        baseline: { value: load.quiet.trivial.p95, what: 'a 404 alone' },
        ratio: refused.max / load.quiet.trivial.p95,
        target: '≤ 50 ms, with retry-after',
        met: refused.max <= 50 && figures.refusedWithoutRetryAfter === 0,
        note: `p50 ${refused.p50.toFixed(1)} ms over ${refused.n}; ${figures.refusedWithoutRetryAfter} without retry-after`,
      });
    }
  }
  return rows;
}

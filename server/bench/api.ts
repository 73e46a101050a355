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
  bigTotal: number;
};

/** Times the API, one request at a time, as a single browser tab would ask. */
export async function measureApi(url: string, sessionIds: readonly string[], bigSessionId: string | null, rounds: number): Promise<ApiTimes> {
  const list: number[] = [];
  const trivial: number[] = [];
  let bytes = 0;
  let sessions = 0;
  for (let i = 0; i < rounds; i++) {
    const answer = await timedGet<{ projects: { sessions: unknown[] }[] }>(url, '/api/sessions');
    list.push(answer.ms);
    bytes = answer.bytes;
    sessions = answer.body.projects.reduce((n, p) => n + p.sessions.length, 0);
    trivial.push((await timedGet(url, '/api/sessions/no-such-session')).ms);
  }
  const firstPage: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const sessionId = sessionIds[Math.floor((i * 7919) % sessionIds.length)]!;
    firstPage.push((await timedGet(url, `/api/sessions/${encodeURIComponent(sessionId)}`)).ms);
  }
  let bigFirst: number[] | null = null;
  let bigLast: number[] | null = null;
  let bigTotal = 0;
  if (bigSessionId !== null) {
    bigFirst = [];
    bigLast = [];
    for (let i = 0; i < rounds; i++) {
      const first = await timedGet<{ page: { total: number; limit: number } }>(url, `/api/sessions/${bigSessionId}`);
      bigFirst.push(first.ms);
      bigTotal = first.body.page.total;
      const offset = Math.max(0, bigTotal - first.body.page.limit);
      bigLast.push((await timedGet(url, `/api/sessions/${bigSessionId}?offset=${offset}`)).ms);
    }
  }
  return {
    sessions,
    list: { ...spread(list), bytes },
    trivial: spread(trivial),
    firstPage: spread(firstPage),
    bigFirstPage: bigFirst === null ? null : spread(bigFirst),
    bigLastPage: bigLast === null ? null : spread(bigLast),
    bigTotal,
  };
}

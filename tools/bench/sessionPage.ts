import type { JoinedSessionResponse } from '../../shared/wire/session.ts';
import { timedGet } from './dashboardProcess.ts';
import { spread, type Spread } from './stats.ts';

export type SessionPageTimes = {
  /** Items the session's page across the stores gave, and how many its record session holds. */
  items: number;
  total: number;
  /** `GET /api/joined-sessions/:session`: the page a browser asks for. */
  page: Spread;
  /** The baseline: the record's own page of the same newest items (`?offset=&limit=`). */
  ownPage: Spread;
};

/**
 * A session's page across the stores over a large record session, beside the record's own page of
 * the same items, asked in turn so that both see the same load. A page that read the whole session
 * would be far slower than its own page; one that reads the newest it shows is a small multiple of it.
 */
export async function measureSessionPage(url: string, sessionId: string, samples: number): Promise<SessionPageTimes> {
  const path = `/api/joined-sessions/${encodeURIComponent(sessionId)}`;
  const first = await timedGet<JoinedSessionResponse>(url, path);
  if (first.status !== 200) throw new Error(`session page: ${first.status}`);
  const record = first.body.conversations.find((conversation) => conversation.source.kind === 'record');
  if (record === undefined) throw new Error('session page: no record session');
  const items = first.body.items.length;
  const total = first.body.cut.find((cut) => cut.source.kind === 'record')?.total ?? items;
  const ownPath = `/api/sources/${record.source.id}/conversations/${encodeURIComponent(sessionId)}?offset=${total - items}&limit=${items}`;
  const page: number[] = [];
  const ownPage: number[] = [];
  for (let i = 0; i < samples; i++) {
    page.push((await timedGet(url, path)).ms);
    ownPage.push((await timedGet(url, ownPath)).ms);
  }
  return { items, total, page: spread(page), ownPage: spread(ownPage) };
}

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ActivityMinute, ActivityPeer, ActivityResponse } from '../../../../shared/wire/activity.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { Folded, TALL_ENOUGH } from '../../app/Folded.tsx';
import { useFirstRowsShown } from '../../conversation/FirstRows.tsx';
import { fetchActivity } from './recordApi.ts';
import { useSettings } from '../../settings/Settings.tsx';
import { VerbatimText } from '../../text/VerbatimText.tsx';
import { countOf } from '../../text/count.ts';
import { Time } from '../../time/Time.tsx';
import { formatTime } from '../../time/formatTime.ts';
import { describeFilter, isFiltered, NO_FILTER, sessionFilterQuery, type SessionFilter } from './sessionFilter.ts';
import { REFUSED_ONLY_TITLE } from '../../text/refused.ts';
import './busy.css';

// Reading a busy session: narrow it to one side, one peer or what was refused, see how many messages each peer
// exchanged, and see when it was busy, a bar per minute that opens the session at that moment.
// The counts are the server's, over the whole session (`/api/sessions/:id/activity`), not only
// the pages this browser has loaded.

type Props = { source: string; sessionId: string; filter: SessionFilter; onFilter(filter: SessionFilter): void; onJump(index: number): void };

/**
 * Peers listed before "show all": a session may talk to hundreds of addresses. As many as fit
 * beside the activity strip, each whole, without a box that scrolls inside the page's own; every
 * peer, once asked for, is listed in a box of its own that scrolls, its header kept in view.
 */
const PEERS_SHOWN = 5;

// The strip and the peers take some 180 px: open where the window is tall enough, else under
// their summary. Opened or folded by the reader, they are so on the next session's page too.

export function SessionActivity({ source, sessionId, filter, onFilter, onJump }: Props) {
  const filterQuery = sessionFilterQuery(filter);
  // Asked for once the session's first rows are in: at 100,000 entries it is a megabyte and more.
  const rowsShown = useFirstRowsShown();
  const activity = useQuery({
    queryKey: [...queryKeys.conversation(source, sessionId), 'activity', filterQuery.toString()],
    queryFn: ({ signal }) => fetchActivity(source, sessionId, filterQuery, signal),
    enabled: rowsShown,
    placeholderData: (previous) => previous,
  });
  const data = activity.data;
  return (
    <section className="session-activity" aria-label="Reading this session">
      <div className="busy-filters">
        <span className="segmented" role="group" aria-label="Side">
          {([null, 'sent', 'received'] as const).map((side) => (
            <button key={side ?? 'both'} type="button" aria-pressed={filter.side === side} onClick={() => onFilter({ ...filter, side })}>
              {side === null ? 'Both sides' : side === 'sent' ? 'Sent' : 'Received'}
            </button>
          ))}
        </span>
        <button
          type="button"
          className="small"
          aria-pressed={filter.refused}
          title={REFUSED_ONLY_TITLE}
          onClick={() => onFilter({ ...filter, refused: !filter.refused })}
        >
          Refused only
        </button>
        {filter.peer !== null && (
          <span className="filter-peer">
            peer <PeerName as={filter.peer.as} />{' '}
            <button type="button" className="small" onClick={() => onFilter({ ...filter, peer: null })}>
              every peer
            </button>
          </span>
        )}
        {isFiltered(filter) && (
          <span className="filter-words" role="status">
            Showing {describeFilter(filter)}
            {data !== undefined && JSON.stringify(data.filter) === JSON.stringify(filter) ? `: ${describeShown(data)}` : '. Gaps, start entries and files that hold no message stay in their place.'}{' '}
            <button type="button" className="small" onClick={() => onFilter(NO_FILTER)}>
              Clear filter
            </button>
          </span>
        )}
      </div>
      {activity.error !== null && <p className="notice error">Could not load the session's activity: {activity.error.message}</p>}
      {data !== undefined && (
        <Folded className="activity-fold" openFrom={TALL_ENOUGH} keptAs="activity" summary={<>Activity and peers<span className="muted"> ({countOf(data.total - data.undated, 'item')} by the minute, {countOf(data.peers.length, 'peer')})</span></>}>
          <div className="activity-parts">
            <ActivityStrip activity={data} onJump={onJump} />
            <PeerCounts peers={data.peers} filter={filter} onFilter={onFilter} />
          </div>
        </Folded>
      )}
    </section>
  );
}

/**
 * How many items the filter leaves, in the peer table's terms: its messages, then what stays in
 * place whatever the filter, so "9 items" beside a peer's 2 sent and 5 received adds up.
 */
function describeShown(activity: ActivityResponse): string {
  const kept = activity.total - activity.messages;
  const messages = countOf(activity.messages, 'message');
  if (kept === 0) return `${messages}.`;
  return `${messages}, and ${countOf(kept, 'item')} shown whatever the filter (gaps, start entries, files that hold no message), ${countOf(activity.total, 'item')} in all.`;
}

/** A peer exactly as the host gave it, or "unknown" where it gave none, as an entry shows it. */
function PeerName({ as }: { as: string | null }) {
  return as === null ? (
    <span className="peer-unknown" title="The host gave no address or name: the peer is unknown">
      unknown
    </span>
  ) : (
    <span className="peer-as" title="The address or name exactly as the host gave it">
      <VerbatimText text={as} inline />
    </span>
  );
}

function PeerCounts({ peers, filter, onFilter }: { peers: ActivityPeer[]; filter: SessionFilter; onFilter(filter: SessionFilter): void }) {
  const [all, setAll] = useState(false);
  if (peers.length === 0) return null;
  const shown = all ? peers : peers.slice(0, PEERS_SHOWN);
  return (
    <div className={all ? 'peer-counts all' : 'peer-counts'}>
      <table aria-label="Messages per peer">
        <caption>
          Messages per peer ({countOf(peers.length, 'peer')}), the peer as the host gave it; no two are joined
        </caption>
        <thead>
          <tr>
            <th scope="col">Peer</th>
            <th scope="col">Sent</th>
            <th scope="col">Received</th>
            <th scope="col">
              <span className="visually-hidden">Filter</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.map((peer) => {
            const chosen = filter.peer !== null && filter.peer.as === peer.as;
            return (
              <tr key={peer.as ?? '\u0000unknown'} className={chosen ? 'chosen' : undefined}>
                <td>
                  <PeerName as={peer.as} />
                </td>
                <td className="num">{peer.sent.toLocaleString('en')}</td>
                <td className="num">{peer.received.toLocaleString('en')}</td>
                <td>
                  <button
                    type="button"
                    className="small"
                    aria-pressed={chosen}
                    aria-label={`Only peer ${peer.as ?? 'unknown (none given)'}`}
                    onClick={() => onFilter({ ...filter, peer: chosen ? null : { as: peer.as } })}
                  >
                    {chosen ? 'every peer' : 'only this peer'}
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {!all && peers.length > PEERS_SHOWN && (
        <button type="button" className="small" onClick={() => setAll(true)}>
          Show all {countOf(peers.length, 'peer')}
        </button>
      )}
    </div>
  );
}

/** Bars at most: a session of days is drawn with several minutes to a bar. */
const MAX_BARS = 120;
const MINUTE_MS = 60_000;

type Bar = { start: number; minutes: number; count: number; firstIndex: number | null };

function barsOf(minutes: readonly ActivityMinute[]): Bar[] {
  if (minutes.length === 0) return [];
  const first = Date.parse(minutes[0]!.minute);
  const last = Date.parse(minutes.at(-1)!.minute);
  const span = Math.round((last - first) / MINUTE_MS) + 1;
  const perBar = Math.max(1, Math.ceil(span / MAX_BARS));
  const bars: Bar[] = Array.from({ length: Math.ceil(span / perBar) }, (_, i) => ({ start: first + i * perBar * MINUTE_MS, minutes: perBar, count: 0, firstIndex: null }));
  for (const minute of minutes) {
    const bar = bars[Math.floor(Math.round((Date.parse(minute.minute) - first) / MINUTE_MS) / perBar)]!;
    bar.count += minute.count;
    bar.firstIndex ??= minute.firstIndex;
  }
  return bars;
}

function ActivityStrip({ activity, onJump }: { activity: ActivityResponse; onJump(index: number): void }) {
  const { timeZone } = useSettings();
  const bars = barsOf(activity.minutes);
  if (bars.length === 0) return null;
  const most = Math.max(...bars.map((bar) => bar.count));
  const perBar = bars[0]!.minutes;
  const last = activity.minutes.at(-1)!.minute;
  return (
    <figure className="activity">
      <figcaption>
        Activity: {countOf(activity.total - activity.undated, 'item')} by the minute {perBar > 1 ? `(a bar is ${perBar} minutes)` : '(a bar a minute)'}, from{' '}
        <Time at={activity.minutes[0]!.minute} /> to <Time at={last} />
        {activity.undated > 0 && `; ${countOf(activity.undated, 'item')} without a time (gaps, stray files)`}. Click a bar to go there.
      </figcaption>
      <div className="activity-strip" role="group" aria-label="Items per minute">
        {bars.map((bar) => {
          const words = `${countOf(bar.count, 'item')} from ${formatTime(new Date(bar.start).toISOString(), timeZone)}${bar.minutes > 1 ? `, ${bar.minutes} minutes` : ''}`;
          return bar.firstIndex === null ? (
            <span key={bar.start} className="activity-bar empty" title={words} />
          ) : (
            <button
              key={bar.start}
              type="button"
              className="activity-bar"
              title={words}
              aria-label={words}
              onClick={() => onJump(bar.firstIndex!)}
            >
              <span className="activity-fill" style={{ height: `${Math.max(8, (bar.count / most) * 100)}%` }} />
            </button>
          );
        })}
      </div>
    </figure>
  );
}

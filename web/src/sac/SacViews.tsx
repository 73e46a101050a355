import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { SacSeatSummary } from '../../../shared/wire/sac.ts';
import { DownloadLinks } from '../export/DownloadLinks.tsx';
import { Link } from '../router/Router.tsx';
import { sacRoomPath, sacRoomsPath, sacSeatPath } from '../router/routes.ts';
import { conversationPath, otherViewsOf } from '../sessions/conversations.ts';
import { countOf } from '../text/count.ts';
import { useSessions } from '../sessions/useSessions.ts';
import { fetchRoom, fetchRooms, fetchSeat, sacKeys } from './sacApi.ts';
import { SacEntry, entryAnchor } from './SacEntry.tsx';
import { useSacLive } from './useSacLive.ts';
import './sac.css';

// set-agent-comm: the rooms of a store, a room's flow, and a seat's Sent | Received.

const LIMIT = 500;
/** The most entries a flow is asked for (the server's limit): a linked entry is looked for in these. */
const MAX_LIMIT = 20_000;

export function SacRoomsView({ source }: { source: string }) {
  useSacLive(source);
  const rooms = useQuery({ queryKey: sacKeys.rooms(source), queryFn: ({ signal }) => fetchRooms(source, signal) });
  if (rooms.error !== null) return <main className="view"><p className="notice warn">{rooms.error.message}</p></main>;
  return (
    <main className="view sac-view" aria-label="Rooms">
      <h1>Rooms</h1>
      <table className="sac-rooms">
        <thead>
          <tr><th>room</th><th>seats</th><th>entries</th><th>last entry</th><th></th></tr>
        </thead>
        <tbody>
          {rooms.data?.rooms.map((room) => (
            <tr key={room.room}>
              <td>
                <Link to={sacRoomPath(source, room.room)}>#{room.room}</Link>
                {room.kind === 'pair' && <span className="sac-pair"> a room of two</span>}
                {room.kind === 'unknown' && <span className="sac-pair" title={room.kindWhy ?? ''}> room of two: unknown</span>}
              </td>
              <td>
                <SeatLinks source={source} seats={room.seats} />
              </td>
              <td>{room.entries}</td>
              <td>{room.last === null ? '—' : `${room.last.time} · ${room.last.seat} · ${room.last.entryType}`}</td>
              <td>{room.degraded.length > 0 && <span className="badge degraded" title={room.degraded.map((reason) => reason.words).join('\n')}>degraded</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}

export function SacRoomView({ source, room, entry }: { source: string; room: string; entry: string | null }) {
  useSacLive(source);
  const [limit, setLimit] = useState(LIMIT);
  const page = useQuery({ queryKey: sacKeys.room(source, room, limit), queryFn: ({ signal }) => fetchRoom(source, room, limit, signal) });
  const data = page.data;
  const found = entry !== null && data !== undefined && data.items.some((item) => item.item === entry);
  // A linked entry older than the newest page is in the flow's earlier part: ask for all of it.
  const wider = entry !== null && data !== undefined && !found && data.total > data.items.length && limit < MAX_LIMIT;
  useEffect(() => {
    if (wider) setLimit(MAX_LIMIT);
  }, [wider]);
  // Brought into view once per link: live entries after it do not pull the page back.
  const shown = useRef<string | null>(null);
  useEffect(() => {
    if (!found || shown.current === entry) return;
    shown.current = entry;
    document.getElementById(entryAnchor(entry))?.scrollIntoView({ block: 'center' });
  }, [found, entry]);
  if (page.error !== null) return <main className="view"><p className="notice warn">{page.error.message}</p></main>;
  return (
    <main className="view sac-view" aria-label={`Room ${room}`}>
      <p><Link to={sacRoomsPath(source)}>Rooms</Link></p>
      <h1>
        #{room}
        {data?.room.kind === 'pair' && <span className="sac-pair"> a room of two: {data.room.pair?.join(' and ')}</span>}
      </h1>
      {data !== undefined && (
        <>
          <p className="sac-meta">
            {countOf(data.room.seats.length, 'seat')}: <SeatLinks source={source} seats={data.room.seats} /> · {countOf(data.room.entries, 'entry', 'entries')}
            {data.room.neverWrote > 0 && ` · ${data.room.neverWrote} joined and never wrote`}
          </p>
          {data.room.degraded.map((reason) => <p key={reason.code} className="notice warn">{reason.words}</p>)}
          {entry !== null && !found && !wider && !page.isFetching && (
            <p className="notice warn">
              Entry <code>{entry}</code> is {data.total > data.items.length ? `not among the newest ${data.items.length.toLocaleString('en-US')} entries of this room` : 'not in this room’s flow'}. The flow is
              shown from its newest entries.
            </p>
          )}
          {data.total > data.items.length && <button type="button" onClick={() => setLimit(Math.min(limit * 4, MAX_LIMIT))}>show earlier ({data.total - data.items.length} more)</button>}
          <section className="sac-flow" aria-label="Flow">
            {data.items.map((item) => <SacEntry key={item.item} item={item} source={source} seat={item.seat} target={item.item === entry} />)}
          </section>
        </>
      )}
    </main>
  );
}

export function SacSeatView({ source, seat }: { source: string; seat: string }) {
  useSacLive(source);
  const [others, setOthers] = useState(false);
  const [limit, setLimit] = useState(LIMIT);
  const page = useQuery({ queryKey: sacKeys.seat(source, seat, others, limit), queryFn: ({ signal }) => fetchSeat(source, seat, others, limit, signal) });
  if (page.error !== null) return <main className="view"><p className="notice warn">{page.error.message}</p></main>;
  const data = page.data;
  return (
    <main className="view sac-view" aria-label={`Seat ${seat}`}>
      <p><Link to={sacRoomsPath(source)}>Rooms</Link></p>
      <h1>{seat}</h1>
      <DownloadLinks path={`/api/sessions/${encodeURIComponent(seat)}/export`} query={new URLSearchParams({ source })} what="this seat" />
      {data !== undefined && (
        <>
          <SeatFacts summary={data.seat} source={source} />
          {data.seat.degraded.map((reason) => <p key={reason.code} className="notice warn">{reason.words}</p>)}
          <label className="sac-others">
            <input type="checkbox" checked={others} onChange={(event) => setOthers(event.target.checked)} /> show entries addressed to others ({data.seat.counts.toOthers})
          </label>
          {(data.sentTotal > data.sent.length || data.receivedTotal > data.received.length) && (
            <button type="button" onClick={() => setLimit(limit * 4)}>show earlier</button>
          )}
          <div className="sac-columns">
            <section aria-label="Sent">
              <h2>Sent ({data.seat.counts.sent})</h2>
              {data.sent.map((item) => <SacEntry key={item.item} item={item} source={source} seat={seat} showRoom />)}
            </section>
            <section aria-label="Received">
              <h2>Received ({data.seat.counts.received}; {data.seat.counts.unread} unread by sac’s cursor)</h2>
              {data.received.map((item) => <SacEntry key={item.item} item={item} source={source} seat={seat} showRoom />)}
            </section>
          </div>
        </>
      )}
    </main>
  );
}

function SeatLinks({ source, seats }: { source: string; seats: readonly string[] }) {
  return seats.map((seat, index) => (
    <span key={seat}>
      {index > 0 && ', '}
      <Link to={sacSeatPath(source, seat)}>{seat}</Link>
    </span>
  ));
}

function SeatFacts({ summary, source }: { summary: SacSeatSummary; source: string }) {
  const session = summary.session.state === 'known' ? summary.session.session : null;
  const { data: list } = useSessions();
  // The same full session id in another source is the same session: its record or spex view.
  const views = session === null || list === undefined ? [] : otherViewsOf(session, source, list.projects.flatMap((project) => project.sessions)).filter((other) => other.source.kind !== 'sac');
  const focus = summary.focus;
  const presence = summary.presence;
  return (
    <dl className="sac-facts">
      <dt>session</dt>
      <dd>
        {session === null ? (
          `unknown (${summary.session.state === 'unknown' ? summary.session.why : ''})`
        ) : (
          <>
            <code>{session}</code>
            {views.map((other) => {
              const where = other.source.kind === 'spex' ? 'in spex' : 'in the record';
              return (
                <span key={`${other.source.id}/${other.id}`}>
                  {' · '}
                  <Link to={conversationPath(other)} aria-label={`Session ${session} ${where}`} title={other.source.id}>
                    {where}
                  </Link>
                </span>
              );
            })}
            {list !== undefined && views.length === 0 && <span className="muted"> · no other store read here shows this session</span>}
          </>
        )}
      </dd>
      <dt>project</dt>
      <dd>{summary.project.project}{summary.project.from === 'agent-name' && ' (the agent name: the registry names no project)'}</dd>
      <dt>last seen</dt>
      <dd>{summary.lastSeen ?? 'unknown'}</dd>
      <dt>liveness (derived)</dt>
      <dd title={summary.liveness.why}>{summary.liveness.word === 'unknown' ? 'unknown (?)' : summary.liveness.word} — {summary.liveness.why}</dd>
      <dt>focus</dt>
      <dd>
        {focus.state === 'declared'
          ? `${focus.text}${focus.phase !== null ? ` · ${focus.phase}` : ''} · ${focus.ts}${focus.freshness === 'stale' ? ' · stale (over 4 h)' : ''}`
          : focus.state === 'none'
            ? 'none declared'
            : `unknown (${focus.why})`}
      </dd>
      <dt>presence</dt>
      <dd>
        {presence.state === 'quiet'
          ? `quiet${presence.until !== null ? ` until ${presence.until}` : ''}`
          : presence.state === 'expired'
            ? `was quiet until ${presence.until}`
            : presence.state === 'not-quiet'
              ? 'not quiet'
              : `unknown (${presence.why})`}
      </dd>
      <dt>rooms</dt>
      <dd>
        {summary.rooms.map((room) => (
          <span key={room.room}>
            <Link to={sacRoomPath(source, room.room)}>#{room.room}</Link>
            {room.kind === 'pair' && ' (a room of two)'}
            {room.left && ' (left)'}{' '}
          </span>
        ))}
      </dd>
    </dl>
  );
}

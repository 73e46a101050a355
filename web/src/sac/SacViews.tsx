import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { SacSeatSummary } from '../../../shared/wire/sac.ts';
import { Link } from '../router/Router.tsx';
import { sacRoomPath, sacRoomsPath } from '../router/routes.ts';
import { fetchRoom, fetchRooms, fetchSeat, findSessionView, sacKeys } from './sacApi.ts';
import { SacEntry } from './SacEntry.tsx';
import { useSacLive } from './useSacLive.ts';
import './sac.css';

// set-agent-comm: the rooms of a store, a room's flow, and a seat's Sent | Received.

const LIMIT = 500;

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
              <td>{room.seats.join(', ')}</td>
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

export function SacRoomView({ source, room }: { source: string; room: string }) {
  useSacLive(source);
  const [limit, setLimit] = useState(LIMIT);
  const page = useQuery({ queryKey: sacKeys.room(source, room, limit), queryFn: ({ signal }) => fetchRoom(source, room, limit, signal) });
  if (page.error !== null) return <main className="view"><p className="notice warn">{page.error.message}</p></main>;
  const data = page.data;
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
            {data.room.seats.length} seats: {data.room.seats.join(', ')} · {data.room.entries} entries
            {data.room.neverWrote > 0 && ` · ${data.room.neverWrote} joined and never wrote`}
          </p>
          {data.room.degraded.map((reason) => <p key={reason.code} className="notice warn">{reason.words}</p>)}
          {data.total > data.items.length && <button type="button" onClick={() => setLimit(limit * 4)}>show earlier ({data.total - data.items.length} more)</button>}
          <div className="sac-flow" aria-label="Flow">
            {data.items.map((item) => <SacEntry key={item.item} item={item} source={source} seat={item.seat} />)}
          </div>
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

function SeatFacts({ summary, source }: { summary: SacSeatSummary; source: string }) {
  const session = summary.session.state === 'known' ? summary.session.session : null;
  const view = useQuery({ queryKey: ['sac', source, 'session-view', session], queryFn: ({ signal }) => findSessionView(session!, signal), enabled: session !== null });
  const focus = summary.focus;
  const presence = summary.presence;
  return (
    <dl className="sac-facts">
      <dt>session</dt>
      <dd>
        {session === null ? `unknown (${summary.session.state === 'unknown' ? summary.session.why : ''})` : view.data ? <Link to={view.data}>{session}</Link> : session}
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

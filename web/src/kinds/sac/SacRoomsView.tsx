import { useQuery } from '@tanstack/react-query';
import { ConversationList } from '../../conversation/ConversationList.tsx';
import { Link } from '../../router/Router.tsx';
import { conversationPath, sourceViewPath } from '../../router/routes.ts';
import { countOf } from '../../text/count.ts';
import { WrittenTime } from '../../time/WrittenTime.tsx';
import type { SourceViewProps } from '../kind.ts';
import { SacEntry } from './SacEntry.tsx';
import { fetchRoom, fetchRooms, sacKeys } from './sacApi.ts';
import { ROOMS } from './sacPaths.ts';
import { useNewestWindow } from './useNewestWindow.ts';
import './sac.css';

// set-agent-comm's rooms: the rooms of a store, and one room's flow, every seat's entries in time
// order, on the shell's list in one column.

export default function SacRoomsView({ source, subject: room, item }: SourceViewProps) {
  return room === null ? <RoomsTable source={source} /> : <RoomFlow key={room} source={source} room={room} entry={item} />;
}

function RoomsTable({ source }: { source: string }) {
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
          {rooms.data?.rooms.map((one) => (
            <tr key={one.room}>
              <td>
                <Link to={sourceViewPath(source, ROOMS, one.room)}>#{one.room}</Link>
                {one.kind === 'pair' && <span className="sac-pair"> a room of two</span>}
                {one.kind === 'unknown' && <span className="sac-pair" title={one.kindWhy ?? ''}> room of two: unknown</span>}
              </td>
              <td>
                <SeatLinks source={source} seats={one.seats} />
              </td>
              <td>{one.entries}</td>
              <td>{one.last === null ? '—' : <>{<WrittenTime text={one.last.time} at={one.last.at} />} · {one.last.seat} · {one.last.entryType}</>}</td>
              <td>{one.degraded.length > 0 && <span className="badge degraded" title={one.degraded.map((reason) => reason.words).join('\n')}>degraded</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}

function RoomFlow({ source, room, entry }: { source: string; room: string; entry: string | null }) {
  const flow = useNewestWindow({
    queryKey: (limit) => sacKeys.room(source, room, limit),
    fetch: (limit, signal) => fetchRoom(source, room, limit, signal),
    rowsOf: (page) => ({ rows: page.items.map((item) => ({ item, column: 'both' as const })), total: page.total }),
    target: entry,
  });
  const data = flow.query.data;
  if (flow.query.error !== null && data === undefined) return <main className="view"><p className="notice warn">{flow.query.error.message}</p></main>;
  return (
    <main className="view sac-view conversation-view" aria-label={`Room ${room}`}>
      <header className="session-header">
        <p><Link to={sourceViewPath(source, ROOMS)}>Rooms</Link></p>
        <h1>
          #{room}
          {data?.room.kind === 'pair' && <span className="sac-pair"> a room of two: {data.room.pair?.join(' and ')}</span>}
        </h1>
        {data !== undefined && (
          <p className="sac-meta">
            {countOf(data.room.seats.length, 'seat')}: <SeatLinks source={source} seats={data.room.seats} /> · {countOf(data.room.entries, 'entry', 'entries')}
            {data.room.neverWrote > 0 && ` · ${data.room.neverWrote} joined and never wrote`}
          </p>
        )}
        {data?.room.degraded.map((reason) => <p key={reason.code} className="notice warn">{reason.words}</p>)}
        {flow.targetAbsent && (
          <p className="notice warn">
            Entry <code>{entry}</code> is not in this room’s flow. The flow is shown from its newest entries.
          </p>
        )}
        {flow.leftOut > 0 && <p className="notice">The newest {countOf(data?.items.length ?? 0, 'entry', 'entries')} are shown: the {countOf(flow.leftOut, 'earlier one')} are left out.</p>}
      </header>
      <section className="sac-flow" aria-label="Flow">
        <ConversationList
          list={flow.list}
          rowAt={flow.rowAt}
          headings={null}
          label="Entries in time order"
          busy={data === undefined}
          renderRow={(index, selected) => {
            const item = flow.itemAt(index)!;
            return <SacEntry item={item} source={source} seat={item.seat} selected={selected} />;
          }}
        />
      </section>
    </main>
  );
}

function SeatLinks({ source, seats }: { source: string; seats: readonly string[] }) {
  return seats.map((seat, index) => (
    <span key={seat}>
      {index > 0 && ', '}
      <Link to={conversationPath(source, seat)}>{seat}</Link>
    </span>
  ));
}

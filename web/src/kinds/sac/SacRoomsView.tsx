import { useQuery } from '@tanstack/react-query';
import { ConversationList } from '../../conversation/ConversationList.tsx';
import { apiUrls } from '../../api/urls.ts';
import { DownloadLinks } from '../../export/DownloadLinks.tsx';
import { Link, useRouter } from '../../router/Router.tsx';
import { conversationPath, sourceViewPath } from '../../router/routes.ts';
import { countOf } from '../../text/count.ts';
import { WrittenTime } from '../../time/WrittenTime.tsx';
import { DegradedReasons } from '../../sessions/DegradedReasons.tsx';
import type { SacRoomMember, SacRoomSummary } from '../../../../shared/wire/sac.ts';
import type { SourceViewProps } from '../kind.ts';
import { LivenessBadge } from './LivenessBadge.tsx';
import { SacEntry } from './SacEntry.tsx';
import { SacReasons } from './SacReasons.tsx';
import { ParamsNotApplied } from '../../conversation/ParamsNotApplied.tsx';
import { fetchRoom, fetchRooms, sacKeys, type RoomFlowFilter } from './sacApi.ts';
import { RoomMembers } from './RoomMembers.tsx';
import { ROOMS } from './sacPaths.ts';
import { useNewestWindow } from './useNewestWindow.ts';
import './sac.css';

// set-agent-comm's rooms: the rooms of a store, and one room's flow, every seat's entries in time
// order, on the shell's list in one column.

export default function SacRoomsView({ source, subject: room, item, query }: SourceViewProps) {
  const flow: RoomFlowFilter = new URLSearchParams(query).get('flow') === 'waking' ? 'waking' : 'all';
  return room === null ? <RoomsTable source={source} /> : <RoomFlow key={`${room}/${flow}`} source={source} room={room} entry={item} flow={flow} query={query} />;
}

function RoomsTable({ source }: { source: string }) {
  const rooms = useQuery({ queryKey: sacKeys.rooms(source), queryFn: ({ signal }) => fetchRooms(source, signal) });
  if (rooms.error !== null) return <main className="view"><p className="notice warn">{rooms.error.message}</p></main>;
  return (
    <main className="view sac-view" aria-label="Rooms">
      <h1>Rooms</h1>
      <table className="sac-rooms">
        <thead>
          <tr>
            <th scope="col">Room</th>
            <th scope="col">Members</th>
            <th scope="col">Entries</th>
            <th scope="col">Last entry</th>
            <th scope="col">Degraded</th>
          </tr>
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
                {one.members.map((member, index) => (
                  <span key={member.seat}>
                    {index > 0 && ', '}
                    <Link to={conversationPath(source, member.seat)}>{member.seat}</Link>
                    {member.liveness.word === 'gone' && <> <LivenessBadge liveness={member.liveness} /></>}
                    {member.presence.state === 'quiet' && <> <span className="badge sac-quiet" title="declared quiet (sac quiet): not woken; it still reads everything">quiet</span></>}
                  </span>
                ))}
              </td>
              <td>{one.folder.state === 'present' ? one.entries : <RoomFolderWords folder={one.folder} />}</td>
              <td>{one.last === null ? '—' : <>{<WrittenTime text={one.last.time} at={one.last.at} />} · {one.last.seat} · {one.last.entryType}</>}</td>
              <td>{one.degraded.length > 0 ? <DegradedReasons count={one.degraded.length} words={one.degraded.map((reason) => reason.words).join('\n')} /> : <span className="muted">no</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}

function RoomFlow({ source, room, entry, flow: filter, query }: { source: string; room: string; entry: string | null; flow: RoomFlowFilter; query: string }) {
  const { navigate } = useRouter();
  const flow = useNewestWindow({
    queryKey: (limit) => sacKeys.room(source, room, filter, limit),
    fetch: (limit, signal) => fetchRoom(source, room, filter, limit, signal),
    rowsOf: (page) => ({ rows: page.items.map((item) => ({ item, column: 'both' as const })), total: page.total }),
    target: entry,
    onSelectItem: (key) => navigate(sourceViewPath(source, ROOMS, room, key, filter === 'waking' ? 'flow=waking' : ''), { replace: true }),
  });
  const data = flow.query.data;
  if (flow.query.error !== null && data === undefined) return <main className="view"><p className="notice warn">{flow.query.error.message}</p></main>;
  return (
    <main className="view sac-view conversation-view" aria-label={`Room ${room}`}>
      <header className="session-header sac-header">
        <p><Link to={sourceViewPath(source, ROOMS)}>Rooms</Link></p>
        <h1>
          #{room}
          {data?.room.kind === 'pair' && <span className="sac-pair"> a room of two: {data.room.pair?.join(' and ')}</span>}
        </h1>
        {/* A room whose folder is not read has nothing to take away. */}
        {data?.room.folder.state === 'present' && <DownloadLinks {...apiUrls.viewExport(source, ROOMS, room)} what={filter === 'waking' ? 'this room, every entry (not only the waking ones)' : 'this room'} />}
        {data !== undefined && (
          <p className="sac-meta">
            {countOf(data.room.members.length, 'member')}, {countOf(data.room.seats.length, 'seat file')}: <SeatLinks source={source} seats={data.room.seats} /> · {countOf(data.room.entries, 'entry', 'entries')}
            {/* Of a folder not read (archived, gone), no file says who wrote: the folder's own words below say why. */}
            {data.room.folder.state === 'present' && <NeverWrote members={data.room.members} />}
          </p>
        )}
        {data !== undefined && data.room.folder.state !== 'present' && (
          <p className="sac-folder notice">
            <RoomFolderWords folder={data.room.folder} />
          </p>
        )}
        {data !== undefined && <RoomMembers source={source} members={data.room.members} />}
        {flow.targetAbsent && (
          <p className="notice warn">
            Entry <code>{entry}</code> is not in this room’s flow. The flow is shown from its newest entries.
          </p>
        )}
        {flow.leftOut > 0 && <p className="notice">The newest {countOf(data?.items.length ?? 0, 'entry', 'entries')} are shown: the {countOf(flow.leftOut, 'earlier one')} are left out.</p>}
      </header>
      {data !== undefined && <SacReasons source={source} reasons={data.room.degraded} of="room" />}
      <ParamsNotApplied query={query} reads={['flow']} applied={`flow=${filter}`} />
      <div className="conversation-controls">
        <label className="sac-flow-filter">
          Flow shows{' '}
          <select
            aria-label="Flow shows"
            value={filter}
            onChange={(event) => navigate(sourceViewPath(source, ROOMS, room, null, event.target.value === 'waking' ? 'flow=waking' : ''))}
          >
            <option value="all">every entry</option>
            <option value="waking">waking entries only (who wakes whom, derived by sac’s rule)</option>
          </select>
        </label>
      </div>
      <section className="sac-flow" aria-label="Flow">
        <ConversationList
          list={flow.list}
          rowAt={flow.rowAt}
          headings={null}
          label="Entries in time order"
          busy={data === undefined}
          renderRow={(index, selected) => {
            const item = flow.itemAt(index)!;
            return <SacEntry item={item} source={source} seat={item.seat} selected={selected} address={sourceViewPath(source, ROOMS, room, item.item)} />;
          }}
        />
      </section>
    </main>
  );
}

/** Where a room sac's records name is, when its folder is not read here: never shown as an empty room. */
function RoomFolderWords({ folder }: { folder: SacRoomSummary['folder'] }) {
  switch (folder.state) {
    case 'present':
      return null;
    case 'absent':
      return <span title="sac’s records name this room; its folder is made by the first write or join">no entries written: no folder yet</span>;
    case 'archived':
      return (
        <span title="retired by sac rooms --archive: out of sac’s lists, and not read here">
          archived to <code>{folder.path}</code>: its entries are not read
        </span>
      );
  }
}

function SeatLinks({ source, seats }: { source: string; seats: readonly string[] }) {
  return seats.map((seat, index) => (
    <span key={seat}>
      {index > 0 && ', '}
      <Link to={conversationPath(source, seat)}>{seat}</Link>
    </span>
  ));
}

/**
 * The members who never wrote here, in one count, as the roster lists them: those who joined (an
 * empty seat file) and those with no file here. Said apart, "1 joined and never wrote · 2 members
 * with no file here: never wrote" read as sums that did not add up.
 */
function NeverWrote({ members }: { members: readonly SacRoomMember[] }) {
  const emptyFiles = members.filter((member) => member.file === 'empty').length;
  const none = members.filter((member) => member.file === 'none').length;
  if (emptyFiles + none === 0) return null;
  const counted = ` · ${countOf(emptyFiles + none, 'member')} never wrote here`;
  // One way alone is said once, not counted again ("1 member never wrote here: 1 with no file here").
  if (none === 0) return <>{`${counted}: joined (${emptyFiles === 1 ? 'an empty file' : 'empty files'})`}</>;
  if (emptyFiles === 0) return <>{`${counted}: no file here`}</>;
  return <>{`${counted}: ${emptyFiles} joined (${emptyFiles === 1 ? 'an empty file' : 'empty files'}), ${none} with no file here`}</>;
}

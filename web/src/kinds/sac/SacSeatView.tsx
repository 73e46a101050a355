import type { SacSeatSummary } from '../../../../shared/wire/sac.ts';
import { apiUrls } from '../../api/urls.ts';
import { ConversationList } from '../../conversation/ConversationList.tsx';
import { FoldedFacts } from '../../conversation/FoldedFacts.tsx';
import { DownloadLinks } from '../../export/DownloadLinks.tsx';
import { Link, useRouter } from '../../router/Router.tsx';
import { conversationPath, itemPath, sourceViewPath } from '../../router/routes.ts';
import { SessionAcrossStores } from '../../session/SessionAcrossStores.tsx';
import { CopyButton } from '../../text/CopyButton.tsx';
import { WrittenTime } from '../../time/WrittenTime.tsx';
import type { ConversationViewProps } from '../kind.ts';
import { ParamsNotApplied } from '../../conversation/ParamsNotApplied.tsx';
import { SacEntry } from './SacEntry.tsx';
import { SacReasons } from './SacReasons.tsx';
import { fetchSeat, sacKeys } from './sacApi.ts';
import { ROOMS } from './sacPaths.ts';
import { receivedShown } from './receivedShown.ts';
import { seatRows } from './seatRows.ts';
import { useNewestWindow } from './useNewestWindow.ts';
import './sac.css';

// A set-agent-comm seat: what its registry and store say of it, and its Sent | Received on the
// shell's time axis, each received entry marked as sac's cursor marks it (not what the session read).

/** The address's parameters a seat's page reads. */
const SEAT_PARAMS = ['others'];

export default function SacSeatView({ source, id: seat, item, query }: ConversationViewProps) {
  const { navigate } = useRouter();
  // Showing the entries addressed to others is part of the address (`?others=1`).
  const others = new URLSearchParams(query).get('others') === '1';
  const setOthers = (show: boolean) => navigate(conversationPath(source, seat, show ? 'others=1' : ''), { replace: true });
  const flow = useNewestWindow({
    queryKey: (limit) => sacKeys.seat(source, seat, others, limit),
    fetch: (limit, signal) => fetchSeat(source, seat, others, limit, signal),
    rowsOf: seatRows,
    target: item,
    onSelectItem: (key) => navigate(itemPath(source, seat, key, others ? 'others=1' : ''), { replace: true }),
  });
  const data = flow.query.data;
  if (flow.query.error !== null && data === undefined) return <main className="view"><p className="notice warn">{flow.query.error.message}</p></main>;
  return (
    <main className="view sac-view conversation-view" aria-label={`Seat ${seat}`}>
      <header className="session-header sac-header">
        <p><Link to={sourceViewPath(source, ROOMS)}>Rooms</Link></p>
        {/* Named as what it is, as a record session's page and a spex session's are: under "Rooms", a seat's name read as a room's. */}
        <h1>
          Seat <code className="full-id">{seat}</code>
        </h1>
        <DownloadLinks {...apiUrls.conversationExport(source, seat)} what="this seat" />
        {data !== undefined && <SeatFacts summary={data.seat} source={source} />}
        {flow.targetAbsent && (
          <p className="notice warn">
            Entry <code>{item}</code> is not among this seat’s entries{others ? '' : ' (entries addressed to others are not shown)'}.
          </p>
        )}
        {flow.leftOut > 0 && <p className="notice">The newest entries are shown: the {flow.leftOut.toLocaleString('en')} earliest are left out.</p>}
      </header>
      {data !== undefined && <SacReasons source={source} reasons={data.seat.degraded} of="seat" />}
      <ParamsNotApplied query={query} reads={SEAT_PARAMS} applied={others ? 'others=1' : ''} />
      {data !== undefined && (
        <div className="conversation-controls">
          <label className="sac-others">
            <input type="checkbox" checked={others} onChange={(event) => setOthers(event.target.checked)} /> show entries addressed to others ({data.seat.counts.toOthers})
          </label>
        </div>
      )}
      <ConversationList
        list={flow.list}
        rowAt={flow.rowAt}
        busy={data === undefined}
        label="Entries in time order"
        headings={
          data === undefined
            ? { sent: 'Sent', received: 'Received' }
            : { sent: `Sent (${data.seat.counts.sent})`, received: describeReceived(data.seat, others) }
        }
        renderRow={(index, selected) => <SacEntry item={flow.itemAt(index)!} source={source} seat={seat} showRoom selected={selected} />}
      >
        {data !== undefined && data.sent.length + data.received.length === 0 && <p className="notice">This seat has written nothing, and nothing addressed to it is shown.</p>}
      </ConversationList>
    </main>
  );
}

/** The Received heading: what the page shows, with the entries addressed to others counted apart; a gone seat's backlog never as unread (sac's rule). */
function describeReceived({ counts, reading }: SacSeatSummary, others: boolean): string {
  const shown = receivedShown(counts, others);
  const apart = others ? `${counts.toOthers} of them to others` : `${counts.toOthers} to others not shown`;
  // sac's cursor counts every entry of the seat's rooms after it, those to others too: said, so
  // that more unread than received shown reads as sac's rule, not as a miscount.
  const cursor = reading.state === 'gone' ? `gone: backlog of ${reading.backlog} not counted as unread` : `${counts.unread} unread by sac’s cursor${counts.toOthers > 0 ? ', which counts entries to others too' : ''}`;
  return `Received (${shown}; ${apart}; ${cursor})`;
}

/** The seat's session and rooms, then what its registry and store say of it, folded where the window is short. */
function SeatFacts({ summary, source }: { summary: SacSeatSummary; source: string }) {
  const session = summary.session.state === 'known' ? summary.session.session : null;
  const focus = summary.focus;
  const presence = summary.presence;
  return (
    <>
      <p className="session-meta">
        session{' '}
        {session === null ? (
          `unknown (${summary.session.state === 'unknown' ? summary.session.why : ''})`
        ) : (
          <>
            <code className="full-id">{session}</code> <CopyButton getText={() => session} label="Copy the full session id" children="Copy id" />
            <SessionAcrossStores source={source} id={summary.id} />
          </>
        )}
      </p>
      {/* Where the reader goes from here stays above the fold: the seat's rooms. */}
      <p className="session-meta sac-rooms-line">
        rooms{' '}
        {summary.rooms.length === 0 && <span className="muted">none</span>}
        {summary.rooms.map((room) => (
          <span key={room.room}>
            <Link to={sourceViewPath(source, ROOMS, room.room)}>#{room.room}</Link>
            {room.kind === 'pair' && ' (a room of two)'}
            {room.left && ' (left)'}{' '}
          </span>
        ))}
      </p>
      <FoldedFacts about="seat" summary={<>{summary.liveness.word} (derived) · {presenceWord(presence)}</>}>
        <dl className="sac-facts">
          <dt>project</dt>
          <dd>{summary.project.project}{summary.project.from === 'agent-name' && ' (the agent name: the registry names no project)'}</dd>
          <dt>last seen</dt>
          <dd>{summary.lastSeen === null ? 'unknown' : <WrittenTime text={summary.lastSeen} />}</dd>
          <dt>liveness (derived)</dt>
          <dd title={summary.liveness.why}>{summary.liveness.word === 'unknown' ? 'unknown (?)' : summary.liveness.word} — {summary.liveness.why}</dd>
          <dt>focus</dt>
          <dd>
            {focus.state === 'declared' ? (
              <>
                {focus.text}
                {focus.files.length > 0 && (
                  <>
                    {' · files: '}
                    {focus.files.map((file, index) => (
                      <span key={file}>
                        {index > 0 && ', '}
                        <code>{file}</code>
                      </span>
                    ))}
                  </>
                )}
                {focus.phase !== null && ` · ${focus.phase}`} · <WrittenTime text={focus.ts} />
                {focus.freshness === 'stale' && ' · stale (over 4 h)'}
              </>
            ) : focus.state === 'none' ? (
              'none declared'
            ) : (
              `unknown (${focus.why})`
            )}
          </dd>
          <dt>presence</dt>
          <dd>
            {presence.state === 'quiet' ? (
              <>quiet{presence.until !== null && <> until <WrittenTime text={presence.until} /></>}</>
            ) : presence.state === 'expired' ? (
              <>was quiet until <WrittenTime text={presence.until} /></>
            ) : presence.state === 'not-quiet' ? (
              'not quiet'
            ) : (
              `unknown (${presence.why})`
            )}
          </dd>
        </dl>
      </FoldedFacts>
    </>
  );
}

/** The seat's presence in a word or two, for the folded facts' summary. */
function presenceWord(presence: SacSeatSummary['presence']): string {
  return presence.state === 'quiet' ? 'quiet' : presence.state === 'expired' ? 'was quiet' : presence.state === 'not-quiet' ? 'not quiet' : 'presence unknown';
}

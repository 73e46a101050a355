import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { MAX_PAGE_LIMIT } from '../../../shared/wire/common.ts';
import type { SpexItem, SpexSessionResponse, SpexSummary } from '../../../shared/wire/spex.ts';
import { ApiError } from '../api/client.ts';
import { DownloadLinks } from '../export/DownloadLinks.tsx';
import { Link } from '../router/Router.tsx';
import { projectPath, spexItemPath, spexSessionPath } from '../router/routes.ts';
import { conversationPath, isRecordSession, isSacSeat, otherViewsOf } from '../sessions/conversations.ts';
import { useSessions } from '../sessions/useSessions.ts';
import { CopyButton } from '../text/CopyButton.tsx';
import { countOf } from '../text/count.ts';
import { VerbatimText } from '../text/VerbatimText.tsx';
import { Time } from '../time/Time.tsx';
import { SpexItemView, columnOf } from './SpexItemView.tsx';
import { useSpexPage } from './spexApi.ts';
import { useSpexLive } from './useSpexLive.ts';
import './spex.css';

// A spex session's Sent | Received on one time axis: the `sent` lines of its own log in Received,
// the `sent` lines of other logs whose `from` is its id in Sent (each from the receiver's log),
// its declarations and the lines that are not events across both, each in its place. The header
// says what session.json holds now, labelled as current, never as history.

/** The newest items first asked for; "show earlier" asks for four times as many, up to the API's page. */
const FIRST_WINDOW = 500;

type Props = { source: string; sessionId: string; item: string | null };

export function SpexSessionView({ source, sessionId, item }: Props) {
  useSpexLive(source, sessionId);
  const [wanted, setWanted] = useState(FIRST_WINDOW);
  const page = useSpexPage(source, sessionId, wanted);
  const data = page.data;
  const scroller = useFollow(data, item);

  if (data === undefined) {
    return (
      <main className="view" aria-label={`spex session ${sessionId}`}>
        {page.error !== null ? (
          <p className="notice warn">
            {page.error instanceof ApiError && page.error.status === 404 ? (
              <>
                No spex session <code>{sessionId}</code> in this spex home ({source}).
              </>
            ) : (
              page.error.message
            )}
          </p>
        ) : (
          <p className="muted">loading…</p>
        )}
      </main>
    );
  }
  const { session, items } = data;
  const earlier = data.page.offset;
  return (
    <main className="view spex-view" aria-label={`spex session ${sessionId}`}>
      <SpexHeader data={data} />
      <SpexDegradedBanner session={session} items={items} />
      {page.error !== null && <p className="notice error">Could not fetch the session again: {page.error.message}. What is shown is what was last fetched.</p>}
      {item !== null && <ItemTarget item={item} items={items} earlier={earlier} />}
      <div className="spex-scroll" ref={scroller}>
        <div className="spex-columns">
          <span className="side-sent">Sent ({countOf(session.counts.sent, 'message')}, from the receivers' logs)</span>
          <span className="side-received">
            Received ({countOf(session.counts.received, 'message')}: {session.counts.fromPerson} from a person, {session.counts.fromPeers} from sessions or other senders)
          </span>
        </div>
        {earlier > 0 && (
          <p className="spex-earlier">
            {countOf(earlier, 'earlier item')} not shown.{' '}
            {wanted < MAX_PAGE_LIMIT ? (
              <button type="button" className="small" onClick={() => setWanted(Math.min(MAX_PAGE_LIMIT, wanted * 4))} disabled={page.isFetching}>
                show earlier
              </button>
            ) : (
              `A page shows at most ${countOf(MAX_PAGE_LIMIT, 'item')}.`
            )}
          </p>
        )}
        {items.length === 0 && <p className="notice">No line of this session's log has been read yet, and no other log names it as a sender.</p>}
        <div className="spex-rows">
          {items.map((one) => {
            const column = columnOf(one);
            return (
              <div key={one.key} className="spex-row">
                <div className={`cell cell-${column === 'both' ? 'span' : column}`} data-column={column}>
                  <SpexItemView source={source} sessionId={sessionId} item={one} selected={one.key === item} />
                </div>
              </div>
            );
          })}
        </div>
        {data.strays.length > 0 && (
          <section className="spex-strays" aria-label="Files not read">
            <h2>In the session's folder, not read as its log</h2>
            <ul>
              {data.strays.map((stray) => (
                <li key={stray.name}>
                  <code>{stray.name}</code>: {stray.why}
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    </main>
  );
}

function SpexHeader({ data }: { data: SpexSessionResponse }) {
  const { session } = data;
  const { data: list } = useSessions();
  const all = useMemo(() => list?.projects.flatMap((project) => project.sessions) ?? [], [list]);
  const others = useMemo(() => otherViewsOf(session.id, session.source.id, all), [all, session.id, session.source.id]);
  const root = list?.sources.find((listed) => listed.id === session.source.id)?.root ?? null;
  const label = session.title ?? session.name;
  return (
    <header className="session-header spex-header">
      <h1>
        spex session {label !== null ? <VerbatimText text={label} inline className="spex-title" /> : <span className="muted">(no title)</span>}
      </h1>
      <p className="session-meta">
        <code className="full-id">{session.id}</code>
        <CopyButton getText={() => session.id} label="Copy the full session id" children="Copy id" />
        {others.map((other) => (
          <span key={`${other.source.id}/${other.id}`}>
            {' · '}
            <Link to={conversationPath(other)}>{isRecordSession(other) ? 'its record session' : isSacSeat(other) ? `its set-agent-comm seat ${other.id}` : `its session in ${other.source.id}`}</Link>
          </span>
        ))}
      </p>
      <DownloadLinks path={`/api/sessions/${encodeURIComponent(session.id)}/export`} query={new URLSearchParams({ source: session.source.id })} what="this session" />
      <dl className="spex-facts">
        {session.name !== null && session.name !== label && (
          <>
            <dt>name</dt>
            <dd>
              <VerbatimText text={session.name} inline />
            </dd>
          </>
        )}
        <dt>branch</dt>
        <dd>{session.branch !== null ? <VerbatimText text={session.branch} inline /> : <span className="muted">none named</span>}</dd>
        <dt>project</dt>
        <dd>
          <Link to={projectPath(session.cwd)}>{session.project.key}</Link>
          {session.project.from === 'encoded-name' && <span className="muted"> (spex's encoded folder name: no session names its worktree path, and the name cannot be decoded)</span>}
          {session.worktreePath !== null && session.worktreePath !== session.project.key && <span className="muted"> · worktree {session.worktreePath}</span>}
        </dd>
        {session.parent !== null && (
          <>
            <dt>parent</dt>
            <dd>
              <Link to={spexSessionPath(session.source.id, session.parent)}>{session.parent}</Link>
            </dd>
          </>
        )}
        <dt>lines</dt>
        <dd>
          {session.firstAt !== null && session.lastAt !== null && (
            <>
              <Time at={session.firstAt} /> – <Time at={session.lastAt} /> ·{' '}
            </>
          )}
          {countOf(session.counts.declarations, 'declaration')} · {countOf(session.segments, 'segment')}
        </dd>
        <dt>source</dt>
        <dd>
          spex home {root ?? ''} <span className="muted">({session.source.id})</span>
        </dd>
      </dl>
      <CurrentStatus session={session} note={data.currentNote} />
    </header>
  );
}

/** What session.json says the session is now: its state now, never a declaration of its history. */
function CurrentStatus({ session, note }: { session: SpexSummary; note: string | null }) {
  const { current } = session;
  return (
    <section className="spex-now" role="group" aria-label="Status now">
      <strong>Now</strong> <span className="muted">current (session.json), not history:</span>{' '}
      {current.state === 'unknown' ? (
        <span className="warn">unknown ({current.why})</span>
      ) : (
        <>
          {current.word !== null ? <strong className="spex-word">{current.word}</strong> : <span className="muted">no status</span>}
          {current.status !== null && (
            <span className="muted">
              {' '}
              (status <VerbatimText text={current.status} inline />)
            </span>
          )}
          {current.proposal !== null && (
            <span>
              {' '}
              · proposal <VerbatimText text={current.proposal} inline />
            </span>
          )}
          {current.stopped === true && <span> · stopped</span>}
          {current.archived === true && <span> · archived</span>}
          {note !== null && <VerbatimText text={note} className="spex-now-note" />}
        </>
      )}
    </section>
  );
}

/** Every reason in the core's plain words, with the lines of the page it rests on. */
function SpexDegradedBanner({ session, items }: { session: SpexSummary; items: SpexItem[] }) {
  if (session.degraded.length === 0) return null;
  // A reason's lines are the session's own log's: a `sent` item is a line of another log.
  const ownLine = new Map(items.filter((one) => one.type !== 'sent').map((one) => [one.line, one.key]));
  return (
    <section className="banner banner-degraded" role="region" aria-label="Degraded timeline">
      <h2>This session's timeline is degraded: what it shows is incomplete</h2>
      <ul>
        {session.degraded.map((reason) => (
          <li key={reason.code} data-reason={reason.code}>
            <span>{reason.words}</span>
            {reason.lines.length > 0 && (
              <span className="reason-files">
                {' '}
                {reason.lines.length === 1 ? 'line' : 'lines'}{' '}
                {reason.lines.map((line, index) => {
                  const key = ownLine.get(line);
                  return (
                    <span key={line}>
                      {index > 0 && ', '}
                      {key !== undefined ? <Link to={spexItemPath(session.source.id, session.id, key)}>{line}</Link> : line}
                    </span>
                  );
                })}
                {reason.linesTotal > reason.lines.length && ` and ${countOf(reason.linesTotal - reason.lines.length, 'more')}`}
              </span>
            )}
            {reason.files.length > 0 && (
              <span className="reason-files">
                {' '}
                in {reason.files.map((file) => <code key={file}>{file} </code>)}
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A link to an item says plainly where the item is not among those shown. */
function ItemTarget({ item, items, earlier }: { item: string; items: SpexItem[]; earlier: number }) {
  if (items.some((one) => one.key === item)) return null;
  return (
    <p className="notice warn" role="status">
      {earlier > 0 ? (
        <>
          Item <code>{item}</code> is not among the newest {countOf(items.length, 'item')} shown: it is earlier, or not in this session.
        </>
      ) : (
        <>
          Item <code>{item}</code> is not in this session.
        </>
      )}
    </p>
  );
}

/**
 * The scroll box of the timeline: at an item when the address names one, else at the newest line,
 * following new lines while the reader is at the end, and staying put once they scroll away.
 */
function useFollow(data: SpexSessionResponse | undefined, item: string | null) {
  const box = useRef<HTMLDivElement | null>(null);
  const atEnd = useRef(true);
  const shownItem = useRef<string | null>(null);
  const count = data?.items.length ?? 0;
  const lastKey = data?.items[count - 1]?.key ?? null;
  const found = item !== null && data !== undefined && data.items.some((one) => one.key === item);

  useLayoutEffect(() => {
    const element = box.current;
    if (element === null) return;
    const onScroll = () => {
      atEnd.current = element.scrollHeight - element.scrollTop - element.clientHeight < 40;
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => element.removeEventListener('scroll', onScroll);
  }, [data !== undefined]);

  useLayoutEffect(() => {
    const element = box.current;
    if (element === null) return;
    if (found && shownItem.current !== item) {
      shownItem.current = item;
      atEnd.current = false;
      element.querySelector(`[data-item="${CSS.escape(item)}"]`)?.scrollIntoView({ block: 'center' });
      return;
    }
    if (item === null || !found) {
      if (atEnd.current) element.scrollTop = element.scrollHeight;
    }
  }, [count, lastKey, found, item]);

  return box;
}

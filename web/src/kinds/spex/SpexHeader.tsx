import type { SpexSessionResponse, SpexSummary } from '../../../../shared/wire/spex.ts';
import { apiUrls } from '../../api/urls.ts';
import { LINE_NUMBERS_WORDS } from '../../../../shared/spex/privateData.ts';
import { DegradedBanner } from '../../conversation/DegradedBanner.tsx';
import { FoldedFacts } from '../../conversation/FoldedFacts.tsx';
import { DownloadLinks } from '../../export/DownloadLinks.tsx';
import { Link } from '../../router/Router.tsx';
import { conversationPath, itemPath, projectPath } from '../../router/routes.ts';
import { useConversations } from '../../sessions/useConversations.ts';
import { CopyButton } from '../../text/CopyButton.tsx';
import { countOf } from '../../text/count.ts';
import { VerbatimText } from '../../text/VerbatimText.tsx';
import { SessionAcrossStores } from '../../session/SessionAcrossStores.tsx';
import { Time } from '../../time/Time.tsx';

// What a spex session's page says above its timeline: the session as session.json and its log
// have it, what session.json says it is now (labelled current, never history), and why its
// timeline is degraded, each reason with the lines it rests on.

export function SpexHeader({ data }: { data: SpexSessionResponse }) {
  const { session } = data;
  const { data: list } = useConversations();
  const root = list?.sources.find((listed) => listed.id === session.source.id)?.root ?? null;
  const label = session.named.title;
  return (
    <header className="session-header spex-header">
      <h1>
        spex session {label !== null ? <VerbatimText text={label} inline className="spex-title" /> : <span className="muted">(no title)</span>}
      </h1>
      <p className="session-meta">
        <code className="full-id">{session.id}</code>{' '}
        <CopyButton getText={() => session.id} label="Copy the full session id" children="Copy id" />
        <SessionAcrossStores source={session.source.id} id={session.id} />
      </p>
      <DownloadLinks {...apiUrls.conversationExport(session.source.id, session.id)} what="this session" />
      {/* Where the reader goes from here stays above the fold: the project, the parent. */}
      <p className="session-meta spex-project">
        project <Link to={projectPath(session.cwd)}>{session.project.key}</Link>
        {session.project.from === 'encoded-name' && <span className="muted"> (spex's encoded folder name: no session names its worktree path, and the name cannot be decoded)</span>}
        {session.worktreePath !== null && session.worktreePath !== session.project.key && <span className="muted"> · worktree {session.worktreePath}</span>}
        {session.parent !== null && (
          <>
            {' · '}parent <Link to={conversationPath(session.source.id, session.parent)}>{session.parent}</Link>
          </>
        )}
      </p>
      <CurrentStatus session={session} note={data.currentNote} />
      <FoldedFacts
        about="session"
        summary={
          <>
            {session.branch !== null ? <>branch <VerbatimText text={session.branch} inline /></> : 'no branch named'} · {countOf(session.counts.declarations, 'declaration')} · {countOf(session.segments, 'segment')}
          </>
        }
      >
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
          {/* Its first and last line's times and what it holds: "lines" read as a count of them. */}
          <dt>its log</dt>
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
      </FoldedFacts>
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
export function SpexDegradedBanner({ session, keyOfLine }: { session: SpexSummary; keyOfLine(line: number): string | undefined }) {
  if (session.degraded.length === 0) return null;
  return (
    <DegradedBanner label="Degraded timeline" heading="This session's timeline is degraded: what it shows is incomplete">
      {session.degraded.map((reason) => (
        <li key={reason.code} data-reason={reason.code}>
          <span>{reason.words}</span>
          {reason.lines.length > 0 && (
            <span className="reason-files" title={LINE_NUMBERS_WORDS}>
              {' '}
              Log {reason.lines.length === 1 ? 'line' : 'lines'}{' '}
              {reason.lines.map((line, index) => {
                const key = keyOfLine(line);
                return (
                  <span key={line}>
                    {index > 0 && ', '}
                    {key !== undefined ? <Link to={itemPath(session.source.id, session.id, key)}>{line}</Link> : line}
                  </span>
                );
              })}
              {reason.linesTotal > reason.lines.length && ` and ${countOf(reason.linesTotal - reason.lines.length, 'more')}`}
              {reason.files.length > 0 && ','}
            </span>
          )}
          {reason.files.length > 0 && (
            <span className="reason-files">
              {' '}
              {reason.lines.length > 0 ? 'in' : 'In'} {reason.files.map((file) => <code key={file}>{file} </code>)}
            </span>
          )}
        </li>
      ))}
    </DegradedBanner>
  );
}

import type { SessionResponse, SessionSummary } from '../../../../shared/wire/record.ts';
import { DownloadLinks } from '../../export/DownloadLinks.tsx';
import { Link } from '../../router/Router.tsx';
import { conversationPath, projectPath } from '../../router/routes.ts';
import { apiUrls } from '../../api/urls.ts';
import { CopyButton } from '../../text/CopyButton.tsx';
import { VerbatimText } from '../../text/VerbatimText.tsx';
import { Time } from '../../time/Time.tsx';
import { projectName, shortId } from '../../sessions/names.ts';
import { countOf } from '../../text/count.ts';
import { SessionAcrossStores } from '../../session/SessionAcrossStores.tsx';
import { RefusedCounts } from './RefusedCounts.tsx';

// `session.runCount` is how many runs the summary counts; `runList` is the runs themselves, from a page.
export function SessionHeader({ session, runList, children }: { session: SessionSummary; runList: SessionResponse['runs'] | null; children: SessionSummary[] }) {
  const { counts } = session;
  return (
    <header className="session-header">
      <h1>
        Session <code className="full-id">{session.sessionId}</code>
        <CopyButton getText={() => session.sessionId} label="Copy the full session id" children="Copy id" />
      </h1>
      <DownloadLinks {...apiUrls.conversationExport(session.source.id, session.sessionId)} what="this session" />
      <p className="session-meta session-stores">
        In the record
        <SessionAcrossStores source={session.source.id} id={session.sessionId} />
      </p>
      <p className="session-meta">
        <Link to={projectPath(session.cwd)} title={session.cwd ?? undefined}>
          {projectName(session.cwd)}
        </Link>
        {session.cwd !== null && <span className="muted"> {session.cwd}</span>}
        {session.cwds.length > 1 && <span className="badge badge-warn" title={session.cwds.join('\n')}>entries name {countOf(session.cwds.length, 'directory', 'directories')}</span>}
        {' · '}
        {session.firstAt !== null && session.lastAt !== null && (
          <>
            <Time at={session.firstAt} /> – <Time at={session.lastAt} />
            {' · '}
          </>
        )}
        <span>{counts.sent} sent</span> · <span>{counts.received} received</span> ·{' '}
        <RefusedCounts session={session} />
        {' · '}
        {session.coverage === 'from-start' ? (
          <span title="Coverage begins at the first start entry">
            {countOf(session.runCount, 'run')}{session.runCount > 1 ? ' (resumed)' : ''}
            {runList !== null && runList.length > 0 && ` · ${runList[runList.length - 1]!.host} ${runList[runList.length - 1]!.version}, inbound ${runList[runList.length - 1]!.inbound}`}
          </span>
        ) : (
          <strong className="coverage-unknown">coverage unknown: no start entry</strong>
        )}
      </p>
      {session.chain !== null && (
        <div className="session-chain">
          Part {String(session.chain.part)} of a chain under{' '}
          <Link to={conversationPath(session.source.id, session.chain.parent)} title={session.chain.parent}>
            {shortId(session.chain.parent)}
          </Link>
          ; brief: <VerbatimText text={session.chain.brief} inline />
        </div>
      )}
      {children.length > 0 && (
        <p className="session-chain">
          Chain children:{' '}
          {children.map((child, i) => (
            <span key={child.sessionId}>
              {i > 0 && ', '}
              <Link to={conversationPath(child.source.id, child.sessionId)} title={child.sessionId}>
                {shortId(child.sessionId)}
              </Link>{' '}
              (part {String(child.chain?.part)})
            </span>
          ))}
        </p>
      )}
    </header>
  );
}

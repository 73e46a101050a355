import type { SpexNamed } from '../../../../shared/wire/spex.ts';
import { Link } from '../../router/Router.tsx';
import { conversationPath } from '../../router/routes.ts';
import { VerbatimText } from '../../text/VerbatimText.tsx';

/**
 * A session of this spex home as its users know it: its whole id, linking to its page, with the
 * title and branch its session.json gives beside it (the server's `named`, never derived here).
 */
export function SpexSessionRef({ source, sessionId, named, title }: { source: string; sessionId: string; named: SpexNamed; title?: string }) {
  return (
    <span className="spex-session-ref">
      <Link to={conversationPath(source, sessionId)} className="peer-as" title={title}>
        {sessionId}
      </Link>
      {named.title !== null && (
        <>
          {' '}
          <VerbatimText text={named.title} inline className="spex-title" />
        </>
      )}
      {named.branch !== null && (
        <>
          {' '}
          <span className="muted spex-branch" title="Its branch, as session.json names it">
            <VerbatimText text={named.branch} inline />
          </span>
        </>
      )}
    </span>
  );
}

/** A session's name in one line, where only text fits (a hover, an aria-label). */
export function describeNamed(sessionId: string, named: SpexNamed): string {
  return [sessionId, named.title, named.branch].filter((part) => part !== null).join(' · ');
}

import { useEffect } from 'react';
import type { SourceRef } from '../../../shared/wire/common.ts';
import { useStores } from '../events/EventStream.tsx';
import { useConversations } from '../sessions/useConversations.ts';
import { Link, useRouter } from './Router.tsx';
import { parseRoute, type Route } from './routes.ts';

// Addresses of older versions, which links, bookmarks and the server's own notices still carry,
// each replaced in the history (not pushed) by today's: the record's `/session/<id>[/entry/<file>]`,
// spex's `/spex/<source>/session/<id>[/item/<key>]` and set-agent-comm's
// `/sac/<source>/{rooms,room/<room>[/entry/<item>],seat/<seat>}`. Kept in this one module: a
// record session's old address names no store, and will become the page of one session across
// every store.

type LegacyRoute = { to: string } | { recordSession: string; file: string | null; query: string };

const RECORD = /^\/session\/([^/]+)(?:\/entry\/([^/]+))?\/?$/;
const SPEX = /^\/spex\/(spex-[0-9a-f]{8})\/session\/([^/]+)(?:\/item\/([^/]+))?\/?$/;
const SAC = /^\/sac\/(sac-[0-9a-f]{8})\/(rooms|room|seat)(?:\/([^/]+)(?:\/entry\/([^/]+))?)?\/?$/;

/** Today's address for an old one, or what is needed to make it; null when the path is no old address. */
function parseLegacyRoute(pathname: string, search: string): LegacyRoute | null {
  const query = search.startsWith('?') ? search : search === '' ? '' : `?${search}`;
  const record = RECORD.exec(pathname);
  if (record !== null) return { recordSession: record[1]!, file: record[2] ?? null, query };
  const spex = SPEX.exec(pathname);
  if (spex !== null) return { to: `/source/${spex[1]}/conversation/${spex[2]}${spex[3] === undefined ? '' : `/item/${spex[3]}`}${query}` };
  const sac = SAC.exec(pathname);
  if (sac === null) return null;
  const [, source, what, name, entry] = sac;
  if (what === 'rooms' && name === undefined) return { to: `/source/${source}/rooms` };
  if (what === 'room' && name !== undefined) return { to: `/source/${source}/rooms/${name}${entry === undefined ? '' : `/item/${entry}`}` };
  if (what === 'seat' && name !== undefined && entry === undefined) return { to: `/source/${source}/conversation/${name}` };
  return null;
}

/** The route an old address is replaced by (a record session's: in a record not known yet); null when it is none. */
export function movedRoute(path: string): Route | null {
  const url = new URL(path, window.location.origin);
  const legacy = parseLegacyRoute(url.pathname, url.search);
  if (legacy === null) return null;
  if ('to' in legacy) {
    const to = new URL(legacy.to, window.location.origin);
    return parseRoute(to.pathname, to.search);
  }
  return { view: 'conversation', kind: 'record', source: '', id: legacy.recordSession, item: legacy.file, query: legacy.query.replace(/^\?/, '') };
}

/**
 * What an address no view has shows: today's address for an old one, put in its place once the
 * record it names (the first one read) is known; else that there is nothing there.
 */
export function NotFoundOrMoved({ path }: { path: string }) {
  const url = new URL(path, window.location.origin);
  const legacy = parseLegacyRoute(url.pathname, url.search);
  if (legacy === null) {
    return (
      <main className="view">
        <p className="notice">
          Nothing at <code>{url.pathname}</code>: no page of this dashboard has that address. <Link to="/">The overview</Link> lists every
          session of every store read here.
        </p>
      </main>
    );
  }
  return <LegacyRedirect legacy={legacy} />;
}

function LegacyRedirect({ legacy }: { legacy: LegacyRoute }) {
  const { navigate } = useRouter();
  const record = useFirstRecord();
  const to = 'to' in legacy ? legacy.to : record === null || record === undefined ? null : `/source/${record.id}/conversation/${legacy.recordSession}${legacy.file === null ? '' : `/item/${legacy.file}`}${legacy.query}`;
  useEffect(() => {
    if (to !== null) navigate(to, { replace: true });
  }, [to, navigate]);
  const none = !('to' in legacy) && record === undefined;
  return <main className="view">{none ? <p className="notice warn">This address names a session of the record, and no record is read here.</p> : <p className="muted">loading…</p>}</main>;
}

/** The first record the server reads: null while the stores are not known yet, undefined when none is a record. */
function useFirstRecord(): SourceRef | null | undefined {
  const told = useStores().sources;
  const { data } = useConversations();
  const sources = told ?? data?.sources ?? null;
  if (sources === null) return null;
  return sources.find((source) => source.kind === 'record');
}

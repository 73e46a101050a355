// Every view has its own URL, so a view can be shared and the back button works. The paths are
// built and read only here (a conversation's and an item's with shared/wire/paths.ts, the form the
// server writes in a live item's link). A store and a conversation are named the same way for every kind:
// `/source/<sourceId>/conversation/<id>[/item/<key>]`, and a view only one kind has (a
// set-agent-comm store's rooms) `/source/<sourceId>/<view>[/<key>[/item/<key>]]`. A source's id
// names its kind (`<kind>-<8 hex digits>`, as the wire's sourceRefSchema writes it).

import { conversationAddress, itemAddress, sourceViewAddress } from '../../../shared/wire/paths.ts';

export type Route =
  | { view: 'home' }
  /** cwd null: conversations that name no directory. */
  | { view: 'project'; cwd: string | null }
  | { view: 'search'; query: string }
  /** Every new item of every source as it lands; the filters are in the query. */
  | { view: 'live'; query: string }
  /** Who talks to whom; the window, the stores and the edge shown are in the query. */
  | { view: 'map'; query: string }
  /** A conversation of a store, opened at one item when `item` is given; `query`: its kind's own (a filter). */
  | { view: 'conversation'; kind: string; source: string; id: string; item: string | null; query: string }
  /** A view only its kind has, of the whole store or of one `subject` of it (a room), opened at one item; `query`: its own (a filter). */
  | { view: 'source-view'; kind: string; source: string; name: string; subject: string | null; item: string | null; query: string }
  /**
   * One Claude Code session across the stores, by its full id, opened at one of its items when
   * `item` is given (`<source>/<conversation>/<its name there>`); its filters (store, side, peer) are in the query.
   */
  | { view: 'session'; session: string; item: string | null; query: string }
  | { view: 'not-found'; path: string };

// `/sessions/`: the record's older `/session/<id>` still opens its record session (router/legacyRoutes.tsx).
// An item's key holds slashes (`<store>/<conversation>/<name>`): written encoded, and read as written too.
const SESSION_PATH = /^\/sessions\/([^/]+)(?:\/item\/(.+?))?\/?$/;
const SOURCE_PATH = /^\/source\/([a-z]+)-([0-9a-f]{8})\/([a-z]+)(?:\/([^/]+))?(?:\/item\/([^/]+))?\/?$/;

export function parseRoute(pathname: string, search: string): Route {
  const params = new URLSearchParams(search);
  if (pathname === '/' || pathname === '') return { view: 'home' };
  if (pathname === '/project') return { view: 'project', cwd: params.get('cwd') };
  if (pathname === '/search') return { view: 'search', query: params.toString() };
  if (pathname === '/live') return { view: 'live', query: params.toString() };
  if (pathname === '/map') return { view: 'map', query: params.toString() };
  const session = SESSION_PATH.exec(pathname);
  if (session !== null) {
    try {
      return { view: 'session', session: decodeURIComponent(session[1]!), item: session[2] === undefined ? null : decodeURIComponent(session[2]), query: params.toString() };
    } catch {
      return { view: 'not-found', path: pathname };
    }
  }
  const match = SOURCE_PATH.exec(pathname);
  if (match !== null) {
    const [, kind, digits, name, key, item] = match as unknown as [string, string, string, string, string | undefined, string | undefined];
    try {
      const source = `${kind}-${digits}`;
      const subject = key === undefined ? null : decodeURIComponent(key);
      const at = item === undefined ? null : decodeURIComponent(item);
      if (name === 'conversation') return subject === null ? { view: 'not-found', path: pathname } : { view: 'conversation', kind, source, id: subject, item: at, query: params.toString() };
      if (subject !== null || at === null) return { view: 'source-view', kind, source, name, subject, item: at, query: params.toString() };
    } catch {
      // A malformed escape names nothing.
    }
    return { view: 'not-found', path: pathname };
  }
  // Older addresses are not-found here: router/legacyRoutes.tsx replaces them with today's.
  return { view: 'not-found', path: pathname };
}

/** `query`: the view's own query (a conversation's filter), without its `?`; '' for none. */
function withQuery(path: string, query: URLSearchParams | string): string {
  const text = query.toString();
  return text === '' ? path : `${path}?${text}`;
}

export function conversationPath(source: string, id: string, query: URLSearchParams | string = ''): string {
  return withQuery(conversationAddress(source, id), query);
}

export function itemPath(source: string, id: string, key: string, query: URLSearchParams | string = ''): string {
  return withQuery(itemAddress(source, id, key), query);
}

/** A view only one kind has: of the whole store, of one `subject` of it, or opened at one of its items; `query`: its own. */
export function sourceViewPath(source: string, name: string, subject: string | null = null, item: string | null = null, query: URLSearchParams | string = ''): string {
  return withQuery(sourceViewAddress(source, name, subject, item), query);
}

/** One Claude Code session across the stores, by the full id they state; opened at `item` when given. */
export function sessionPath(session: string, query: URLSearchParams | string = '', item: string | null = null): string {
  return withQuery(`/sessions/${encodeURIComponent(session)}${item === null ? '' : `/item/${encodeURIComponent(item)}`}`, query);
}

export function projectPath(cwd: string | null): string {
  return cwd === null ? '/project' : `/project?${new URLSearchParams({ cwd })}`;
}

export function searchPath(query: URLSearchParams | string): string {
  return withQuery('/search', query);
}

export function livePath(query: URLSearchParams | string): string {
  return withQuery('/live', query);
}

export function mapPath(query: URLSearchParams | string): string {
  return withQuery('/map', query);
}

// Every address of the server's API, built here and nowhere else, so that moving to other routes
// is a change to this file. They are the routes the server answers today: a conversation by its
// id with the store it is in (`/api/sessions/:id?source=`), and a kind's own views under
// `/api/<kind>/<view>` (set-agent-comm's rooms).

type Query = URLSearchParams | Record<string, string>;

function withQuery(path: string, query: Query): string {
  const text = new URLSearchParams(query).toString();
  return text === '' ? path : `${path}?${text}`;
}

function conversationPath(id: string): string {
  return `/api/sessions/${encodeURIComponent(id)}`;
}

export const apiUrls = {
  /** Every conversation of every store, grouped by project, with the stores' states; given the version held, only what changed since. */
  conversations: (since?: string) => (since === undefined ? '/api/sessions' : withQuery('/api/sessions', { since })),
  /** The server's notices, as server-sent events. */
  events: () => '/api/events',
  /** A page of a conversation; `query` is the kind's own (offset, limit, filters, others). */
  conversation: (source: string, id: string, query: Query = {}) => withQuery(conversationPath(id), { ...Object.fromEntries(new URLSearchParams(query)), source }),
  /** One item of a conversation, whole. */
  item: (source: string, id: string, key: string) => withQuery(`${conversationPath(id)}/items/${encodeURIComponent(key)}`, { source }),
  /** A conversation's items per minute and messages per peer. */
  activity: (source: string, id: string, filter: URLSearchParams) => withQuery(`${conversationPath(id)}/activity`, { ...Object.fromEntries(filter), source }),
  /** A conversation's export: the path, and what its query needs besides the format. */
  conversationExport: (source: string, id: string) => ({ path: `${conversationPath(id)}/export`, query: new URLSearchParams({ source }) }),
  /** A view only one kind of store has (`kind`'s `view`), of all of it or of one `key`. */
  view: (kind: string, source: string, view: string, key: string | null, query: Query = {}) =>
    withQuery(`/api/${encodeURIComponent(kind)}/${encodeURIComponent(view)}${key === null ? '' : `/${encodeURIComponent(key)}`}`, { ...Object.fromEntries(new URLSearchParams(query)), source }),
  /** One of a view whole (a room's flow), as an export: the path, and what its query needs besides the format. */
  viewExport: (source: string, view: string, key: string) => ({ path: `/api/sources/${encodeURIComponent(source)}/views/${encodeURIComponent(view)}/${encodeURIComponent(key)}/export`, query: new URLSearchParams() }),
  /** Every Claude Code session across the stores, joined by the server on the full id each store states. */
  joinedSessions: () => '/api/joined-sessions',
  /** The session a store's conversation is, and that session's conversations in every store. */
  conversationSession: (source: string, id: string) => `/api/sources/${encodeURIComponent(source)}/conversations/${encodeURIComponent(id)}/session`,
  /** One session's items from every store that holds it. */
  joinedSession: (session: string, limit: number) => `/api/joined-sessions/${encodeURIComponent(session)}?limit=${limit}`,
  /** One session's export, of every store's items. */
  joinedSessionExport: (session: string) => `/api/joined-sessions/${encodeURIComponent(session)}/export`,
  search: (params: URLSearchParams) => withQuery('/api/search', params),
  /** Who talks to whom, within a window, of the stores named. */
  map: (query: Query) => withQuery('/api/map', query),
  /** One edge of the map: its messages. */
  mapMessages: (query: Query) => withQuery('/api/map/messages', query),
  searchExport: () => '/api/search/export',
};

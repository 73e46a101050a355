// Every view has its own URL, so a view can be shared and the back button works. The paths are
// built and read only here.

export type Route =
  | { view: 'home' }
  /** cwd null: sessions whose entries name no directory. */
  | { view: 'project'; cwd: string | null }
  | { view: 'session'; sessionId: string; file: string | null }
  | { view: 'search'; query: string }
  /** Every new item of every source as it lands; the filters are in the query. */
  | { view: 'live'; query: string }
  /** A set-agent-comm store's rooms, one room's flow, a seat's Sent | Received. */
  | { view: 'sac-rooms'; source: string }
  /** `entry`: an item of the flow to open at, highlighted (`channels/<room>/<seat>.md:<offset>`). */
  | { view: 'sac-room'; source: string; room: string; entry: string | null }
  | { view: 'sac-seat'; source: string; seat: string }
  /** A spex session's Sent | Received, at one item when `item` is given. */
  | { view: 'spex-session'; source: string; sessionId: string; item: string | null }
  | { view: 'not-found'; path: string };

export function parseRoute(pathname: string, search: string): Route {
  const params = new URLSearchParams(search);
  if (pathname === '/' || pathname === '') return { view: 'home' };
  if (pathname === '/project') return { view: 'project', cwd: params.get('cwd') };
  if (pathname === '/search') return { view: 'search', query: params.toString() };
  if (pathname === '/live') return { view: 'live', query: params.toString() };
  const sac = /^\/sac\/([a-z]+-[0-9a-f]{8})\/(rooms|room|seat)(?:\/([^/]+)(?:\/entry\/([^/]+))?)?\/?$/.exec(pathname);
  if (sac !== null) {
    try {
      const source = sac[1]!;
      const name = sac[3] === undefined ? null : decodeURIComponent(sac[3]);
      const entry = sac[4] === undefined ? null : decodeURIComponent(sac[4]);
      if (sac[2] === 'rooms' && name === null) return { view: 'sac-rooms', source };
      if (sac[2] === 'room' && name !== null) return { view: 'sac-room', source, room: name, entry };
      if (sac[2] === 'seat' && name !== null && entry === null) return { view: 'sac-seat', source, seat: name };
    } catch {
      // A malformed escape names nothing.
    }
    return { view: 'not-found', path: pathname };
  }
  const spex = /^\/spex\/(spex-[0-9a-f]{8})\/session\/([^/]+)(?:\/item\/([^/]+))?\/?$/.exec(pathname);
  if (spex !== null) {
    try {
      return { view: 'spex-session', source: spex[1]!, sessionId: decodeURIComponent(spex[2]!), item: spex[3] === undefined ? null : decodeURIComponent(spex[3]) };
    } catch {
      return { view: 'not-found', path: pathname };
    }
  }
  const session = /^\/session\/([^/]+)(?:\/entry\/([^/]+))?\/?$/.exec(pathname);
  if (session !== null) {
    try {
      return {
        view: 'session',
        sessionId: decodeURIComponent(session[1]!),
        file: session[2] !== undefined ? decodeURIComponent(session[2]) : null,
      };
    } catch {
      return { view: 'not-found', path: pathname };
    }
  }
  return { view: 'not-found', path: pathname };
}

export function projectPath(cwd: string | null): string {
  return cwd === null ? '/project' : `/project?${new URLSearchParams({ cwd })}`;
}

export function sessionPath(sessionId: string): string {
  return `/session/${encodeURIComponent(sessionId)}`;
}

export function entryPath(sessionId: string, file: string): string {
  return `${sessionPath(sessionId)}/entry/${encodeURIComponent(file)}`;
}

export function searchPath(query: URLSearchParams | string): string {
  const text = query.toString();
  return text === '' ? '/search' : `/search?${text}`;
}

export function livePath(query: URLSearchParams | string): string {
  const text = query.toString();
  return text === '' ? '/live' : `/live?${text}`;
}

export function sacRoomsPath(source: string): string {
  return `/sac/${source}/rooms`;
}

export function sacRoomPath(source: string, room: string): string {
  return `/sac/${source}/room/${encodeURIComponent(room)}`;
}

/** A room's flow opened at one of its entries, highlighted. */
export function sacRoomEntryPath(source: string, room: string, item: string): string {
  return `${sacRoomPath(source, room)}/entry/${encodeURIComponent(item)}`;
}

export function sacSeatPath(source: string, seat: string): string {
  return `/sac/${source}/seat/${encodeURIComponent(seat)}`;
}

export function spexSessionPath(source: string, sessionId: string): string {
  return `/spex/${source}/session/${encodeURIComponent(sessionId)}`;
}

export function spexItemPath(source: string, sessionId: string, item: string): string {
  return `${spexSessionPath(source, sessionId)}/item/${encodeURIComponent(item)}`;
}

// Every view has its own URL, so a view can be shared and the back button works. The paths are
// built and read only here.

export type Route =
  | { view: 'home' }
  /** cwd null: sessions whose entries name no directory. */
  | { view: 'project'; cwd: string | null }
  | { view: 'session'; sessionId: string; file: string | null }
  | { view: 'search'; query: string }
  | { view: 'not-found'; path: string };

export function parseRoute(pathname: string, search: string): Route {
  const params = new URLSearchParams(search);
  if (pathname === '/' || pathname === '') return { view: 'home' };
  if (pathname === '/project') return { view: 'project', cwd: params.get('cwd') };
  if (pathname === '/search') return { view: 'search', query: params.toString() };
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

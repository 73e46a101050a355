import { createContext, useCallback, useContext, useEffect, useMemo, useState, type AnchorHTMLAttributes, type MouseEvent, type ReactNode } from 'react';
import { parseRoute, type Route } from './routes.ts';

// A small History API router: the app has four kinds of view and needs no more than this.

/** `state`: kept with a new entry (not with one replaced, which keeps its own), for a view to know its own steps by. */
type Navigate = (to: string, options?: { replace?: boolean; state?: unknown }) => void;
type RouterValue = { route: Route; path: string; navigate: Navigate };

const RouterContext = createContext<RouterValue | null>(null);

function currentPath(): string {
  return window.location.pathname + window.location.search;
}

export function RouterProvider({ children }: { children: ReactNode }) {
  const [path, setPath] = useState(currentPath);
  useEffect(() => {
    const onPop = () => setPath(currentPath());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const navigate = useCallback<Navigate>((to, options) => {
    if (to === currentPath()) return;
    // The entry stays the same one: what a view kept with it (the live view's place) stays too.
    if (options?.replace) window.history.replaceState(window.history.state, '', to);
    else window.history.pushState(options?.state ?? null, '', to);
    setPath(currentPath());
  }, []);
  const value = useMemo(() => {
    const url = new URL(path, window.location.origin);
    return { route: parseRoute(url.pathname, url.search), path, navigate };
  }, [path, navigate]);
  return <RouterContext value={value}>{children}</RouterContext>;
}

export function useRouter(): RouterValue {
  const value = useContext(RouterContext);
  if (value === null) throw new Error('useRouter outside RouterProvider');
  return value;
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string; replace?: boolean };

/** An ordinary link (open in a new tab works) that navigates in place on a plain click. */
export function Link({ to, replace, onClick, ...rest }: LinkProps) {
  const { navigate } = useRouter();
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to, replace ? { replace } : undefined);
  };
  return <a href={to} onClick={handle} {...rest} />;
}

import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { movedRoute } from '../router/legacyRoutes.tsx';
import { useRouter } from '../router/Router.tsx';

// When the app opens on a conversation, its rows come first: what it would otherwise ask for at
// the same time waits until they are shown, so the two do not queue behind each other at the
// server (one main thread) and in the browser. Waiting so: the list of every session (megabytes
// at 10,000 sessions) and a record session's activity (a megabyte and more at 100,000 entries).

/** If the view has not said so by then (a slow or failing conversation), what waits comes anyway. */
const FIRST_ROWS_WAIT_MS = 1_500;

type FirstRows = { shown: boolean; tell(): void };

const FirstRowsContext = createContext<FirstRows>({ shown: true, tell: () => {} });

export function FirstRowsProvider({ children }: { children: ReactNode }) {
  const { route } = useRouter();
  // An old address of a conversation opens its conversation: it waits for its rows as well.
  const opensConversation = route.view === 'conversation' || (route.view === 'not-found' && movedRoute(route.path)?.view === 'conversation');
  const [shown, setShown] = useState(!opensConversation);
  const tell = useCallback(() => setShown(true), []);
  useEffect(() => {
    if (shown) return;
    const timer = window.setTimeout(tell, FIRST_ROWS_WAIT_MS);
    return () => window.clearTimeout(timer);
  }, [shown, tell]);
  // Any other view asks at once.
  if (!shown && !opensConversation) setShown(true);
  const value = useMemo(() => ({ shown, tell }), [shown, tell]);
  return <FirstRowsContext value={value}>{children}</FirstRowsContext>;
}

/** Whether what waits for the first rows of the conversation the app opened on may be asked for now. */
export function useFirstRowsShown(): boolean {
  return useContext(FirstRowsContext).shown;
}

/** A conversation's view calls this once its first rows are shown. */
export function useTellFirstRowsShown(): () => void {
  return useContext(FirstRowsContext).tell;
}

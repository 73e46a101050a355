import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { movedRoute } from '../router/legacyRoutes.tsx';
import { useRouter } from '../router/Router.tsx';

// The list of every session is megabytes at 10,000 sessions. When the app opens on a conversation,
// its rows come first: the list is asked for once the first rows are in, so the two do not
// queue behind each other at the server and on the main thread.

/** If the view has not said so by then (a slow or failing conversation), the list comes anyway. */
const LIST_WAIT_MS = 1_500;

type ListDemand = { wanted: boolean; want(): void };

const ListDemandContext = createContext<ListDemand>({ wanted: true, want: () => {} });

export function ListDemandProvider({ children }: { children: ReactNode }) {
  const { route } = useRouter();
  // An old address of a conversation opens its conversation: the list waits for its rows as well.
  const opensConversation = route.view === 'conversation' || (route.view === 'not-found' && movedRoute(route.path)?.view === 'conversation');
  const [wanted, setWanted] = useState(!opensConversation);
  const want = useCallback(() => setWanted(true), []);
  useEffect(() => {
    if (wanted) return;
    const timer = window.setTimeout(want, LIST_WAIT_MS);
    return () => window.clearTimeout(timer);
  }, [wanted, want]);
  // Any other view needs the list at once.
  if (!wanted && !opensConversation) setWanted(true);
  const value = useMemo(() => ({ wanted, want }), [wanted, want]);
  return <ListDemandContext value={value}>{children}</ListDemandContext>;
}

export function useListWanted(): boolean {
  return useContext(ListDemandContext).wanted;
}

/** A conversation's view calls this once its first rows are shown. */
export function useWantList(): () => void {
  return useContext(ListDemandContext).want;
}

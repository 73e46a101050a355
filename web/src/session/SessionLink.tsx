import type { ReactNode } from 'react';
import { Link } from '../router/Router.tsx';
import { sessionPath } from '../router/routes.ts';

/**
 * A link to a session's page across the stores, by the full id the server said the store states
 * (a live notice's, a hit's, a conversation's); nothing where it said none.
 */
export function SessionLink({ session, children = 'all its stores' }: { session: string | null; children?: ReactNode }) {
  if (session === null) return null;
  return (
    <Link to={sessionPath(session)} className="session-link" aria-label={`Session ${session} across the stores`} title={`Session ${session} across the stores`}>
      {children}
    </Link>
  );
}

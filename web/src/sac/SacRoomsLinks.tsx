import type { SessionsResponse } from '../../../shared/wire/conversations.ts';
import { Link, useRouter } from '../router/Router.tsx';
import { sacRoomsPath } from '../router/routes.ts';

/**
 * The way to a set-agent-comm store's rooms, one link per store read: seats are in the list of
 * sessions, rooms are not conversations and have no place there. Several stores are told apart by
 * their folder's name.
 */
export function SacRoomsLinks({ sources }: { sources: SessionsResponse['sources'] | undefined }) {
  const { route } = useRouter();
  const stores = (sources ?? []).filter((source) => source.kind === 'sac');
  return stores.map((store) => {
    const open = (route.view === 'sac-rooms' || route.view === 'sac-room' || route.view === 'sac-seat') && route.source === store.id;
    return (
      <Link
        key={store.id}
        to={sacRoomsPath(store.id)}
        className="button"
        aria-current={open ? 'page' : undefined}
        title={`The rooms of the set-agent-comm store ${store.root}`}
      >
        {stores.length === 1 ? 'Rooms' : `Rooms: ${folderName(store.root)}`}
      </Link>
    );
  });
}

function folderName(root: string): string {
  return root.replace(/[/\\]+$/, '').split(/[/\\]/).at(-1) || root;
}

import type { SourceStatus } from '../../../shared/wire/common.ts';
import type { SessionsResponse } from '../../../shared/wire/conversations.ts';
import { useConnection, useStores } from '../events/EventStream.tsx';
import { kindNamed } from '../kinds/registry.ts';
import { countOf } from '../text/count.ts';
import { capitalize } from '../../../shared/words.ts';

// What the reader must know before trusting the screen: the server is gone, or a store is missing,
// unreadable, or still being read for the first time. Each store has its own banner, naming it in
// its kind's words: a missing spex home never reads as a missing record.

export function StatusBanners({ sessions }: { sessions: SessionsResponse | undefined }) {
  const { connection } = useConnection();
  const { statuses } = useStores();
  // A status the stream told is newer than the list's; a store the list has not yet is told anyway.
  const listed = sessions?.sources ?? [];
  const stores: SourceStatus[] = [...listed.map((source) => statuses.get(source.id) ?? source), ...[...statuses.values()].filter((told) => !listed.some((source) => source.id === told.id))];
  return (
    <>
      {connection === 'lost' && (
        <div className="banner banner-lost" role="alert">
          Lost the connection to the rec-dashboard server. Reconnecting…; what is shown may be out of date, and everything is fetched again when it is back.
        </div>
      )}
      {stores.map((store) => (
        <StoreBanner key={store.id} store={store} />
      ))}
    </>
  );
}

function StoreBanner({ store }: { store: SourceStatus }) {
  const words = kindNamed(store.kind)?.storeWords ?? `the ${store.kind} store`;
  const named = `${capitalize(words)} ${store.root}`;
  if (store.state === 'missing') {
    return (
      <div className="banner banner-warn" role="status" data-source={store.id}>
        {named} does not exist (yet). Waiting for it{store.why !== null ? `: ${store.why}` : ''}.
      </div>
    );
  }
  if (store.state === 'unreadable') {
    return (
      <div className="banner banner-lost" role="alert" data-source={store.id}>
        {named} cannot be read{store.why !== null ? `: ${store.why}` : ''}. Nothing below can be trusted as complete.
      </div>
    );
  }
  if (store.indexing.state !== 'scanning') return null;
  return (
    <div className="banner banner-info" role="status" data-source={store.id}>
      Reading {words} {store.root} for the first time: {countOf(store.indexing.files, 'file')} so far. Conversations appear as they are read.
      <progress aria-label={`Indexing progress of ${words}`} />
    </div>
  );
}

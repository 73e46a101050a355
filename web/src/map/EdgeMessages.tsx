import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { edgeMessagesResponseSchema, type MapResponse } from '../../../shared/wire/map.ts';
import { getJson } from '../api/client.ts';
import { queryKeys } from '../api/queryKeys.ts';
import { apiUrls } from '../api/urls.ts';
import { kindNamed } from '../kinds/registry.ts';
import { Link } from '../router/Router.tsx';
import { itemPath } from '../router/routes.ts';
import { VerbatimText } from '../text/VerbatimText.tsx';
import { Time } from '../time/Time.tsx';
import { nameEdge, nameEnd } from './mapWords.ts';

// One edge's messages, newest first: each an item of a conversation of its store, linked into
// that store's page at that item, with the side that states it and its text's first line as its
// store gives it (or why it gives none). The whole text is on the item's page.

type Props = { map: MapResponse; from: string; to: string; query: Record<string, string>; onClose(): void };

export function EdgeMessages({ map, from, to, query, onClose }: Props) {
  const edge = map.edges.find((one) => one.from === from && one.to === to);
  const params = { ...query, from, to };
  // Fetched again whenever the edge's count changes.
  const tally = edge?.counts.map((count) => `${count.source.id}:${count.seenFrom}:${count.messages}`).join(',') ?? '';
  const messages = useQuery({
    queryKey: queryKeys.mapMessages(`${new URLSearchParams(params).toString()}#${tally}`),
    queryFn: ({ signal }) => getJson(apiUrls.mapMessages(params), edgeMessagesResponseSchema, { signal }),
  });
  const nodes = new Map(map.nodes.map((node) => [node.key, node]));
  // An edge opened is brought into view: under a long list (a narrow view) it was opened out of
  // sight. Again once its messages come, which grow it downward: from its heading, as much of it
  // as the view holds (brought in as it opened, only its heading showed, at the view's foot).
  // Once each: a new message on the edge fetches its list again, and must not move the reader.
  const panel = useRef<HTMLElement>(null);
  const broughtIn = useRef<string | null>(null);
  const edgeKey = `${from}\n${to}`;
  const listed = messages.data !== undefined;
  useEffect(() => {
    const element = panel.current;
    const step = listed ? `${edgeKey}\nlisted` : edgeKey;
    if (element === null || broughtIn.current === step || broughtIn.current === `${edgeKey}\nlisted`) return;
    broughtIn.current = step;
    const scroller = element.closest('.view') ?? document.documentElement;
    element.scrollIntoView({ block: element.getBoundingClientRect().height > scroller.clientHeight ? 'start' : 'nearest' });
  }, [edgeKey, listed]);
  return (
    <aside ref={panel} className="map-edge-panel" aria-label="Messages of the edge">
      <header>
        <h2>{edge === undefined ? `${nameEnd(from, nodes)} → ${nameEnd(to, nodes)}: no message in this window` : nameEdge(edge, nodes)}</h2>
        <button type="button" onClick={onClose} aria-label="Close the list of messages">
          ×
        </button>
      </header>
      {messages.isError && <p className="notice warn">{messages.error.message}</p>}
      {messages.data !== undefined && (
        <>
          <p className="muted">
            {messages.data.total > messages.data.messages.length ? `The newest ${messages.data.messages.length.toLocaleString('en')} listed` : 'Every one listed, newest first'}, each as one store states it: the counts above are each
            store’s own, never added together.
          </p>
          <ol className="map-messages">
            {messages.data.messages.map((message) => (
              <li key={`${message.source.id}\n${message.conversation}\n${message.key}\n${message.seenFrom}`}>
                <Link to={itemPath(message.source.id, message.conversation, message.key)}>
                  {message.at === null ? <span className="muted">no time</span> : <Time at={message.at} />} · {kindNamed(message.source.kind)?.name ?? message.source.kind},{' '}
                  {message.seenFrom === 'sender' ? 'as its sender wrote it' : 'as its receiver wrote it'} in <code>{message.conversation}</code>
                </Link>
                {message.refused === 'not-queued' && <span className="map-refused"> not queued</span>}
                {message.refused === 'rejected' && <span className="map-refused"> rejected</span>}
                {message.broadcast && <span className="muted"> to everyone in the room</span>}
                <span className="map-message-line">{message.firstLine !== null ? <VerbatimText text={message.firstLine} inline /> : <span className="muted">{message.noFirstLine}</span>}</span>
              </li>
            ))}
          </ol>
        </>
      )}
    </aside>
  );
}

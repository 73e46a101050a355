import { apiUrls } from '../api/urls.ts';

// One event stream for every tab of a dashboard. A browser keeps at most six connections to one
// host, and an event stream holds one for as long as it is open: with a stream per tab, the
// seventh tab of a dashboard never loads. So the tab that holds a lock (Web Locks) opens the one
// EventSource and passes what it says to the others over a BroadcastChannel; when it closes, the
// lock passes to another tab, which opens the stream again. A tab that joins asks for what is
// state rather than history (whether the stream is open, its hello, each store's last status);
// nothing else is replayed, as the server replays nothing after a break either. A tab that takes
// the stream over asks who listens, so that a lone tab relays nothing.

export type StreamMessage = { type: 'open' } | { type: 'lost'; since: number } | { type: 'data'; data: string };

/**
 * `ask`: a tab joined, and asks for the state; `holding`: a tab took the stream over, and asks who
 * listens; `listening`: a tab that does, in reply.
 */
type ChannelMessage = { type: 'relay'; message: StreamMessage } | { type: 'ask' } | { type: 'state'; messages: StreamMessage[] } | { type: 'holding' } | { type: 'listening' };

const LOCK = 'rec-dashboard.events';
const CHANNEL = 'rec-dashboard.events';
/** EventSource retries by itself while the server answers; once it gives up, we start again. */
const RECONNECT_MS = 1_000;

/** Starts receiving the dashboard's notices; returns what stops it. */
export function openSharedStream(onMessage: (message: StreamMessage) => void): () => void {
  if (typeof BroadcastChannel === 'undefined' || navigator.locks === undefined) return openStream(onMessage, () => {});
  const channel = new BroadcastChannel(CHANNEL);
  const stopped = new AbortController();
  let closeStream: (() => void) | null = null;
  // What a tab that joins is told, kept by the tab that holds the stream.
  let connection: StreamMessage | null = null;
  let hello: StreamMessage | null = null;
  const statuses = new Map<string, StreamMessage>();
  // Whether another tab of the dashboard listens: a notice is relayed only then. Copying each
  // notice to a channel nobody reads was a tenth of a lone tab's work while a store was indexed.
  let othersListen = false;

  // The server writes each notice's type first: only a hello's and a store's status are read here.
  const keep = (message: StreamMessage) => {
    if (message.type !== 'data') connection = message;
    else if (message.data.startsWith('{"type":"hello"')) {
      hello = message;
      statuses.clear();
    } else if (message.data.startsWith('{"type":"source"')) {
      const id = (JSON.parse(message.data) as { source?: { id?: unknown } }).source?.id;
      if (typeof id === 'string') statuses.set(id, message);
    }
  };
  channel.onmessage = (event: MessageEvent<ChannelMessage>) => {
    const message = event.data;
    if (message.type === 'relay') onMessage(message.message);
    else if (message.type === 'state') message.messages.forEach(onMessage);
    else if (message.type === 'holding') channel.postMessage({ type: 'listening' } satisfies ChannelMessage);
    else if (message.type === 'listening') othersListen = true;
    else if (message.type === 'ask') {
      othersListen = true;
      if (closeStream === null) return;
      const state = [connection, hello, ...statuses.values()].filter((one): one is StreamMessage => one !== null);
      channel.postMessage({ type: 'state', messages: state } satisfies ChannelMessage);
    }
  };
  channel.postMessage({ type: 'ask' } satisfies ChannelMessage);

  navigator.locks
    .request(LOCK, { signal: stopped.signal }, async () => {
      channel.postMessage({ type: 'holding' } satisfies ChannelMessage);
      closeStream = openStream(onMessage, (message) => {
        keep(message);
        if (othersListen) channel.postMessage({ type: 'relay', message } satisfies ChannelMessage);
      });
      // Held while this tab is open: the lock is let go when the page goes or the app stops.
      await new Promise<void>((resolve) => stopped.signal.addEventListener('abort', () => resolve(), { once: true }));
    })
    .catch(() => {
      // Aborted before this tab held the lock: another tab has the stream.
    });

  return () => {
    stopped.abort();
    closeStream?.();
    closeStream = null;
    channel.close();
  };
}

/** The page's own EventSource; every message goes to `onMessage` and to `relay`. */
function openStream(onMessage: (message: StreamMessage) => void, relay: (message: StreamMessage) => void): () => void {
  let source: EventSource | null = null;
  let reconnectTimer: number | null = null;
  let lostSince: number | null = null;
  const tell = (message: StreamMessage) => {
    onMessage(message);
    relay(message);
  };
  const connect = () => {
    source = new EventSource(apiUrls.events());
    source.onopen = () => {
      lostSince = null;
      tell({ type: 'open' });
    };
    source.onmessage = (event: MessageEvent<string>) => tell({ type: 'data', data: event.data });
    source.onerror = () => {
      lostSince ??= Date.now();
      tell({ type: 'lost', since: lostSince });
      if (source?.readyState === EventSource.CLOSED) {
        source.close();
        reconnectTimer = window.setTimeout(connect, RECONNECT_MS);
      }
    };
  };
  connect();
  return () => {
    source?.close();
    if (reconnectTimer !== null) window.clearTimeout(reconnectTimer);
  };
}

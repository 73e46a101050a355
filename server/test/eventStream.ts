import type { z } from 'zod';
import { recordEventSchema } from '../../shared/wire/conversations.ts';
import { recordOnlyEventSchema } from '../../shared/test/recordWire.ts';
import { createArrivals } from './arrivals.ts';

/** The notices of a dashboard over a record: every session a record session. */
type RecordEvent = z.infer<typeof recordOnlyEventSchema>;

/** A notice from /api/events, stamped with performance.now() when it arrived. */
export type Notice<E = RecordEvent> = { at: number; event: E };

export type EventStream<E = RecordEvent> = {
  notices: Notice<E>[];
  /** Resolves with the first notice (already arrived or to come) that matches; `what` names the wait if none does. */
  next(match: (notice: Notice<E>) => boolean, timeoutMs?: number, what?: string): Promise<Notice<E>>;
  close(): void;
};

/**
 * Listens to a dashboard's /api/events as a client does, parsing each notice with the wire
 * schema. Used by the tests and by the bench, which times notices by their arrival.
 */
export function connectEventStream(origin: string, headers: Record<string, string> = {}): Promise<EventStream> {
  return connectWith(origin, headers, recordOnlyEventSchema);
}

/** The same, over stores of every kind. */
export function connectStoresEventStream(origin: string): Promise<EventStream<z.infer<typeof recordEventSchema>>> {
  return connectWith(origin, {}, recordEventSchema);
}

async function connectWith<S extends z.ZodType>(origin: string, headers: Record<string, string>, schema: S): Promise<EventStream<z.infer<S>>> {
  type Told = Notice<z.infer<S>>;
  const controller = new AbortController();
  const response = await fetch(new URL('/api/events', origin), { signal: controller.signal, headers });
  if (!response.ok || response.body === null) throw new Error(`no event stream: ${response.status}`);
  const notices = createArrivals<Told>('no matching notice arrived');
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        const at = performance.now();
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          for (const line of block.split('\n')) {
            if (!line.startsWith('data: ')) continue;
            notices.push({ at, event: schema.parse(JSON.parse(line.slice(6))) });
          }
        }
      }
    } catch {
      // The stream was closed.
    }
  })();
  return {
    notices: notices.items,
    next: (match, timeoutMs = 5_000, what) => notices.next(match, timeoutMs, what),
    close: () => controller.abort(),
  };
}

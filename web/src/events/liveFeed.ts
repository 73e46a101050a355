import type { LiveItem, SourceRef } from '../../../shared/wire/common.ts';

// Every item the event stream told of since the page loaded, in the order it arrived: the live
// view's rows. Nothing is dropped. A file told while being written and then told as its entry is
// one row that turns into its entry, as it does in a session; anything else told again of an
// item (changed, removed after it was read) is news, and a row of its own. A stream that was
// lost leaves a break: what was written meanwhile is not replayed, and the view says so.

export type LiveRow =
  | { type: 'item'; id: number; source: SourceRef; sessionId: string; session: string | null; item: LiveItem }
  | { type: 'break'; id: number; lostAt: number; backAt: number };

export const RATE_WINDOW_MS = 60_000;

export type LiveFeed = ReturnType<typeof createLiveFeed>;

export function createLiveFeed() {
  const rows: LiveRow[] = [];
  /** Where the row of a pending item is, by source, conversation and key, while it is pending. */
  const pendingAt = new Map<string, number>();
  const listeners = new Set<() => void>();
  /** Arrival times of the last minute's items, oldest first, for the rate. */
  const arrivals: number[] = [];
  let arrivalsFrom = 0;
  let version = 0;
  let nextId = 0;
  /**
   * When the stream first opened: before a minute of it, the rate is of what the feed has watched
   * (not of the page's load: a stream still connecting watches nothing).
   */
  let began: number | null = null;

  const changed = () => {
    version++;
    for (const listener of listeners) listener();
  };

  return {
    /** Items of one conversation (`session`: the full session id its store states), in the order the source told them. */
    add(source: SourceRef, sessionId: string, session: string | null, items: readonly LiveItem[], now = Date.now()): void {
      for (const item of items) {
        const key = `${source.id}\u0000${sessionId}\u0000${item.key}`;
        const at = pendingAt.get(key);
        if (at !== undefined) {
          const row = rows[at]!;
          rows[at] = { ...(row as Extract<LiveRow, { type: 'item' }>), item };
          if (item.evidence !== 'pending') pendingAt.delete(key);
        } else {
          if (item.evidence === 'pending') pendingAt.set(key, rows.length);
          rows.push({ type: 'item', id: nextId++, source, sessionId, session, item });
          arrivals.push(now);
        }
      }
      changed();
    },
    /** The stream was lost and is back: what was written between is not listed. */
    addBreak(lostAt: number, backAt: number): void {
      rows.push({ type: 'break', id: nextId++, lostAt, backAt });
      changed();
    },
    /** The stream is open: the rate counts from its first opening. */
    listening(now = Date.now()): void {
      began ??= now;
    },
    rows: (): readonly LiveRow[] => rows,
    version: () => version,
    /** How long the rate has counted: the last minute, less in the stream's first minute, null before it opened. */
    countedFor(now = Date.now()): number | null {
      return began === null ? null : Math.min(RATE_WINDOW_MS, Math.max(0, now - began));
    },
    /** Items that arrived in the last minute. */
    perMinute(now = Date.now()): number {
      while (arrivalsFrom < arrivals.length && arrivals[arrivalsFrom]! <= now - RATE_WINDOW_MS) arrivalsFrom++;
      if (arrivalsFrom > 4096) {
        arrivals.splice(0, arrivalsFrom);
        arrivalsFrom = 0;
      }
      return arrivals.length - arrivalsFrom;
    },
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

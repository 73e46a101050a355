import { spexItemResponseSchema, spexSessionResponseSchema, type SpexItem, type SpexSessionResponse } from '../../../../shared/wire/spex.ts';
import { getJson } from '../../api/client.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { apiUrls } from '../../api/urls.ts';
import type { Paged } from '../../conversation/usePages.ts';

// A spex session's side of the wire: its pages by position in its order (its own log's lines and
// the lines of other logs it sent), and one item whole.

export function spexPages(source: string, sessionId: string): Paged<SpexSessionResponse, SpexItem> {
  const page = (query: Record<string, string>, signal: AbortSignal) => getJson(apiUrls.conversation(source, sessionId, query), spexSessionResponseSchema, { signal });
  return {
    key: queryKeys.conversation(source, sessionId),
    fetchPage: (offset, limit, signal) => page({ offset: String(offset), limit: String(limit) }, signal),
    fetchLast: (limit, signal) => page({ last: '1', limit: String(limit) }, signal),
    // spex's pages do not know `around`: the shell looks through them.
    fetchAround: (_item, limit, signal) => page({ offset: '0', limit: String(limit) }, signal),
    totalOf: (response) => response.page.total,
    offsetOf: (response) => response.page.offset,
    itemsOf: (response) => response.items,
    keyOf: (item) => item.key,
  };
}

/** One item whole: its text, note or raw line unclipped. */
export function fetchSpexItem(source: string, sessionId: string, key: string, signal?: AbortSignal) {
  return getJson(apiUrls.item(source, sessionId, key), spexItemResponseSchema, { signal });
}

export function spexItemKey(source: string, sessionId: string, key: string) {
  return [...queryKeys.conversation(source, sessionId), 'item', key] as const;
}

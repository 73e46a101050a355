import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { MAX_PAGE_LIMIT } from '../../../shared/wire/common.ts';
import { KEEP_ENTRIES_AS_SENT, isNotHere } from '../api/client.ts';
import { useConversationList, type Column, type RowPlace } from './useConversationList.ts';

// A conversation's items come in pages by position in its order (`?offset=&limit=`, as the record
// and spex answer); only the pages on screen are fetched, so a conversation of 100,000 items
// costs what a screenful costs. Used by every kind whose pages are asked for by offset.

const PAGE_SIZE = 200;

/** What a kind's page answer is to the shell: where it begins, how many there are, and its items. */
export type Paged<P, I> = {
  /** The query key every page of this conversation (in this order: with its filter) is kept under. */
  key: readonly unknown[];
  fetchPage(offset: number, limit: number, signal: AbortSignal): Promise<P>;
  /** The page of `limit` that holds the last item (`?last=1`): its offset is a multiple of `limit`. */
  fetchLast(limit: number, signal: AbortSignal): Promise<P>;
  /**
   * The page that holds an item, for a link to it. A server that does not know `around` answers
   * with the first page: the pages are then looked through.
   */
  fetchAround(item: string, limit: number, signal: AbortSignal): Promise<P>;
  totalOf(page: P): number;
  offsetOf(page: P): number;
  itemsOf(page: P): readonly I[];
  /** An item's name, as a link names it; null for what no link names (a gap). */
  keyOf(item: I): string | null;
  /** The server's 404 for the item means it is there but left out by the filter, rather than not there. */
  filteredOut?(error: unknown): boolean;
};

type ListOptions = Omit<Parameters<typeof useConversationList>[0], 'count' | 'rowAt'>;

/**
 * A paged conversation's list: the pages of the rows in view; and, until the length is known, an
 * answer that gives it. A view that opens at the newest asks for its last page, which is kept as
 * the page it is, so it opens on one answer; one opened at an item asks a one-item answer, so that
 * the first page asked for is the one the view opens on. The newest answer taken is kept: which
 * pages are in view depends on the length, so taking the newest of those in view let two answers
 * with different totals (pages fetched either side of a write) swap the length back and forth
 * until React gave up (error #301).
 */
export function usePagedConversation<P, I>(paged: Paged<P, I>, columnOf: (item: I) => Column, options: ListOptions) {
  const queryClient = useQueryClient();
  const [known, setKnown] = useState<{ page: P; at: number } | null>(null);
  const total = known === null ? null : paged.totalOf(known.page);
  // The list asks for a row's place only after this render has its pages (in effects).
  const placeOf = useRef<(index: number) => RowPlace | undefined>(() => undefined);
  const list = useConversationList({ ...options, count: total, rowAt: (index) => placeOf.current(index) });
  const indexes = pagesFor(list.visible.map((row) => row.index));
  const results = useQueries({
    queries: [
      ...indexes.map((pageIndex) => ({
        queryKey: pageKey(paged, pageIndex),
        queryFn: ({ signal }: { signal: AbortSignal }) => paged.fetchPage(pageIndex * PAGE_SIZE, PAGE_SIZE, signal),
        ...KEEP_ENTRIES_AS_SENT,
      })),
      ...(known === null ? [headQuery(paged, options.target === null, (page) => queryClient.setQueryData(pageKey(paged, Math.floor(paged.offsetOf(page) / PAGE_SIZE)), page))] : []),
    ],
  });
  const byPage = new Map<number, P>();
  let latest: P | null = null;
  let latestAt = -1;
  let error: Error | null = null;
  results.forEach((result, i) => {
    if (result.data !== undefined) {
      if (i < indexes.length) byPage.set(indexes[i]!, result.data);
      if (result.dataUpdatedAt > latestAt) {
        latestAt = result.dataUpdatedAt;
        latest = result.data;
      }
    }
    error ??= result.error;
  });
  if (latest !== null && (known === null || latestAt > known.at)) setKnown({ page: latest, at: latestAt });
  const itemAt = (index: number): I | undefined => {
    const held = byPage.get(Math.floor(index / PAGE_SIZE));
    return held === undefined ? undefined : paged.itemsOf(held)[index % PAGE_SIZE];
  };
  const rowAt = (index: number): RowPlace | undefined => {
    const item = itemAt(index);
    return item === undefined ? undefined : { key: paged.keyOf(item) ?? `#${index}`, column: columnOf(item) };
  };
  placeOf.current = rowAt;
  return {
    list,
    /** The conversation's length, from the newest answer taken; null until the first. */
    total,
    /** The newest answer taken: what a kind's header shows (its summary). */
    latest: known?.page ?? null,
    itemAt,
    rowAt,
    /** The items of the pages fetched for the rows in view. */
    fetched: (): I[] => [...byPage.values()].flatMap((held) => [...paged.itemsOf(held)]),
    error: error as Error | null,
  };
}

function pageKey<P, I>(paged: Paged<P, I>, pageIndex: number): readonly unknown[] {
  return [...paged.key, 'page', PAGE_SIZE, pageIndex];
}

/** What gives the length first: for a view opening at the newest, its last page, kept as that page. */
function headQuery<P, I>(paged: Paged<P, I>, atNewest: boolean, keepPage: (page: P) => void) {
  return {
    queryKey: [...paged.key, 'head', atNewest ? 'last' : 'first'] as readonly unknown[],
    queryFn: async ({ signal }: { signal: AbortSignal }) => {
      if (!atNewest) return paged.fetchPage(0, 1, signal);
      const page = await paged.fetchLast(PAGE_SIZE, signal);
      keepPage(page);
      return page;
    },
    ...KEEP_ENTRIES_AS_SENT,
  };
}

function pagesFor(indexes: number[]): number[] {
  const pages = new Set<number>();
  for (const index of indexes) pages.add(Math.floor(index / PAGE_SIZE));
  return [...pages].sort((a, b) => a - b);
}

/**
 * Where an item sits in the conversation's order (with its filter), for a link to it: null when it
 * is not there, 'filtered-out' when it is there and the filter leaves it out.
 */
export function useItemIndex<P, I>(paged: Paged<P, I>, item: string | null) {
  return useQuery<number | 'filtered-out' | null>({
    queryKey: [...paged.key, 'around', item ?? ''],
    enabled: item !== null,
    staleTime: Infinity,
    queryFn: async ({ signal }) => {
      let around: P;
      try {
        around = await paged.fetchAround(item!, PAGE_SIZE, signal);
      } catch (error) {
        // The server answers an item it does not hold with a 404: an answer, not a failure.
        if (isNotHere(error)) return paged.filteredOut?.(error) === true ? 'filtered-out' : null;
        throw error;
      }
      const found = findItem(paged, paged.itemsOf(around), item!);
      if (found >= 0) return paged.offsetOf(around) + found;
      for (let offset = paged.offsetOf(around) === 0 ? paged.itemsOf(around).length : 0; offset < paged.totalOf(around); offset += MAX_PAGE_LIMIT) {
        const page = await paged.fetchPage(offset, MAX_PAGE_LIMIT, signal);
        const index = findItem(paged, paged.itemsOf(page), item!);
        if (index >= 0) return offset + index;
      }
      return null;
    },
  });
}

function findItem<P, I>(paged: Paged<P, I>, items: readonly I[], key: string): number {
  return items.findIndex((one) => paged.keyOf(one) === key);
}

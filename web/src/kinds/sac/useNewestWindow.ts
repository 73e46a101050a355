import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { SacFlowItem } from '../../../../shared/wire/sac.ts';
import { useConversationList, type Column, type RowPlace } from '../../conversation/useConversationList.ts';

// set-agent-comm's flows (a room's, a seat's) are asked for as their newest `limit` items. The
// shell's list holds every row of the flow, the newest fetched; when the reader comes to rows not
// fetched yet, or a link names an item older than those fetched, the window widens to hold them
// (up to the server's limit), and the rows already shown keep their places.

const FIRST_LIMIT = 500;
/** The most a flow is asked for (the server's limit). */
const MAX_LIMIT = 20_000;

type FlowRow = { item: SacFlowItem; column: Column };

type Options<P> = {
  queryKey(limit: number): readonly unknown[];
  fetch(limit: number, signal: AbortSignal): Promise<P>;
  /** The newest rows a page holds, in order, and how many the flow has. */
  rowsOf(page: P): { rows: readonly FlowRow[]; total: number };
  /** The item a link names: the list opens at it, selected. */
  target: string | null;
  /** The reader selected an item: its page puts it in the address, as every conversation's does. */
  onSelectItem(key: string): void;
};

export function useNewestWindow<P>({ queryKey, fetch, rowsOf, target, onSelectItem }: Options<P>) {
  const [limit, setLimit] = useState(FIRST_LIMIT);
  const query = useQuery({ queryKey: queryKey(limit), queryFn: ({ signal }) => fetch(limit, signal), placeholderData: keepPreviousData });
  const shaped = useMemo(() => (query.data === undefined ? null : rowsOf(query.data)), [query.data]);
  // At the server's limit, the rows before those fetched are left out of the list, and said so.
  const atMost = limit >= MAX_LIMIT;
  const count = shaped === null ? null : atMost ? shaped.rows.length : shaped.total;
  const offset = shaped === null || atMost ? 0 : shaped.total - shaped.rows.length;
  const canWiden = shaped !== null && shaped.rows.length < shaped.total && !atMost;
  const settled = shaped !== null && !query.isPlaceholderData;
  const found = target === null || shaped === null ? -1 : shaped.rows.findIndex((row) => row.item.item === target);
  const targetIndex = found >= 0 ? offset + found : !settled || canWiden ? undefined : null;
  /** The item the reader selected here (put in the address): not a link to look for. */
  const chosen = useRef<string | null>(null);
  const linked = target !== null && target !== chosen.current;

  // A linked item older than the newest fetched is in the flow's earlier part: ask for all of it.
  // One the reader selected that newer entries push out of those fetched is where it was.
  useEffect(() => {
    if (linked && found < 0 && settled && canWiden) setLimit(MAX_LIMIT);
  }, [linked, found, settled, canWiden]);

  const rowAt = (index: number): RowPlace | undefined => {
    const row = shaped?.rows[index - offset];
    return row === undefined ? undefined : { key: row.item.item, column: row.column };
  };
  const list = useConversationList({
    count,
    rowAt,
    target: target === null ? null : { key: target, index: targetIndex },
    onSelectItem: (key) => {
      chosen.current = key;
      onSelectItem(key);
    },
  });
  const firstShown = list.visible[0]?.index;
  useEffect(() => {
    if (firstShown === undefined || firstShown >= offset || !canWiden || query.isFetching) return;
    setLimit(Math.min(MAX_LIMIT, Math.max(limit * 4, (shaped?.total ?? 0) - firstShown)));
  }, [firstShown, offset, canWiden, query.isFetching]);

  return {
    list,
    query,
    rowAt,
    itemAt: (index: number) => shaped?.rows[index - offset]?.item,
    /** Rows of the flow left out at the server's limit: the earliest. */
    leftOut: atMost && shaped !== null ? shaped.total - shaped.rows.length : 0,
    /** The item a link names is not in the flow. */
    targetAbsent: linked && targetIndex === null,
  };
}

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import type { z } from 'zod';
import { errorResponseSchema } from '../../../shared/wire/common.ts';
import { spexItemResponseSchema, spexSessionResponseSchema, type SpexSessionResponse } from '../../../shared/wire/spex.ts';
import { ApiError } from '../api/client.ts';

// A spex session's side of the wire: every answer parsed with the shared schema, so a server that
// drifts from the contract shows an error instead of a misread log.

async function getJson<S extends z.ZodType>(url: string, schema: S, signal?: AbortSignal): Promise<z.infer<S>> {
  const response = await fetch(url, { headers: { accept: 'application/json' }, ...(signal ? { signal } : {}) });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = errorResponseSchema.safeParse(body);
    throw new ApiError(response.status, error.success ? error.data.message : `the server answered ${response.status}`);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiError(response.status, `the server's answer does not match ${url.split('?')[0]}: ${parsed.error.message}`);
  return parsed.data;
}

export const spexKeys = {
  /** Everything shown of one session: what a notice naming it makes stale. */
  session: (source: string, sessionId: string) => ['spex', source, sessionId] as const,
  page: (source: string, sessionId: string, wanted: number) => ['spex', source, sessionId, 'page', wanted] as const,
  item: (source: string, sessionId: string, key: string) => ['spex', source, sessionId, 'item', key] as const,
};

function fetchSpexPage(source: string, sessionId: string, offset: number, limit: number, signal?: AbortSignal): Promise<SpexSessionResponse> {
  const query = new URLSearchParams({ source, offset: String(offset), limit: String(limit) });
  return getJson(`/api/sessions/${encodeURIComponent(sessionId)}?${query}`, spexSessionResponseSchema, signal);
}

/** One item whole: its text, note or raw line unclipped. */
export function fetchSpexItem(source: string, sessionId: string, key: string, signal?: AbortSignal) {
  return getJson(`/api/sessions/${encodeURIComponent(sessionId)}/items/${encodeURIComponent(key)}?${new URLSearchParams({ source })}`, spexItemResponseSchema, signal);
}

/**
 * The newest `wanted` items of a session. The page is asked for at the total last seen, so a
 * session that grew by a few lines costs one request; one that grew past it is asked again at
 * its new end.
 */
export function useSpexPage(source: string, sessionId: string, wanted: number) {
  const lastTotal = useRef(0);
  return useQuery({
    queryKey: spexKeys.page(source, sessionId, wanted),
    queryFn: async ({ signal }) => {
      let offset = Math.max(0, lastTotal.current - wanted);
      let page = await fetchSpexPage(source, sessionId, offset, wanted, signal);
      const newest = Math.max(0, page.page.total - wanted);
      if (newest !== offset) {
        offset = newest;
        page = await fetchSpexPage(source, sessionId, offset, wanted, signal);
      }
      lastTotal.current = page.page.total;
      return page;
    },
    // A live refetch or a longer window keeps what is shown until the new answer is here; another
    // session's items never stand in for this one's.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === sessionId && previousQuery.queryKey[1] === source ? keepPreviousData(previous) : undefined),
  });
}

import { fileResponseSchema, sessionResponseSchema, type FileResponse, type SessionItemWire, type SessionResponse } from '../../../../shared/wire/record.ts';
import { activityResponseSchema, type ActivityResponse } from '../../../../shared/wire/activity.ts';
import { getJson } from '../../api/client.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { apiUrls } from '../../api/urls.ts';
import type { Paged } from '../../conversation/usePages.ts';

// A record session's side of the wire: its pages by position (narrowed by side or peer: `side=`,
// `peer=`, `peerUnknown=1`, offsets counting in the narrowed order), one file whole, and its
// activity. Its answers carry entries as written: numbers kept as the file writes them.

/** A session's pages in one order (its filter's): what the shell's paged list asks for. */
export function recordPages(source: string, sessionId: string, filter: URLSearchParams): Paged<SessionResponse, SessionItemWire> {
  const page = (query: Record<string, string>, signal: AbortSignal) =>
    getJson(apiUrls.conversation(source, sessionId, { ...Object.fromEntries(filter), ...query }), sessionResponseSchema, { signal, asWritten: true });
  return {
    key: [...queryKeys.conversation(source, sessionId), filter.toString()],
    fetchPage: (offset, limit, signal) => page({ offset: String(offset), limit: String(limit) }, signal),
    fetchLast: (limit, signal) => page({ last: '1', limit: String(limit) }, signal),
    fetchAround: (file, limit, signal) => page({ around: file, limit: String(limit) }, signal),
    totalOf: (response) => response.page.total,
    offsetOf: (response) => response.page.offset,
    itemsOf: (response) => response.items,
    keyOf: (item) => (item.type === 'gap' ? null : item.file),
    // The record answers a file its filter leaves out with a 404 that says so.
    filteredOut: (error) => filter.size > 0 && error instanceof Error && /filter/.test(error.message),
  };
}

export function fetchFile(source: string, sessionId: string, file: string, signal?: AbortSignal): Promise<FileResponse> {
  return getJson(apiUrls.item(source, sessionId, file), fileResponseSchema, { signal, asWritten: true });
}

export function fileKey(source: string, sessionId: string, file: string) {
  return [...queryKeys.conversation(source, sessionId), 'file', file] as const;
}

/** A session's items per minute and messages per peer, summed by the server over the whole session. */
export function fetchActivity(source: string, sessionId: string, filter: URLSearchParams, signal?: AbortSignal): Promise<ActivityResponse> {
  return getJson(apiUrls.activity(source, sessionId, filter), activityResponseSchema, { signal });
}

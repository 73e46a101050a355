import type { z } from 'zod';
import { errorResponseSchema } from '../../../shared/wire/common.ts';
import { fileResponseSchema, sessionResponseSchema, type FileResponse, type SessionResponse } from '../../../shared/wire/record.ts';
import { sessionsResponseSchema, type SessionsResponse } from '../../../shared/wire/conversations.ts';
import { searchResponseSchema, type SearchResponse } from '../../../shared/wire/search.ts';
import { keepNumberText } from '../../../shared/jsonText.ts';
import { activityResponseSchema, type ActivityResponse } from '../../../shared/wire/activity.ts';

// The browser's side of the wire: every response is parsed with the shared schema, so a server
// that drifts from the contract shows an error instead of a misread record.

export class ApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/**
 * `asWritten`: an entry's numbers are kept as the file writes them (a browser's JSON.parse makes
 * 12345678901234567890 lose digits and 1e400 Infinity), for answers that carry entries.
 */
async function getJson<S extends z.ZodType>(url: string, schema: S, signal?: AbortSignal, asWritten = false): Promise<z.infer<S>> {
  const response = await fetch(url, { headers: { accept: 'application/json' }, ...(signal ? { signal } : {}) });
  const body: unknown = await response
    .text()
    .then((text) => (asWritten ? JSON.parse(text, keepNumberText) : JSON.parse(text)) as unknown)
    .catch(() => null);
  if (!response.ok) {
    const error = errorResponseSchema.safeParse(body);
    throw new ApiError(response.status, error.success ? error.data.message : `the server answered ${response.status}`);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiError(response.status, `the server's answer does not match ${url.split('?')[0]}: ${parsed.error.message}`);
  return parsed.data;
}

/**
 * Options for a query whose answers carry entries. React Query's structural sharing rebuilds a
 * changed answer key by key: assigning a `__proto__` field sets a prototype instead (the field is
 * lost), and a number kept as written, rebuilt, is a plain object.
 */
export const KEEP_ENTRIES_AS_SENT = { structuralSharing: false } as const;

export function fetchSessions(signal?: AbortSignal): Promise<SessionsResponse> {
  return getJson('/api/sessions', sessionsResponseSchema, signal);
}

/** `filter`: a session narrowed by side or peer (`side=`, `peer=`, `peerUnknown=1`); offsets count in it. */
export function fetchSessionPage(sessionId: string, offset: number, limit: number, signal?: AbortSignal, filter?: URLSearchParams): Promise<SessionResponse> {
  const query = new URLSearchParams({ ...Object.fromEntries(filter ?? []), offset: String(offset), limit: String(limit) });
  return getJson(`/api/sessions/${encodeURIComponent(sessionId)}?${query}`, sessionResponseSchema, signal, true);
}

/** The page that holds `file`; `page.offset` says where it begins. */
export function fetchPageAround(sessionId: string, file: string, limit: number, signal?: AbortSignal, filter?: URLSearchParams): Promise<SessionResponse> {
  const query = new URLSearchParams({ ...Object.fromEntries(filter ?? []), around: file, limit: String(limit) });
  return getJson(`/api/sessions/${encodeURIComponent(sessionId)}?${query}`, sessionResponseSchema, signal, true);
}

/** A session's items per minute and messages per peer, summed by the server over the whole session. */
export function fetchSessionActivity(sessionId: string, filter: URLSearchParams, signal?: AbortSignal): Promise<ActivityResponse> {
  const query = filter.toString();
  return getJson(`/api/sessions/${encodeURIComponent(sessionId)}/activity${query === '' ? '' : `?${query}`}`, activityResponseSchema, signal);
}

export function fetchFile(sessionId: string, file: string, signal?: AbortSignal): Promise<FileResponse> {
  return getJson(`/api/sessions/${encodeURIComponent(sessionId)}/files/${encodeURIComponent(file)}`, fileResponseSchema, signal, true);
}

export function fetchSearch(params: URLSearchParams, signal?: AbortSignal): Promise<SearchResponse> {
  return getJson(`/api/search?${params}`, searchResponseSchema, signal);
}

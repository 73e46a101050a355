import type { z } from 'zod';
import { errorResponseSchema } from '../../../shared/wire/common.ts';
import { keepNumberText } from '../../../shared/jsonText.ts';

// The browser's one way to the server's answers: every answer is parsed with the shared schema,
// so a server that drifts from the contract shows an error instead of a misread store. The URLs
// are built in api/urls.ts, and nowhere else.

/** An answer that is not the one asked for: the server's status, and its message or ours. */
class ApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

type GetOptions = {
  signal?: AbortSignal | undefined;
  /**
   * An entry's numbers kept as the file writes them (a browser's JSON.parse makes
   * 12345678901234567890 lose digits and 1e400 Infinity), for answers that carry a store's own fields.
   */
  asWritten?: boolean;
};

export async function getJson<S extends z.ZodType>(url: string, schema: S, options: GetOptions = {}): Promise<z.infer<S>> {
  const response = await fetch(url, { headers: { accept: 'application/json' }, ...(options.signal ? { signal: options.signal } : {}) });
  const body: unknown = await response
    .text()
    .then((text) => (options.asWritten === true ? JSON.parse(text, keepNumberText) : JSON.parse(text)) as unknown)
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
 * Options for a query whose answers carry a store's own fields. React Query's structural sharing
 * rebuilds a changed answer key by key: assigning a `__proto__` field sets a prototype instead
 * (the field is lost), and a number kept as written, rebuilt, is a plain object.
 */
export const KEEP_ENTRIES_AS_SENT = { structuralSharing: false } as const;

/** A 404: the server holds no such conversation, item or view (an answer, not a failure). */
export function isNotHere(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/**
 * A 4xx: the server's answer to what was asked (a regular expression it cannot run, a filter it
 * does not know, nothing there), the same however often it is asked: never asked again by itself.
 */
export function isRefusal(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}

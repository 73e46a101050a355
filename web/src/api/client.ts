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

/** How long reading an answer in lines runs before it gives the page back (to a scroll, a frame). */
const LINES_SLICE_MS = 8;

/**
 * An answer in lines (`application/x-ndjson`): a head, then lines of one shape, each parsed and
 * checked as it comes, and the main thread given back between lines every few milliseconds. The
 * list of 10,000 sessions (5 MB) parsed and checked in one go was a task of 85 ms and more, in the
 * middle of whatever the reader was doing.
 */
export async function getLines<H extends z.ZodType, L extends z.ZodType>(url: string, headSchema: H, lineSchema: L, options: Pick<GetOptions, 'signal'> = {}): Promise<{ head: z.infer<H>; lines: z.infer<L>[] }> {
  const response = await fetch(url, { headers: { accept: 'application/x-ndjson' }, ...(options.signal ? { signal: options.signal } : {}) });
  const where = url.split('?')[0];
  if (!response.ok || response.body === null) {
    const error = errorResponseSchema.safeParse(await response.json().catch(() => null));
    throw new ApiError(response.status, error.success ? error.data.message : `the server answered ${response.status}`);
  }
  let head: z.infer<H> | undefined;
  const lines: z.infer<L>[] = [];
  const take = (line: string) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new ApiError(response.status, `the server's answer from ${where} has a line that is not JSON`);
    }
    if (head === undefined) head = checked(headSchema, value);
    else lines.push(checked(lineSchema, value));
  };
  const checked = <S extends z.ZodType>(schema: S, value: unknown): z.infer<S> => {
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw new ApiError(response.status, `the server's answer does not match ${where}: ${parsed.error.message}`);
    return parsed.data;
  };
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let rest = '';
  let since = performance.now();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    rest += value;
    let start = 0;
    for (let end = rest.indexOf('\n'); end !== -1; end = rest.indexOf('\n', start)) {
      take(rest.slice(start, end));
      start = end + 1;
      if (performance.now() - since > LINES_SLICE_MS) {
        await yieldToPage();
        since = performance.now();
      }
    }
    rest = rest.slice(start);
  }
  if (rest !== '') take(rest);
  if (head === undefined) throw new ApiError(response.status, `the server's answer from ${where} is empty`);
  return { head, lines };
}

/** Gives the main thread back for a moment: `scheduler.yield()` where the browser has it. */
function yieldToPage(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return scheduler?.yield !== undefined ? scheduler.yield() : new Promise((resolve) => setTimeout(resolve, 0));
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

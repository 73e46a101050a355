// Query keys in one place, so live invalidation (live/) and the views agree on them.

export const queryKeys = {
  sessions: () => ['sessions'] as const,
  session: (sessionId: string) => ['session', sessionId] as const,
  /** One item, for the session's total before any page is asked for. */
  sessionHead: (sessionId: string, filter = '') => ['session', sessionId, 'head', filter] as const,
  /** `filter`: the session's filter as a query ('' for none): a filtered session's pages are pages of their own. */
  sessionPage: (sessionId: string, pageIndex: number, pageSize: number, filter = '') => ['session', sessionId, 'page', pageSize, pageIndex, filter] as const,
  sessionActivity: (sessionId: string, filter: string) => ['session', sessionId, 'activity', filter] as const,
  file: (sessionId: string, file: string) => ['session', sessionId, 'file', file] as const,
  around: (sessionId: string, file: string) => ['session', sessionId, 'around', file] as const,
  search: (params: string) => ['search', params] as const,
};

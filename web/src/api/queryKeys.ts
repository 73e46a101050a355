// Query keys in one place, so live invalidation (live/) and the views agree on them.

export const queryKeys = {
  sessions: () => ['sessions'] as const,
  session: (sessionId: string) => ['session', sessionId] as const,
  /** One item, for the session's total before any page is asked for. */
  sessionHead: (sessionId: string) => ['session', sessionId, 'head'] as const,
  sessionPage: (sessionId: string, pageIndex: number, pageSize: number) => ['session', sessionId, 'page', pageSize, pageIndex] as const,
  file: (sessionId: string, file: string) => ['session', sessionId, 'file', file] as const,
  around: (sessionId: string, file: string) => ['session', sessionId, 'around', file] as const,
  search: (params: string) => ['search', params] as const,
};

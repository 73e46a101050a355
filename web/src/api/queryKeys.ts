// Query keys in one place, so that the event stream (events/) and the views agree on what a
// notice makes stale. Everything of a store is under its source id; a kind adds its own parts
// after a conversation's or a view's key.

export const queryKeys = {
  /** The list of every conversation of every store. */
  conversations: () => ['conversations'] as const,
  /** Everything shown of one conversation: what a notice that names it makes stale. */
  conversation: (source: string, id: string) => ['source', source, 'conversation', id] as const,
  /** A kind's own views of a store (set-agent-comm's rooms): a change to any of its conversations changes them. */
  views: (source: string) => ['source', source, 'view'] as const,
  /** The list of sessions across the stores. */
  joinedSessions: () => ['joined-sessions'] as const,
  /** The session a store's conversation is: under the list's key, so that it is fetched again with the list. */
  conversationSession: (source: string, id: string) => ['joined-sessions', 'of', source, id] as const,
  /** One session's page across the stores; under it, every session's. */
  joinedSession: (session?: string, limit?: number) => (session === undefined ? (['joined-session'] as const) : (['joined-session', session, limit] as const)),
  searches: () => ['search'] as const,
  search: (params: string) => ['search', params] as const,
  /** The map, and one edge's messages, by their query. */
  map: (params: string) => ['map', params] as const,
  mapMessages: (params: string) => ['map', 'messages', params] as const,
};

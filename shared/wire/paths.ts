// The browser's addresses of a conversation, of an item in its place, and of a view only one kind
// has: the form the browser's router reads (web/src/router/routes.ts builds its links with these)
// and the server writes in a live item's `link`. One form for every kind:
// `/source/<sourceId>/conversation/<id>[/item/<key>]` and `/source/<sourceId>/<view>[/<subject>[/item/<key>]]`.

export function conversationAddress(source: string, id: string): string {
  return `/source/${source}/conversation/${encodeURIComponent(id)}`;
}

export function itemAddress(source: string, id: string, key: string): string {
  return `${conversationAddress(source, id)}/item/${encodeURIComponent(key)}`;
}

/** A view only one kind has: of the whole store, of one `subject` of it, or opened at one of its items. */
export function sourceViewAddress(source: string, view: string, subject: string | null = null, item: string | null = null): string {
  const base = `/source/${source}/${view}`;
  if (subject === null) return base;
  return `${base}/${encodeURIComponent(subject)}${item === null ? '' : `/item/${encodeURIComponent(item)}`}`;
}

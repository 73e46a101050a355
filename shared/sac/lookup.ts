// Store files hold a record per seat (registry, members, focus, presence, cursors); a list of
// thousands of seats looks each one up. Facts are never changed once read, so each list is
// indexed once, on first look, and the index goes with the list.

const indexes = new WeakMap<readonly object[], Map<PropertyKey, Map<unknown, unknown>>>();

/** The first record of `list` whose `key` is `value`: what `list.find` gives, without walking the list each time. */
export function findFirst<T extends object, K extends keyof T>(list: readonly T[], key: K, value: T[K]): T | undefined {
  let byKey = indexes.get(list);
  if (byKey === undefined) indexes.set(list, (byKey = new Map()));
  let index = byKey.get(key) as Map<T[K], T> | undefined;
  if (index === undefined) {
    index = new Map();
    for (const record of list) if (!index.has(record[key])) index.set(record[key], record);
    byKey.set(key, index);
  }
  return index.get(value);
}

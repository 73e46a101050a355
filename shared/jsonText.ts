// JSON text as written: what JSON.parse does not say of the text it reads (a key written twice,
// a number it cannot hold), for every core that reads JSON a writer wrote. Pure: text in, facts out.

/**
 * Whether a JSON value nests deeper than `limit`, and how many keys its objects hold in all.
 * Recursive only to `limit`, so any depth is safe to ask; it makes no array a value, since a
 * scan asks it of a hundred thousand entries.
 */
export function measureJson(value: unknown, limit: number): { tooDeep: boolean; keys: number } {
  const keys = countKeys(value, 1, limit);
  return keys < 0 ? { tooDeep: true, keys: 0 } : { tooDeep: false, keys };
}

/** The keys of a value's objects, or -1 when it nests deeper than `limit`. */
function countKeys(value: unknown, depth: number, limit: number): number {
  if (typeof value !== 'object' || value === null) return 0;
  if (depth > limit) return -1;
  let keys = 0;
  if (Array.isArray(value)) {
    for (let at = 0; at < value.length; at++) {
      const inner = countKeys(value[at], depth + 1, limit);
      if (inner < 0) return -1;
      keys += inner;
    }
    return keys;
  }
  const object = value as Record<string, unknown>;
  for (const key in object) {
    // JSON.parse makes own fields only; anything inherited is not the text's.
    if (!Object.hasOwn(object, key)) continue;
    const inner = countKeys(object[key], depth + 1, limit);
    if (inner < 0) return -1;
    keys += 1 + inner;
  }
  return keys;
}

/**
 * How many object members valid JSON text holds: its colons outside strings. Strings are skipped
 * with indexOf, so a long text costs little more than a search for its closing quote.
 */
export function countMembers(json: string): number {
  let members = 0;
  for (let at = 0; at < json.length; at++) {
    const code = json.charCodeAt(at);
    if (code === 0x22) at = closingQuote(json, at);
    else if (code === 0x3a) members++;
  }
  return members;
}

/** Where the string opened at `open` ends, in valid JSON text. */
export function closingQuote(json: string, open: number): number {
  let at = json.indexOf('"', open + 1);
  for (;;) {
    let backslashes = 0;
    while (json.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes++;
    // An even run of backslashes escapes itself, not the quote.
    if (backslashes % 2 === 0) return at;
    at = json.indexOf('"', at + 1);
  }
}

/**
 * Names the first key written twice in one object of valid JSON text, and where that object
 * is: `duplicate key "from" in envelope.origin`. Keys are compared as JSON reads them, so
 * `"k\u0069nd"` is `"kind"`. Only run on text known to hold one.
 */
export function describeDuplicateKey(json: string): string {
  type Level = { keys: Set<string> | null; path: string; key: string | null; index: number };
  const levels: Level[] = [];
  let expectKey = false;
  for (let at = 0; at < json.length; at++) {
    const code = json.charCodeAt(at);
    const level = levels.at(-1);
    if (code === 0x7b || code === 0x5b) {
      const path = level === undefined ? '' : [level.path, level.keys === null ? String(level.index) : level.key].filter((part) => part !== '').join('.');
      levels.push({ keys: code === 0x7b ? new Set() : null, path, key: null, index: 0 });
      expectKey = code === 0x7b;
    } else if (code === 0x7d || code === 0x5d) {
      levels.pop();
    } else if (code === 0x2c && level !== undefined) {
      if (level.keys === null) level.index++;
      else expectKey = true;
    } else if (code === 0x22) {
      const end = closingQuote(json, at);
      if (expectKey && level?.keys != null) {
        const key = JSON.parse(json.slice(at, end + 1)) as string;
        if (level.keys.has(key)) return `duplicate key ${JSON.stringify(key)}${level.path === '' ? '' : ` in ${level.path}`}`;
        level.keys.add(key);
        level.key = key;
        expectKey = false;
      }
      at = end;
    }
  }
  return 'a duplicate key';
}

type RawJson = { readonly rawJSON: string };
/** JSON.rawJSON and the reviver's source text (ES2026), which the es2024 lib does not declare. */
const json = JSON as JSON & { rawJSON?(text: string): RawJson; isRawJSON?(value: unknown): value is RawJson };

/**
 * A reviver for JSON.parse that keeps each number as written where JSON.stringify would write it
 * otherwise (1e400 would become null, 12345678901234567890 lose digits, -0 become 0, 1.50 be 1.5):
 * such a number becomes a raw JSON value, which JSON.stringify writes back as its text.
 */
export function keepNumberText(_key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value !== 'number' || context?.source === undefined || json.rawJSON === undefined) return value;
  return context.source === JSON.stringify(value) ? value : json.rawJSON(context.source);
}

/** A number as the file writes it (kept by keepNumberText), or null for a value that is no number. */
export function numberText(value: unknown): string | null {
  if (typeof value === 'number') return JSON.stringify(value);
  return json.isRawJSON?.(value) === true ? value.rawJSON : null;
}

/**
 * An entry's fields with every value as written: JSON.stringify gives back the file's numbers
 * (and a `__proto__` field, which JSON.parse makes an own field). Read when an entry is shown,
 * not when it is indexed: parsing with a reviver costs several times a plain parse.
 */
export function readFieldsAsWritten(source: string): unknown {
  return JSON.parse(source.charCodeAt(0) === 0xfeff ? source.slice(1) : source, keepNumberText);
}

/**
 * A parsed value (of `source`) with every value as written. Most entries hold no number, and
 * then JSON.parse's value is already exact (a `__proto__` field included); only the others are
 * parsed again.
 */
export function valueAsWritten(value: unknown, source: string): unknown {
  return holdsNumber(value) ? readFieldsAsWritten(source) : value;
}

function holdsNumber(value: unknown): boolean {
  if (typeof value === 'number') return true;
  if (typeof value !== 'object' || value === null) return false;
  const stack: object[] = [value];
  while (stack.length > 0) {
    for (const child of Object.values(stack.pop()!)) {
      if (typeof child === 'number') return true;
      if (typeof child === 'object' && child !== null) stack.push(child);
    }
  }
  return false;
}

/** A number as written, for a core that must say it (a chain's part). */
export function isRawNumber(value: unknown): value is RawJson {
  return json.isRawJSON?.(value) === true;
}

// The writers and their clients speak one JSON value a line, read with node:readline, which also
// ends a line at U+2028 and U+2029; JSON.stringify leaves those in a string as they are, so a text
// holding one was cut in two and its command never answered. They are written escaped.

/** `value` as one line of the writers' protocol, its line break included. */
export function toCommandLine(value: unknown): string {
  return `${JSON.stringify(value).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')}\n`;
}

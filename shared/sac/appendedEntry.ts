import { ENTRY_HEADER } from './entryHeader.ts';

// What set-agent-comm's `send` appends to the writer's own seat file (sac-channels-format, as its
// `store.mjs` writes it): `\n` unless the file is empty, the header and `\n`, the trimmed body with
// every line that would read as a header pushed one space right, and `\n`, in one write. Pure, so
// that the demo's writer (server/demo/sacWrite.ts) and the core's tests write the same bytes.

export type AppendedEntry = { ts: string; type: string; text: string; to?: readonly string[] | undefined; re?: string | undefined };

/** The text one `send` appends to a seat file that holds `existing` bytes. */
export function composeAppendedEntry(existing: number, entry: AppendedEntry): string {
  const to = entry.to ?? [];
  const head = `## ${entry.ts} — ${entry.type}${to.length > 0 ? ` → ${to.join(', ')}` : ''}${entry.re !== undefined ? ` (re: ${entry.re})` : ''}`;
  const body = entry.text
    .trim()
    .split('\n')
    .map((line) => (ENTRY_HEADER.test(line) ? ` ${line}` : line))
    .join('\n');
  return `${existing > 0 ? '\n' : ''}${head}\n${body}\n`;
}

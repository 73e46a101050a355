import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { sacEntryBytes, sacTime } from '../../server/demo/sacWrite.ts';

// The bench's set-agent-comm writer: a process of its own, as a session that sends is. Each line
// on stdin names a seat file; it appends one entry there as sac's `send` does (one write) and
// answers with the wall-clock time of the write, in epoch milliseconds with their fraction, so
// that the process that watches can time its notice against it.
//   node sacWriter.ts      stdin: {"path": "...", "text": "..."} per line; stdout: {"at": 1764523133482.31}

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  const { path, text } = JSON.parse(line) as { path: string; text: string };
  const bytes = sacEntryBytes(1, { ts: sacTime(), type: 'FACT', text });
  const at = performance.timeOrigin + performance.now();
  appendFileSync(path, bytes);
  process.stdout.write(`${JSON.stringify({ at })}\n`);
}

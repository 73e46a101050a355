import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sacEntryBytes } from '../../server/demo/sacWrite.ts';
import { createSeededRandom } from '../../shared/seededRandom.ts';

// The bench's set-agent-comm store, written once and kept while its shape holds:
//   node sacStore.ts generate <root> <rooms> <seats> <entries>
// It is read by sacBaseline.mjs (the plainest read) and sacProcess.mjs (the sac source).

const TEXTS = [
  'Rebased on main, running the suite again.',
  'Can you check whether /v1/orders still accepts a missing currency?',
  'Merged. Migrations are idempotent now.\nTwo TODOs left in src/cart/totals.ts.',
  'Flaky: test/cart.spec.ts timed out once in CI.',
  'Docs for the retry policy are up, see docs/retries.md.',
];
const TYPES = ['QUESTION', 'ANSWER', 'FACT', 'REQUEST'];

export type SacShape = { rooms: number; seats: number; entries: number };

function generate(root: string, shape: SacShape): void {
  const marker = join(root, '.bench-shape');
  const wanted = JSON.stringify(shape);
  if (existsSync(marker) && readFileSync(marker, 'utf8') === wanted) return;
  const random = createSeededRandom(7);
  const base = Date.parse('2026-11-01T00:00:00.000Z');
  const agents: Record<string, { project: string; seats: Record<string, unknown> }> = {};
  for (let r = 0; r < shape.rooms; r++) {
    const room = `room-${String(r).padStart(3, '0')}`;
    mkdirSync(join(root, 'channels', room), { recursive: true });
    for (let s = 0; s < shape.seats; s++) {
      const agent = `agent-${s}`;
      const seat = `${agent}#${(r * 1000 + s).toString(16).padStart(8, '0')}`;
      (agents[agent] ??= { project: `/work/${agent}`, seats: {} }).seats[seat] = { session: `${seat.slice(-8)}-0000-4000-8000-000000000000`, rooms: [room], lastSeen: new Date(base).toISOString() };
      const parts: Buffer[] = [];
      let size = 0;
      for (let e = 0; e < shape.entries; e++) {
        const ts = new Date(base + e * 60_000 + s * 1_000 + Math.floor(random() * 900)).toISOString().replace('Z', '+00:00');
        const to = random() < 0.3 ? [`agent-${Math.floor(random() * shape.seats)}`] : undefined;
        const bytes = sacEntryBytes(size, { ts, type: TYPES[e % 4]!, text: `${TEXTS[e % TEXTS.length]} (#${e})`, to });
        parts.push(bytes);
        size += bytes.length;
      }
      writeFileSync(join(root, 'channels', room, `${seat}.md`), Buffer.concat(parts));
    }
  }
  writeFileSync(join(root, 'registry.json'), JSON.stringify({ agents }));
  writeFileSync(marker, wanted);
}

if (import.meta.main) {
  const [mode, root, ...rest] = process.argv.slice(2);
  if (root === undefined) {
    process.stderr.write('usage: node sacStore.ts generate <root> <rooms> <seats> <entries>\n');
    process.exit(2);
  }
  if (mode === 'generate') {
    const [rooms, seats, entries] = rest.map(Number);
    generate(root, { rooms: rooms!, seats: seats!, entries: entries! });
    process.stdout.write('{}\n');
  }
  process.exit(0);
}

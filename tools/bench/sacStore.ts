import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { sacEntryBytes } from '../../server/demo/sacWrite.ts';
import { createSacSource } from '../../server/sac/sacSource.ts';
import { createSeededRandom } from '../../shared/seededRandom.ts';
import { spread, type Spread } from './stats.ts';

// The bench's set-agent-comm store and the two ways it is read, each in a fresh process:
//   node sacStore.ts generate <root> <rooms> <seats> <entries>
//   node sacStore.ts baseline <root>    the plainest read: every seat file read and split into entries
//   node sacStore.ts index <root> <writes>   the sac source's first read, the list of seats, then
//                                            new entries written by another process → notices
// Each prints one JSON line.

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

/** The plainest read there is: every file read as text and split at its header lines. */
function baseline(root: string): { files: number; entries: number; ms: number; cpuMs: number; maxRssBytes: number } {
  const started = performance.now();
  const cpu = process.cpuUsage();
  let files = 0;
  let entries = 0;
  for (const room of readdirSync(join(root, 'channels'))) {
    for (const name of readdirSync(join(root, 'channels', room))) {
      const text = readFileSync(join(root, 'channels', room, name), 'utf8');
      files++;
      for (const line of text.split('\n')) if (line.startsWith('## ')) entries++;
    }
  }
  return { files, entries, ms: performance.now() - started, cpuMs: cpuMsSince(cpu), maxRssBytes: process.resourceUsage().maxRSS * 1024 };
}

/** CPU time (user and system) spent since `from`: on a shared machine, steadier than the wall clock. */
function cpuMsSince(from: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
}

type IndexResult = { ms: number; cpuMs: number; listMs: number; seats: number; noticeMs: Spread; missed: number; maxRssBytes: number };

const WRITER = fileURLToPath(new URL('./sacWriter.ts', import.meta.url));

/** A writer process of its own (sacWriter.ts): `write` resolves with the wall-clock time of its write. */
function startWriter(): { write(path: string, text: string): Promise<number>; close(): void } {
  const child = spawn(process.execPath, [WRITER], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting: ((at: number) => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => waiting.shift()?.((JSON.parse(line) as { at: number }).at));
  return {
    write(path, text) {
      return new Promise((resolve) => {
        waiting.push(resolve);
        child.stdin.write(`${JSON.stringify({ path, text })}\n`);
      });
    },
    close: () => child.stdin.end(),
  };
}

/** Now, on the wall clock the writer's times are on (epoch ms, with their fraction). */
const wallNow = () => performance.timeOrigin + performance.now();

async function index(root: string, writes: number): Promise<IndexResult> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const source = createSacSource({ root });
  await source.start();
  const ms = performance.now() - started;
  const cpuMs = cpuMsSince(cpu);
  const listStarted = performance.now();
  const seats = [...source.conversations()].length;
  const listMs = performance.now() - listStarted;

  // New entries, appended as sac appends them by a writer process of its own, each timed from its
  // write to the notice of its writer's seat with the seat's summary made, as the events route makes it.
  const random = createSeededRandom(11);
  const rooms = readdirSync(join(root, 'channels')).filter((name) => !name.startsWith('.'));
  const samples: number[] = [];
  let missed = 0;
  let waiting: { seat: string; noticed: (at: number) => void } | null = null;
  source.subscribe((notice) => {
    if (notice.type === 'conversation-changed' && waiting !== null && notice.id === waiting.seat) {
      source.conversation(notice.id);
      waiting.noticed(wallNow());
    }
  });
  const writer = startWriter();
  // The writer's first write costs its start: it is not timed.
  await writer.write(join(root, 'channels', rooms[0]!, readdirSync(join(root, 'channels', rooms[0]!))[0]!), 'warm-up');
  await new Promise((resolve) => setTimeout(resolve, 200));
  for (let i = 0; i < writes; i++) {
    const room = rooms[Math.floor(random() * rooms.length)]!;
    const names = readdirSync(join(root, 'channels', room));
    const name = names[Math.floor(random() * names.length)]!;
    const noticed = new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        waiting = null;
        resolve(null);
      }, 2_000);
      waiting = {
        seat: name.slice(0, -3),
        noticed: (at) => {
          clearTimeout(timer);
          waiting = null;
          resolve(at);
        },
      };
    });
    const [writtenAt, noticedAt] = await Promise.all([writer.write(join(root, 'channels', room, name), `live ${i}`), noticed]);
    if (noticedAt === null) missed++;
    else samples.push(noticedAt - writtenAt);
    await new Promise((resolve) => setTimeout(resolve, 20 + random() * 30));
  }
  writer.close();
  await source.close();
  return { ms, cpuMs, listMs, seats, noticeMs: spread(samples), missed, maxRssBytes: process.resourceUsage().maxRSS * 1024 };
}

if (import.meta.main) {
  const [mode, root, ...rest] = process.argv.slice(2);
  if (root === undefined) {
    process.stderr.write('usage: node sacStore.ts generate|baseline|index <root> …\n');
    process.exit(2);
  }
  if (mode === 'generate') {
    const [rooms, seats, entries] = rest.map(Number);
    generate(root, { rooms: rooms!, seats: seats!, entries: entries! });
    process.stdout.write('{}\n');
  } else if (mode === 'baseline') {
    process.stdout.write(`${JSON.stringify(baseline(root))}\n`);
  } else if (mode === 'index') {
    process.stdout.write(`${JSON.stringify(await index(root, Number(rest[0] ?? 200)))}\n`);
  }
  process.exit(0);
}

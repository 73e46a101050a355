import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, closeSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { appendEvent, spexSessionFolder } from '../../server/demo/spexAppend.ts';
import type { StorePhaseOptions } from './dashboardProcess.ts';
import { freshPagesRow, storageNote, type Row } from './report.ts';
import { percentile } from './stats.ts';

// The spex phase: a home of 1,000 sessions × 1,000 events (~1M lines, 4 MiB segments) indexed by
// the spex source in a fresh process started with the command's Node options, beside a plain
// read-and-parse of the same files in the same run; then lines appended one O_APPEND write each,
// as spex does, timed to their notice.

const SESSIONS = 1_000;
const EVENTS = 1_000;
const SEGMENT_BOUND = 4 * 1024 * 1024;
const WRITES = 200;
/** The targets: indexed within this many times the plain read, at this peak RSS. */
const READ_RATIO = 1.3;
const RSS_LIMIT_MB = 250;
const HERE = fileURLToPath(new URL('.', import.meta.url));

type Child = { lines: AsyncIterator<string>; write(text: string): void; end(): void; exited: Promise<void> };

function startChild(script: string, args: string[], nodeOptions: readonly string[] = []): Child {
  const child = spawn(process.execPath, [...nodeOptions, join(HERE, script), ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return { lines, write: (text) => child.stdin.write(text), end: () => child.stdin.end(), exited: new Promise((resolve) => child.once('exit', () => resolve())) };
}

/** A count a child printed; null where it printed none (null, where Linux does not say). */
const countOf = (value: number | string | undefined): number | null => (typeof value === 'number' ? value : null);

async function nextJson(child: Child): Promise<Record<string, number | string>> {
  const { value, done } = await child.lines.next();
  if (done === true) throw new Error('the bench process ended early');
  return JSON.parse(value as string) as Record<string, number | string>;
}

/** Writes the home once (kept in `dir`): whole segments at once, bytes as spex's writer lays them. */
export function generateSpexHome(dir: string, log: (message: string) => void): string {
  const home = join(dir, `spex-${SESSIONS}x${EVENTS}`);
  if (existsSync(join(home, 'done'))) return home;
  log(`generating a spex home of ${SESSIONS} × ${EVENTS} events`);
  const ids = Array.from({ length: SESSIONS }, (_, i) => `${String(i).padStart(8, '0')}-0000-4000-8000-${String(i).padStart(12, '0')}`);
  const base = Date.parse('2026-11-01T00:00:00.000Z');
  for (let s = 0; s < SESSIONS; s++) {
    const project = `-home-dev-project-${s % 20}`;
    const folder = spexSessionFolder(home, project, ids[s]!);
    mkdirSync(join(folder, 'timeline'), { recursive: true });
    writeFileSync(join(folder, 'session.json'), JSON.stringify({ session_id: ids[s], worktree_path: `/home/dev/project/${s % 20}`, branch: 'main', title: `s${s}`, name: '', parent: '', status: 'active', proposal: '', note: '', createdAt: 1, harness: 'claude', stopped: false, archived: false }));
    let segment = 1;
    let size = 0;
    let fd = openSync(join(folder, 'timeline', `${String(segment).padStart(12, '0')}.ndjson`), 'w');
    let chunk = '';
    for (let e = 0; e < EVENTS; e++) {
      const ts = new Date(base + s * 1000 + e * 60_000).toISOString();
      const event =
        e % 10 === 0
          ? { ts, kind: 'status', status: e % 20 === 0 ? 'active' : 'awaiting', proposal: e % 20 === 0 ? null : 'merge', note: e % 20 === 0 ? null : `ready for review, round ${e}` }
          : { ts, kind: 'sent', mid: `${s}-${e}-0000-4000-8000-000000000000`, text: `message ${e} to session ${s}: ${'lorem ipsum dolor sit amet '.repeat(1 + (e % 12))}`, from: e % 3 === 0 ? null : ids[(s + e) % SESSIONS], ...(e % 7 === 0 ? { replyVia: 'note' } : {}) };
      const line = `${JSON.stringify(event)}\n`;
      if (size >= SEGMENT_BOUND) {
        writeSync(fd, chunk);
        closeSync(fd);
        chunk = '';
        segment++;
        size = 0;
        fd = openSync(join(folder, 'timeline', `${String(segment).padStart(12, '0')}.ndjson`), 'w');
      }
      chunk += line;
      size += Buffer.byteLength(line);
    }
    writeSync(fd, chunk);
    closeSync(fd);
  }
  writeFileSync(join(home, 'done'), '');
  return home;
}

/** `spexSource` is the module measured: the built dist/server/spex/spexSource.js, or the source with --source. */
export async function measureSpex(spexSource: string, dir: string, log: (message: string) => void, { dropPageCache = null, pageCost = null, nodeOptions = [] }: StorePhaseOptions = {}): Promise<Row[]> {
  const home = generateSpexHome(dir, log);
  const label = dropPageCache === null ? 'spex' : 'spex from disk';
  // Both from the page cache, or both from storage: the home, kept from an earlier run, may have
  // been evicted meanwhile, and the first to read it would pay for both (the read from storage says).
  if (dropPageCache === null) {
    log('spex: a first read, to bring the home into the page cache');
    const warmUp = startChild('spexBaseline.mjs', [home]);
    await nextJson(warmUp);
    await warmUp.exited;
  }
  log('spex: plain read-and-parse baseline');
  dropPageCache?.();
  const baselineChild = startChild('spexBaseline.mjs', [home]);
  const baseline = await nextJson(baselineChild);
  await baselineChild.exited;
  log('spex: indexing by the spex source');
  dropPageCache?.();
  const child = startChild('spexProcess.mjs', [spexSource, home], nodeOptions);
  // A notice (a line written while the home is indexed) may come before the ready line.
  let ready = await nextJson(child);
  while (ready['ready'] === undefined) ready = await nextJson(child);
  log(`spex: indexed in ${Math.round(Number(ready['ready']))} ms; appending ${WRITES} lines`);
  const latencies: number[] = [];
  let missed = 0;
  for (let i = 0; i < WRITES; i++) {
    const s = (i * 37) % SESSIONS;
    const id = `${String(s).padStart(8, '0')}-0000-4000-8000-${String(s).padStart(12, '0')}`;
    const writtenAt = performance.timeOrigin + performance.now();
    appendEvent(spexSessionFolder(home, `-home-dev-project-${s % 20}`, id), { ts: new Date().toISOString(), kind: 'sent', mid: `live-${i}`, text: `live ${i}`, from: null }, { bound: SEGMENT_BOUND });
    const deadline = writtenAt + 2_000;
    let told = false;
    while (!told) {
      const next = await Promise.race([nextJson(child), new Promise<null>((resolve) => setTimeout(() => resolve(null), Math.max(0, deadline - (performance.timeOrigin + performance.now())))) ]);
      if (next === null) break;
      if (next['notice'] === id) {
        latencies.push(Number(next['at']) - writtenAt);
        told = true;
      }
    }
    if (!told) missed++;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.write('rss\n');
  let peak = await nextJson(child);
  while (peak['maxRssBytes'] === undefined || peak['notice'] !== undefined) peak = await nextJson(child);
  child.end();
  await child.exited;
  const ratio = Number(ready['ready']) / Number(baseline['ms']);
  const p95 = percentile(latencies, 95);
  const mb = (bytes: number | string) => Number(bytes) / 1024 / 1024;
  return [
    {
      measure: `${label}: ${Number(baseline['lines']).toLocaleString('en-US')} lines in ${Number(baseline['files']).toLocaleString('en-US')} segments indexed`,
      value: Number(ready['ready']),
      unit: 'ms',
      baseline: { value: Number(baseline['ms']), what: 'plain read, split and JSON.parse of the same files' },
      ratio,
      target: `≤ ${READ_RATIO}×`,
      met: ratio <= READ_RATIO,
      note: `CPU time ${Math.round(Number(ready['cpuMs']))} ms, ${(Number(ready['cpuMs']) / Number(baseline['cpuMs'])).toFixed(2)}× the plain read's ${Math.round(Number(baseline['cpuMs']))} ms; ${ready['conversations']} sessions listed; the list's summaries made in ${Math.round(Number(ready['listedMs']) - Number(ready['ready']))} ms more; ${storageNote(ready['diskReadBytes'], baseline['diskReadBytes'])}`,
    },
    ...[freshPagesRow(`${label}: fresh pages to indexed`, [countOf(ready['minorFaults'])], [countOf(baseline['minorFaults'])], 'plain read', pageCost)].filter((row) => row !== null),
    { measure: `${label}: line appended → notice`, value: p95, unit: 'ms', target: 'p95 ≤ 50 ms', met: p95 <= 50, note: `p50 ${percentile(latencies, 50).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms; ${latencies.length} of ${WRITES} told${missed > 0 ? `, ${missed} not within 2 s` : ''}` },
    { measure: `${label}: peak RSS`, value: mb(peak['maxRssBytes']!), unit: 'MB', target: `≤ ${RSS_LIMIT_MB} MB`, met: mb(peak['maxRssBytes']!) <= RSS_LIMIT_MB, baseline: { value: mb(baseline['maxRssBytes']!), what: 'the plain read' }, note: `${mb(ready['rssBytes']!).toFixed(0)} MB once indexed; ${spexSource.endsWith('.ts') ? 'the source, run with type stripping' : 'the built module'}` },
  ];
}

import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectEvents, startDashboardProcess } from './dashboardProcess.ts';

// Where the first scan's time goes: the real command started with V8's CPU profiler on every
// thread (`node --cpu-prof`: the main thread and each worker write a profile of their own),
// stopped once the record is indexed; each thread's profile summarised by the functions that
// spent the time themselves, and by what they were doing.

/** What a thread spent its time on, by the function that spent it. */
const CATEGORIES: { name: string; matches: (fn: string, url: string) => boolean }[] = [
  { name: 'gc', matches: (fn) => fn === '(garbage collector)' },
  { name: 'read', matches: (fn) => /^(open|read|close|fstat|lstat|readdir|stat|openSync|readSync|closeSync|fstatSync|lstatSync|readdirSync|getStatsFromBinding|listFolder|readRecordFile|readFileUtf8|readFileSync|tryStatSync|tryReadSync)$/.test(fn) },
  { name: 'decode', matches: (fn) => /^(decode|decodeUTF8|utf8Slice|toString)$/.test(fn) },
  { name: 'parse & check', matches: (fn, url) => /jsonText|entry\.[jt]s|leanEntry|entryName/.test(url) || url.includes('/zod/') || /^(parse|JSON\.parse)$/.test(fn) },
  { name: 'fingerprint', matches: (fn) => /^(hash|digest|fingerprintEntry|fingerprintOf)$/.test(fn) },
  { name: 'post', matches: (fn, url) => /^(postMessage|serialize|deserialize|structuredClone)$/.test(fn) || /messageport|serializer|scanLooks|js_transferable/.test(url) },
  { name: 'index', matches: (_fn, url) => /recordIndex|observation|recordWatcher|recordLooks|recordEvents|recordReconcile|reconcileSlices|scanHandOver|recordStatus|recordReader|knownFile|retryQueue|session\.[jt]s/.test(url) },
  { name: 'scan loop', matches: (_fn, url) => /scanWorker|scanPool|scanFolder|headStart|lookAtFile/.test(url) },
  { name: 'watch', matches: (fn, url) => /chokidar|readdirp|fs\/watchers|folderWatch|sessionFolderWatches/.test(url) || fn === 'FSWatcher.<computed>' },
  { name: 'modules', matches: (fn, url) => /esm\/|cjs\/loader|bootstrap\/realm|modules\/|compileSourceTextModule|wrapSafe/.test(`${url} ${fn}`) || fn === 'internalModuleStat' },
  { name: 'http', matches: (_fn, url) => /fastify|avvio|light-my-request|find-my-way|pino|http|net/.test(url) },
];

type CpuProfile = {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
};

export type ThreadProfile = {
  /** `main`, or `worker <n>` in the order the threads started. */
  thread: string;
  /** µs, from the profile's own clock: how long the thread ran, and how much of it was idle. */
  durationMs: number;
  busyMs: number;
  startedAfterMs: number;
  top: { fn: string; ms: number; share: number }[];
  categories: Record<string, number>;
};

/** Summarises one profile: time by function (self time) and by category, idle left out. */
function summarise(profile: CpuProfile, thread: string, origin: number): ThreadProfile {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const byFunction = new Map<string, { fn: string; url: string; us: number }>();
  let busy = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const frame = frames.get(profile.samples[i]!)!;
    const us = profile.timeDeltas[i] ?? 0;
    if (frame.functionName === '(idle)') continue;
    busy += us;
    const where = frame.url.split('/').slice(-2).join('/');
    const key = `${frame.functionName || '(anonymous)'} ${where}${where === '' ? '' : `:${frame.lineNumber + 1}`}`;
    const entry = byFunction.get(key) ?? { fn: frame.functionName, url: frame.url, us: 0 };
    entry.us += us;
    byFunction.set(key, entry);
  }
  const categories: Record<string, number> = {};
  for (const { fn, url, us } of byFunction.values()) {
    const name = CATEGORIES.find((category) => category.matches(fn, url))?.name ?? 'other';
    categories[name] = (categories[name] ?? 0) + us / 1000;
  }
  const top = [...byFunction]
    .sort((a, b) => b[1].us - a[1].us)
    .slice(0, 15)
    .map(([fn, { us }]) => ({ fn, ms: us / 1000, share: us / busy }));
  return { thread, durationMs: (profile.endTime - profile.startTime) / 1000, busyMs: busy / 1000, startedAfterMs: (profile.startTime - origin) / 1000, top, categories };
}

/**
 * Starts the command on a record with the CPU profiler on, waits until the record is indexed,
 * stops it, and summarises each thread's profile. The profiler itself slows the threads a little:
 * the shares are what matters, not the times.
 */
export async function profileFirstScan(bin: string, recordDir: string): Promise<{ readyMs: number; threads: ThreadProfile[] }> {
  const out = mkdtempSync(join(tmpdir(), 'rec-bench-profile-'));
  try {
    const dashboard = await startDashboardProcess(bin, recordDir, ['--cpu-prof', `--cpu-prof-dir=${out}`, '--cpu-prof-interval=250']);
    let readyMs: number;
    try {
      const events = await connectEvents(dashboard.url);
      const ready = await events.next((n) => n.event.type === 'source' && n.event.source.indexing.state === 'ready', 600_000);
      readyMs = ready.at - dashboard.spawnedAt;
      events.close();
    } finally {
      await dashboard.stop();
    }
    // One file a thread, named CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile.
    const files = readdirSync(out)
      .filter((name) => name.endsWith('.cpuprofile'))
      .map((name) => ({ name, thread: Number(name.split('.').at(-3)) }))
      .sort((a, b) => a.thread - b.thread);
    const profiles = files.map((file) => JSON.parse(readFileSync(join(out, file.name), 'utf8')) as CpuProfile);
    const origin = Math.min(...profiles.map((profile) => profile.startTime));
    return { readyMs, threads: profiles.map((profile, i) => summarise(profile, files[i]!.thread === 0 ? 'main' : `worker ${files[i]!.thread}`, origin)) };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The summary as lines of text, for the bench's log. */
export function describeProfile(threads: ThreadProfile[]): string[] {
  const lines: string[] = [];
  for (const thread of threads) {
    lines.push(`${thread.thread}: busy ${Math.round(thread.busyMs)} ms of ${Math.round(thread.durationMs)} ms, started at ${Math.round(thread.startedAfterMs)} ms`);
    const shares = Object.entries(thread.categories).sort((a, b) => b[1] - a[1]);
    lines.push(`  by what: ${shares.map(([name, ms]) => `${name} ${Math.round((100 * ms) / thread.busyMs)}%`).join(', ')}`);
    for (const { fn, ms, share } of thread.top.slice(0, 10)) lines.push(`  ${ms.toFixed(0).padStart(6)} ms ${(share * 100).toFixed(1).padStart(5)}%  ${fn}`);
  }
  return lines;
}

import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { entryFileName } from '../../server/demo/entryFile.ts';
import { connectEvents, startDashboardProcess, timedGet, type DashboardProcess } from './dashboardProcess.ts';
import { readCpuMs, readMainThreadCpuMs, readPeakRss, readThreadsCpuMs, type ThreadCpu } from './proc.ts';
import { readMinorFaults } from './freshPages.mjs';
import { readStorageBytes } from './storageReads.mjs';

const run = promisify(execFile);
const SCAN_SCRIPT = fileURLToPath(new URL('./baselineScan.ts', import.meta.url));

/**
 * `cpuMs` is the scan process's CPU time, start-up included; `diskReadBytes`, what it read from
 * storage; `minorFaults`, the fresh pages it touched (null: not counted).
 */
export type BaselineScan = { files: number; bytes: number; unparsed: number; ms: number; cpuMs: number; wallMs: number; maxRssBytes: number; diskReadBytes: number | null; minorFaults: number | null };

/** The plain synchronous scan, in a fresh process; wallMs is from spawn to exit. */
export async function runBaselineScan(recordDir: string, listOnly = false): Promise<BaselineScan> {
  const started = performance.now();
  const { stdout } = await run(process.execPath, [SCAN_SCRIPT, recordDir, ...(listOnly ? ['--list'] : [])], { maxBuffer: 1 << 20 });
  const wallMs = performance.now() - started;
  return { ...(JSON.parse(stdout) as Omit<BaselineScan, 'wallMs'>), wallMs };
}

export type ColdStart = {
  /** From spawn: the address printed, the first answer of /api/sessions, indexing ready, a new file noticed. */
  urlMs: number;
  firstAnswerMs: number;
  /** CPU time of the command's main thread when its first answer came: the work the answer waited for, whatever the load. */
  mainCpuMsToFirstAnswer: number;
  firstAnswer: { state: string; files: number; sessions: number };
  readyMs: number;
  readyFiles: number;
  /** CPU time of every thread of the command, from its start to indexing ready. */
  cpuMsToReady: number;
  /** What the command had read from storage, not the page cache, by indexing ready (null: not counted). */
  diskReadBytesToReady: number | null;
  /** The fresh pages the command had touched by indexing ready: its minor page faults, every thread (null: not counted). */
  minorFaultsToReady: number | null;
  /** CPU time of the command's main thread to indexing ready: start-up, answering, and concluding what the scan threads read. */
  mainCpuMsToReady: number;
  /** CPU time to indexing ready of each kind of thread: the same work as cpuMsToReady, told apart. */
  threadsCpuMsToReady: ThreadsCpu;
  liveMs: number;
  peakRssAtReadyBytes: number;
  peakRssBytes: number;
  cpuMsToLive: number;
  watcherErrors: string[];
};

/**
 * Starts the real command on a record and times it: when the API first answers (and with what
 * progress), when indexing is ready, and when a file written after that is noticed (the watcher
 * is live). Returns the running process for further phases.
 */
export async function measureColdStart(bin: string, recordDir: string, probeSession: string): Promise<{ result: ColdStart; dashboard: DashboardProcess }> {
  const dashboard = await startDashboardProcess(bin, recordDir);
  const { spawnedAt } = dashboard;
  const first = await timedGet<{ sources: { indexing: { state: string; files: number } }[]; projects: { sessions: unknown[] }[] }>(dashboard.url, '/api/sessions');
  const firstAnswerMs = performance.now() - spawnedAt;
  const mainCpuMsToFirstAnswer = readMainThreadCpuMs(dashboard.pid) ?? 0;
  const threads = watchThreads(dashboard.pid);
  const events = await connectEvents(dashboard.url);
  const ready = await events.next((n) => n.event.type === 'source' && n.event.source.indexing.state === 'ready', 600_000);
  const cpuMsToReady = readCpuMs(dashboard.pid) ?? 0;
  const diskReadBytesToReady = readStorageBytes(dashboard.pid);
  const minorFaultsToReady = readMinorFaults(dashboard.pid);
  const mainCpuMsToReady = readMainThreadCpuMs(dashboard.pid) ?? 0;
  const threadsCpuMsToReady = groupThreads(dashboard.pid, threads.stop());
  const peakRssAtReadyBytes = readPeakRss(dashboard.pid) ?? 0;

  // A file written once the index is ready: noticed when the watcher (or the reconcile that
  // follows its walk) is live.
  const folder = join(recordDir, probeSession);
  mkdirSync(folder, { recursive: true });
  const at = new Date().toISOString();
  writeFileSync(
    join(folder, entryFileName(at, 1)),
    JSON.stringify({ kind: 'start', sessionId: probeSession, at, cwd: '/home/dev/projects/bench', host: 'claude-code', version: '2.1.314', inbound: 'accept' }),
  );
  const live = await events.next((n) => n.event.type === 'session-changed' && n.event.sessionId === probeSession, 600_000);
  const cpuMsToLive = readCpuMs(dashboard.pid) ?? 0;
  events.close();
  await settle(dashboard.pid, 2_000, 120_000);
  return {
    dashboard,
    result: {
      urlMs: dashboard.urlAt - spawnedAt,
      firstAnswerMs,
      mainCpuMsToFirstAnswer,
      firstAnswer: {
        state: first.body.sources[0]!.indexing.state,
        files: first.body.sources[0]!.indexing.files,
        sessions: first.body.projects.reduce((n, p) => n + p.sessions.length, 0),
      },
      readyMs: ready.at - spawnedAt,
      cpuMsToReady,
      diskReadBytesToReady,
      minorFaultsToReady,
      mainCpuMsToReady,
      threadsCpuMsToReady,
      readyFiles: ready.event.type === 'source' ? ready.event.source.indexing.files : 0,
      liveMs: live.at - spawnedAt,
      peakRssAtReadyBytes,
      peakRssBytes: readPeakRss(dashboard.pid) ?? 0,
      cpuMsToLive,
      watcherErrors: dashboard.stderr.filter((line) => /watcher|ENOSPC|EMFILE/i.test(line)),
    },
  };
}

/**
 * Each kind of thread's CPU: the main thread; each scan thread (named rec-scan; an older build's
 * are Node's unnamed WorkerThread); V8's helpers (the collector's parallel and concurrent work,
 * the compiler's); the rest (libuv's pool, the inspector's).
 */
export type ThreadsCpu = { main: number; scan: number[]; v8: number; other: number };

/**
 * Samples every thread's CPU until stopped, keeping each thread's last figure: a scan thread ends
 * before the index is ready, and its figure in /proc with it. At most one sample (50 ms) of an
 * ended thread's work is missed, and all of a thread that ended before the first sample (taken at
 * the first answer: a record small enough to be read by then); cpuMsToReady, the process's, misses none.
 */
function watchThreads(pid: number): { stop(): ThreadCpu[] } {
  const last = new Map<number, ThreadCpu>();
  const sample = () => {
    for (const thread of readThreadsCpuMs(pid)) last.set(thread.tid, thread);
  };
  sample();
  const timer = setInterval(sample, 50);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return [...last.values()];
    },
  };
}

function groupThreads(pid: number, threads: ThreadCpu[]): ThreadsCpu {
  const grouped: ThreadsCpu = { main: 0, scan: [], v8: 0, other: 0 };
  for (const thread of threads) {
    if (thread.tid === pid) grouped.main += thread.cpuMs;
    else if (thread.name === 'rec-scan' || thread.name === 'WorkerThread') grouped.scan.push(thread.cpuMs);
    else if (thread.name === 'V8Worker' || thread.name === 'DelayedTaskSche') grouped.v8 += thread.cpuMs;
    else grouped.other += thread.cpuMs;
  }
  return grouped;
}

export function removeProbe(recordDir: string, probeSession: string): void {
  rmSync(join(recordDir, probeSession), { recursive: true, force: true });
}

/** Waits until the process has used no CPU for `quietMs` (its startup work is over). */
export async function settle(pid: number, quietMs: number, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  let last = readCpuMs(pid);
  let quietSince = performance.now();
  while (performance.now() < deadline) {
    await sleep(100);
    const now = readCpuMs(pid);
    if (now === null) return;
    if (now !== last) quietSince = performance.now();
    last = now;
    if (performance.now() - quietSince >= quietMs) return;
  }
}

export type IdleSample = {
  seconds: number;
  cpuMs: number;
  /** CPU used outside bursts (what a polling loop would show). */
  steadyCpuMs: number;
  /** Bursts of activity (a reconcile, a keepalive): their CPU time each. */
  bursts: { atSeconds: number; cpuMs: number }[];
};

/** Samples CPU time every 100 ms for `seconds`, and finds the bursts in it. */
export async function measureIdle(pid: number, seconds: number): Promise<IdleSample> {
  const started = performance.now();
  const first = readCpuMs(pid) ?? 0;
  let previous = first;
  const bursts: IdleSample['bursts'] = [];
  let current: { atSeconds: number; cpuMs: number } | null = null;
  let quietSamples = 0;
  while (performance.now() - started < seconds * 1000) {
    await sleep(100);
    const now = readCpuMs(pid) ?? previous;
    const used = now - previous;
    previous = now;
    if (used > 0) {
      current ??= { atSeconds: (performance.now() - started) / 1000, cpuMs: 0 };
      current.cpuMs += used;
      quietSamples = 0;
    } else if (current !== null && ++quietSamples >= 3) {
      bursts.push(current);
      current = null;
    }
  }
  if (current !== null) bursts.push(current);
  const cpuMs = previous - first;
  // A burst of one tick is the clock's resolution, not work; bursts over 20 ms are reconciles.
  const big = bursts.filter((burst) => burst.cpuMs > 20);
  return { seconds, cpuMs, steadyCpuMs: cpuMs - big.reduce((n, b) => n + b.cpuMs, 0), bursts };
}

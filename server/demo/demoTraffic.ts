import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { writeBacklog } from './demoBacklog.ts';
import type { Backlog } from './demoBacklog.ts';
import { runSacDemo } from './sacDemo.ts';
import { runSpexDemo } from './spexDemo.ts';
import {
  chooseOutcome,
  createDemoSession,
  REFUSED_REASON,
  socketOf,
  writeReceived,
  writeSent,
  writeStart,
} from './demoSessions.ts';
import type { DemoSession, Pace, Peer } from './demoSessions.ts';
import { createSeededRandom } from '../../shared/seededRandom.ts';

// The demo: when rec-dashboard starts without a record directory it runs this over a temporary
// one, so a newcomer sees the product work at once. It writes a backlog, then live traffic the way
// the plugin in a few sessions would: the sender's sent entry, then the receiver's received entry,
// some written slowly so that a reader sees a pending file become an entry.
//
//   node server/demo/demoTraffic.ts <recordDir>     (DEMO_INTERVAL_MS, DEMO_SEED optional)

export type DemoOptions = {
  /** Live pace: one message every 1–3 × intervalMs; other delays scale with it. Default: DEMO_INTERVAL_MS, else 1000. */
  intervalMs?: number;
  /** Seeds the demo's choices, so a test can repeat a run. */
  seed?: number;
  /** The share of live writes done slowly, in chunks (default 0.3). */
  slowShare?: number;
  /** Called once the backlog is on disk. */
  onBacklog?: (backlog: Backlog) => void;
  /** A failed live write is reported and the demo goes on (rule.recordingMayFail). */
  onError?: (error: Error) => void;
};

type Live = { recordDir: string; sessions: DemoSession[]; random: () => number; scale: number; slowShare: number };

const MAX_SESSIONS = 12;

const LIVE_TEXTS = [
  'Pushed the fix for the flaky checkout test, can you re-run CI?',
  'Does anything still read the legacy_orders table?',
  'I bumped zod to v4 in the API; the shared schemas compile on my side.',
  'Heads-up: I am renaming OrderLine.qty to quantity in the next commit.',
  'Migration 0042 is applied on staging.',
  'Can you review PR #418? It touches the cart reducer.',
  'The docs build is failing on a broken link to /v1/refunds.',
  'Which port does the mock server listen on now?',
  'Lint is clean. Two TODOs left in src/cart/totals.ts.',
  'I will take the pagination bug, you keep the currency work.',
  'Rolled back the cache change, p95 went from 180ms to 900ms.',
  'Is it fine if I regenerate the OpenAPI client?',
  'Yes, go ahead.',
  'Found it: the timezone was applied twice in formatDate().',
  'Tests pass locally but the e2e job times out after 10 minutes.',
  'Please do not touch package-lock.json for now, I am mid-upgrade.',
];

/**
 * Writes the backlog at once, then live traffic until `signal` aborts. A write in progress when it
 * aborts is finished, so the demo never leaves a damaged file it did not mean to.
 */
export async function runDemo(recordDir: string, signal: AbortSignal, options: DemoOptions = {}): Promise<void> {
  const intervalMs = options.intervalMs ?? readIntervalFromEnv() ?? 1000;
  const random = options.seed === undefined ? Math.random : createSeededRandom(options.seed);
  const onError = options.onError ?? ((error: Error) => process.stderr.write(`demo: ${error.message}\n`));
  await mkdir(recordDir, { recursive: true });
  const backlog = await writeBacklog(recordDir, new Date());
  options.onBacklog?.(backlog);
  const live: Live = {
    recordDir,
    sessions: [...backlog.live],
    random,
    scale: intervalMs / 1000,
    slowShare: options.slowShare ?? 0.3,
  };
  while (await pause(intervalMs * (1 + 2 * random()), signal)) {
    try {
      if (random() < 0.08 && live.sessions.length < MAX_SESSIONS) await startLiveSession(live);
      else await sendLiveMessage(live, signal);
    } catch (error) {
      onError(error as Error);
    }
  }
}

/** One session sends to another: its sent entry, then shortly after the receiver's received entry. */
async function sendLiveMessage(live: Live, signal: AbortSignal): Promise<void> {
  const from = pickOne(live.sessions, live.random);
  const to = pickOne(
    live.sessions.filter((session) => session !== from),
    live.random,
  );
  const text = pickOne(LIVE_TEXTS, live.random);
  const peer = choosePeer(to, live.random);
  if (to.inbound === 'refuse') {
    // Refused before the receiver's mod saw it: the sent entry is all the record holds.
    await writeSent(live.recordDir, from, new Date(), peer, text, { isQueued: false, reason: REFUSED_REASON }, choosePace(live));
    return;
  }
  await writeSent(live.recordDir, from, new Date(), peer, text, { isQueued: true }, choosePace(live));
  if (!(await pause(live.scale * (150 + 450 * live.random()), signal))) return;
  await writeReceived(live.recordDir, to, new Date(), from, text, chooseOutcome(to, live.random), choosePace(live));
}

/** A new session starts in one of the projects: its mod loads and writes a start entry. */
async function startLiveSession(live: Live): Promise<void> {
  const cwd = pickOne([...new Set(live.sessions.map((session) => session.cwd))], live.random);
  const name = `${path.posix.basename(cwd)}-${live.sessions.length + 1}`;
  const inbound = live.random() < 0.8 ? 'accept' : 'hold';
  const session = createDemoSession(cwd, name, 10_000 + Math.floor(live.random() * 50_000), inbound);
  await writeStart(live.recordDir, session, new Date());
  live.sessions.push(session);
}

/** The host names a peer by socket address, by name, or rarely as a session id the plugin resolved. */
function choosePeer(to: DemoSession, random: () => number): Peer {
  const roll = random();
  if (roll < 0.55) return { as: socketOf(to) };
  if (roll < 0.9) return { as: to.name };
  return { as: to.name, sessionId: to.id };
}

function choosePace(live: Live): Pace {
  if (live.random() >= live.slowShare) return {};
  return { chunkBytes: 48 + Math.floor(live.random() * 64), chunkDelayMs: live.scale * (100 + 200 * live.random()) };
}

function pickOne<T>(items: readonly T[], random: () => number): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('nothing to pick from');
  return item;
}

/** Waits, and says whether the demo should go on. */
async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

function readIntervalFromEnv(): number | undefined {
  const value = Number(process.env['DEMO_INTERVAL_MS']);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/**
 * The script: runs until SIGTERM or SIGINT, then exits 0 once the write in progress is done.
 * Started by the dashboard (an IPC channel), it also stops when the dashboard is gone; with
 * --temporary the record is in the dashboard's temporary demo folder (its parent), and it then
 * removes that folder, with every store the demo wrote in it. With --spex and --sac it also
 * writes a spex home and a set-agent-comm store, whose sessions are the record's.
 */
async function runDemoScript(args: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { temporary: { type: 'boolean' }, spex: { type: 'string' }, sac: { type: 'string' } } });
  } catch {
    parsed = null;
  }
  const recordDir = parsed?.positionals[0];
  if (parsed === null || recordDir === undefined || parsed.positionals.length > 1) {
    process.stderr.write('usage: node demoTraffic.ts <recordDir> [--spex <home>] [--sac <root>] [--temporary]\n');
    process.exit(2);
  }
  const { temporary, spex, sac } = parsed.values;
  // A parent that stops reading our one line must not take the demo down with it.
  process.stdout.on('error', () => {});
  const controller = new AbortController();
  let orphaned = false;
  process.once('SIGTERM', () => controller.abort());
  process.once('SIGINT', () => controller.abort());
  if (process.channel !== undefined) {
    process.once('disconnect', () => {
      orphaned = true;
      controller.abort();
    });
  }
  const seed = Number(process.env['DEMO_SEED']);
  const others: Promise<void>[] = [];
  const onError = (error: Error): void => {
    process.stderr.write(`demo: ${error.message}\n`);
  };
  await runDemo(path.resolve(recordDir), controller.signal, {
    ...(Number.isInteger(seed) && process.env['DEMO_SEED'] !== '' ? { seed } : {}),
    onBacklog: (backlog) => {
      // The same sessions talk in every store, so a session is seen in each of them.
      const places = backlog.live.map((session) => ({ id: session.id, cwd: session.cwd }));
      if (spex !== undefined) others.push(runSpexDemo(path.resolve(spex), controller.signal, { sessions: places, onError }).catch(onError));
      if (sac !== undefined) {
        const sessions = backlog.live.map((session) => ({ id: session.id, cwd: session.cwd, name: path.posix.basename(session.cwd) }));
        others.push(runSacDemo(path.resolve(sac), sessions, controller.signal, { onError }).catch(onError));
      }
      process.stdout.write(`${JSON.stringify({ ready: true, recordDir: path.resolve(recordDir) })}\n`);
    },
  });
  await Promise.all(others);
  // Removed only once nothing is writing to it any more, or a late write would make it again.
  if (orphaned && temporary === true) await rm(path.dirname(path.resolve(recordDir)), { recursive: true, force: true });
  process.exit(0);
}

if (import.meta.main) await runDemoScript(process.argv.slice(2));

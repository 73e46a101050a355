import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { readEntry } from '../../shared/record/entry.ts';
import type { EntryReading } from '../../shared/record/entry.ts';
import { compareEntryNames, parseEntryName } from '../../shared/record/entryName.ts';
import type { EntryName } from '../../shared/record/entryName.ts';
import type { Backlog } from './demoBacklog.ts';
import { runDemo } from './demoTraffic.ts';
import type { DemoOptions } from './demoTraffic.ts';

type Found = { session: string; file: string; name: EntryName | null; reading: EntryReading; size: number; mtimeMs: number };
type Value = Record<string, unknown>;

const temps: string[] = [];
after(async () => {
  await Promise.all(temps.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function makeRecordDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rec-demo-'));
  temps.push(dir);
  return dir;
}

/**
 * Runs the demo in-process until `until` says stop, then aborts it. The time limit only stops a
 * demo that never gets there: the test's assertions then say what it lacked.
 */
async function runDemoUntil(dir: string, options: DemoOptions, until: () => Promise<boolean>, limitMs = 30_000) {
  const controller = new AbortController();
  let backlog: Backlog | null = null;
  const running = runDemo(dir, controller.signal, { ...options, onBacklog: (b) => (backlog = b), onError: (e) => assert.fail(e) });
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline && (backlog === null || !(await until()))) await sleep(20);
  controller.abort();
  await running;
  assert.ok(backlog !== null, 'the backlog was written');
  return backlog as Backlog;
}

async function scanRecord(dir: string): Promise<Found[]> {
  const found: Found[] = [];
  for (const session of await readdir(dir)) {
    for (const name of await readdir(path.join(dir, session))) {
      const file = path.join(dir, session, name);
      const info = await stat(file);
      found.push({ session, file, name: parseEntryName(name), reading: readEntry(await readFile(file)), size: info.size, mtimeMs: info.mtimeMs });
    }
  }
  return found;
}

function entriesOf(found: Found[]): Value[] {
  return found.flatMap((f) => (f.reading.outcome === 'entry' ? [f.reading.value] : []));
}

function messagesOf(found: Found[], side?: 'sent' | 'received'): Value[] {
  return entriesOf(found).filter((e) => e['kind'] === 'message' && (side === undefined || e['side'] === side));
}

/** Every file is a valid entry of its own folder named by its own time, or one of the demo's two deliberate oddities. */
function assertOnlyDeliberateOddities(found: Found[], backlog: Backlog): void {
  for (const f of found) {
    if (f.name === null) {
      assert.equal(path.basename(f.file), 'notes.txt', `unexpected stray file ${f.file}`);
      continue;
    }
    if (f.file === backlog.cutShortFile) {
      assert.equal(f.reading.outcome, 'unparsed', 'the cut-short file never parses');
      continue;
    }
    assert.equal(f.reading.outcome, 'entry', `${f.file}: ${f.reading.outcome !== 'entry' ? f.reading.why : ''}`);
    if (f.reading.outcome !== 'entry') continue;
    assert.equal(f.reading.facts.kind === 'unknown', false, `${f.file} has an unknown kind`);
    assert.equal(f.reading.facts.sessionId, f.session, `${f.file} names another session`);
    assert.equal(f.reading.facts.at, f.name.at, `${f.file} is not named by its own time`);
  }
  assert.equal(found.filter((f) => f.name === null).length, 1, 'exactly one stray file');
}

/** Gaps in the sequence within each run; a run begins at a start entry with seq 1. */
function countGaps(found: Found[]): number {
  let gaps = 0;
  for (const session of new Set(found.map((f) => f.session))) {
    const named = found.filter((f) => f.session === session && f.name !== null);
    named.sort((a, b) => compareEntryNames(a.name as EntryName, b.name as EntryName));
    let previous: number | null = null;
    for (const f of named) {
      const seq = Number((f.name as EntryName).seq);
      const isStart = f.reading.outcome === 'entry' && f.reading.facts.kind === 'start';
      if (isStart) assert.equal(seq, 1, `${f.file}: a start entry restarts the sequence at 1`);
      else if (previous !== null && seq !== previous + 1) gaps += 1;
      previous = seq;
    }
  }
  return gaps;
}

describe('the demo backlog', () => {
  let found: Found[] = [];
  let backlog: Backlog;
  const startedAt = Date.now();
  before(async () => {
    const dir = await makeRecordDir();
    backlog = await runDemoUntil(dir, { intervalMs: 60_000, seed: 1 }, async () => true);
    found = await scanRecord(dir);
  });

  test('every file the backlog writes is a valid entry, or the one stray file and the one cut-short file it means to write', () => {
    assertOnlyDeliberateOddities(found, backlog);
    assert.equal(found.filter((f) => f.reading.outcome !== 'entry').length, 2);
  });

  test('it spans three projects and several sessions, each by its cwd', () => {
    const starts = entriesOf(found).filter((e) => e['kind'] === 'start');
    assert.deepEqual([...new Set(starts.map((e) => e['cwd']))].sort(), [
      '/home/dev/projects/api-service',
      '/home/dev/projects/docs',
      '/home/dev/projects/web-app',
    ]);
    assert.ok(new Set(found.map((f) => f.session)).size >= 5);
  });

  test('it includes a refused send, and the refusing session holds no received entry', () => {
    const refused = messagesOf(found, 'sent').filter((e) => e['isQueued'] === false);
    assert.ok(refused.length >= 1 && refused.every((e) => typeof e['reason'] === 'string' && e['reason'] !== ''));
    const refusers = entriesOf(found).filter((e) => e['kind'] === 'start' && e['inbound'] === 'refuse').map((e) => e['sessionId']);
    assert.equal(refusers.length, 1);
    assert.deepEqual(messagesOf(found, 'received').filter((e) => refusers.includes(e['sessionId'])), []);
  });

  test('it includes every receive outcome, and a holding session receives only queued', () => {
    assert.deepEqual([...new Set(messagesOf(found, 'received').map((e) => e['outcome']))].sort(), ['consumed', 'queued', 'rejected', 'unknown']);
    const holders = entriesOf(found).filter((e) => e['kind'] === 'start' && e['inbound'] === 'hold').map((e) => e['sessionId']);
    const held = messagesOf(found, 'received').filter((e) => holders.includes(e['sessionId']));
    assert.ok(held.length >= 1 && held.every((e) => e['outcome'] === 'queued'));
  });

  test('it names peers by socket address, by name, and once as a resolved session id of a real session', () => {
    const peers = messagesOf(found, 'sent').map((e) => e['peer'] as { as: string; sessionId?: string });
    assert.ok(peers.some((p) => /^uds:\/tmp\/cc-socks\/\d+\.sock$/.test(p.as)));
    assert.ok(peers.some((p) => p.as === 'api-service'));
    const resolved = peers.filter((p) => p.sessionId !== undefined);
    assert.equal(resolved.length, 1);
    assert.ok(found.some((f) => f.session === resolved[0]?.sessionId));
  });

  test('it includes a metadata-only session, whose messages hold a length and hash and no text', () => {
    const withheld = messagesOf(found).filter((e) => !('text' in e));
    assert.ok(withheld.length >= 2);
    assert.ok(withheld.every((e) => typeof e['textLength'] === 'number' && /^sha256:[0-9a-f]{64}$/.test(String(e['textHash']))));
    const session = withheld[0]?.['sessionId'];
    assert.ok(messagesOf(found).filter((e) => e['sessionId'] === session).every((e) => !('text' in e)));
  });

  test('it includes a chain child whose parent is another demo session', () => {
    const chains = entriesOf(found).filter((e) => e['kind'] === 'chain');
    assert.equal(chains.length, 1);
    const chain = chains[0] as Value;
    assert.notEqual(chain['parent'], chain['sessionId']);
    assert.ok(entriesOf(found).some((e) => e['kind'] === 'start' && e['sessionId'] === chain['parent']));
    assert.equal(chain['part'], 1);
    assert.ok(String(chain['brief']).length > 0);
  });

  test('it includes a resumed session: a second start entry whose sequence restarts at 1', () => {
    const startsBySession = new Map<string, Found[]>();
    for (const f of found) {
      if (f.reading.outcome === 'entry' && f.reading.facts.kind === 'start') startsBySession.set(f.session, [...(startsBySession.get(f.session) ?? []), f]);
    }
    const resumed = [...startsBySession.values()].filter((starts) => starts.length >= 2);
    assert.ok(resumed.length >= 1);
    assert.ok(resumed.every((starts) => starts.every((f) => f.name?.seq === 1)));
  });

  test('it includes a write cut short, named and dated about a minute before the demo started', () => {
    const damaged = found.filter((f) => f.name !== null && f.reading.outcome !== 'entry');
    assert.equal(damaged.length, 1);
    const [cut] = damaged as [Found];
    assert.equal(cut.file, backlog.cutShortFile);
    assert.ok(cut.size > 0);
    const age = startedAt - Date.parse(cut.name?.at ?? '');
    assert.ok(age > 50_000 && age < 70_000, `name time ${age} ms old`);
    assert.ok(Math.abs(cut.mtimeMs - Date.parse(cut.name?.at ?? '')) < 1000, 'mtime matches its name time');
  });

  test('it includes exactly one gap in a sequence, and a session folder without a start entry', () => {
    assert.equal(countGaps(found), 1);
    const sessions = new Set(found.map((f) => f.session));
    const withoutStart = [...sessions].filter((s) => !found.some((f) => f.session === s && f.reading.outcome === 'entry' && f.reading.facts.kind === 'start'));
    assert.deepEqual(withoutStart, [backlog.withoutStart.id]);
    assert.ok(found.some((f) => f.session === withoutStart[0] && f.reading.outcome === 'entry'));
  });

  test('it includes identical text from two peers to one session, awkward characters, HTML and a ~20 KB text', () => {
    const received = messagesOf(found, 'received');
    const byKey = new Map<string, Set<string>>();
    for (const e of received) {
      const key = `${e['sessionId']}\u0000${e['text']}`;
      byKey.set(key, (byKey.get(key) ?? new Set()).add((e['peer'] as { as: string }).as));
    }
    assert.ok([...byKey.values()].some((peers) => peers.size >= 2), 'two peers, identical text, one receiver');
    const texts = messagesOf(found).map((e) => String(e['text'] ?? ''));
    assert.ok(texts.some((t) => ['\r\n', '\t', '🚀', '\u200B', '\u202E'].every((c) => t.includes(c))));
    assert.ok(texts.some((t) => t.includes('<script>')));
    assert.ok(texts.some((t) => Buffer.byteLength(t) >= 20_000 && Buffer.byteLength(t) < 25_000));
  });
});

test('every file the demo writes, live traffic included, is a valid entry or one of its deliberate damaged/stray files, and follows the inbound settings', async () => {
  const dir = await makeRecordDir();
  const runStart = new Date().toISOString();
  const isLive = (f: Found) => f.reading.outcome === 'entry' && (f.reading.facts.at ?? '') >= runStart;
  const backlog = await runDemoUntil(dir, { intervalMs: 20, seed: 7 }, async () => (await scanRecord(dir)).filter(isLive).length >= 40);
  const found = await scanRecord(dir);
  assertOnlyDeliberateOddities(found, backlog);
  const live = found.filter(isLive);
  assert.ok(live.length >= 40, `live entries: ${live.length}`);
  const liveMessages = messagesOf(live);
  assert.ok(liveMessages.some((e) => e['side'] === 'sent') && liveMessages.some((e) => e['side'] === 'received'));
  assert.equal(countGaps(found), 1, 'live traffic adds no gap of its own');
  const refusers = entriesOf(found).filter((e) => e['kind'] === 'start' && e['inbound'] === 'refuse').map((e) => e['sessionId']);
  assert.deepEqual(messagesOf(found, 'received').filter((e) => refusers.includes(e['sessionId'])), []);
  const holders = entriesOf(found).filter((e) => e['kind'] === 'start' && e['inbound'] === 'hold').map((e) => e['sessionId']);
  const held = messagesOf(live, 'received').filter((e) => holders.includes(e['sessionId']));
  assert.ok(held.length >= 1, 'live traffic reaches a holding session');
  assert.ok(held.every((e) => e['outcome'] === 'queued'), 'a holding session receives only queued');
});

test('a slow live write is seen half-written before it becomes an entry', async () => {
  const dir = await makeRecordDir();
  const pending = new Set<string>();
  let becameEntry = '';
  await runDemoUntil(dir, { intervalMs: 300, seed: 3, slowShare: 1 }, async () => {
    for (const f of await scanRecord(dir)) {
      if (f.name === null || f.mtimeMs < Date.now() - 30_000) continue; // not the backlog's cut-short file
      if (f.reading.outcome === 'unparsed') pending.add(f.file);
      else if (pending.has(f.file)) becameEntry = f.file;
    }
    return becameEntry !== '';
  });
  assert.notEqual(becameEntry, '', `pending files seen: ${pending.size}`);
});

/** Starts the demo script on `dir`, writing every `intervalMs`, and resolves once it says it is ready. */
async function startDemoScript(dir: string, intervalMs: number) {
  const script = fileURLToPath(new URL('./demoTraffic.ts', import.meta.url));
  const child = spawn(process.execPath, [script, dir], { env: { ...process.env, DEMO_INTERVAL_MS: String(intervalMs) }, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
  assert.deepEqual(JSON.parse(ready), { ready: true, recordDir: dir });
  return { child, exited };
}

test('the demo script prints ready, and on SIGTERM exits 0 without leaving a damaged file of its own', async () => {
  const dir = await makeRecordDir();
  const { child, exited } = await startDemoScript(dir, 100);
  await sleep(700);
  child.kill('SIGTERM');
  assert.equal(await exited, 0);
  const found = await scanRecord(dir);
  const unparsed = found.filter((f) => f.name !== null && f.reading.outcome !== 'entry');
  assert.equal(unparsed.length, 1, 'only the deliberate cut-short file');
});

// Its next write is an hour away: a script that waited for it would outlast the test's bound.
test('on SIGTERM the demo script exits at once, not after the pause before its next write', { timeout: 30_000 }, async (t) => {
  const dir = await makeRecordDir();
  const { child, exited } = await startDemoScript(dir, 3_600_000);
  t.after(() => child.kill('SIGKILL'));
  child.kill('SIGTERM');
  assert.equal(await exited, 0);
});

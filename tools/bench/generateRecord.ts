import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { entryFileName } from '../../server/demo/entryFile.ts';
import { parseEntryName } from '../../shared/record/entryName.ts';
import { createSeededRandom } from '../../shared/seededRandom.ts';

// A record shaped like real traffic, written synchronously and fast: one folder per session,
// one file per entry, mostly short texts, about 1% over 10 KB, a few over 1 MB, and the flaws a
// reader must show (cut-short files, invalid entries, sequence gaps, strays, sessions without a
// start, resumed sessions, withheld texts, unknown kinds). Seeded: the same options give the
// same record, byte for byte, apart from the mtimes of fresh files.

export type RecordShape = {
  sessions: number;
  entriesPerSession: number;
  /** Sessions with this many entries each, added to the others (a very long session). */
  bigSessions?: number;
  bigSessionEntries?: number;
  seed?: number;
};

export type GeneratedRecord = {
  files: number;
  sessions: number;
  bytes: number;
  /** Counts of the flaws written on purpose, to check the reader found them. */
  damaged: number;
  invalid: number;
  gaps: number;
  strays: number;
  over10k: number;
  over1m: number;
  /** Session ids, in the order written; the big sessions come last. */
  sessionIds: string[];
  bigSessionIds: string[];
  /** Per session: its folder's file count and the next free sequence number and time. */
  tails: Record<string, { files: number; nextSeq: number; lastAt: number; cwd: string }>;
};

const PROJECTS = [
  'web-app', 'api-service', 'billing', 'infra', 'docs', 'mobile', 'search', 'auth', 'data-pipeline', 'cli',
  'design-system', 'payments', 'notifications', 'analytics', 'ml-models', 'gateway', 'scheduler', 'storage',
  'admin-panel', 'support-bot', 'etl', 'reports', 'inventory', 'checkout', 'catalog', 'shipping', 'crm',
  'monitoring', 'ledger', 'identity', 'media', 'chat', 'feeds', 'maps', 'ads', 'recommendations', 'sandbox',
  'release-tools', 'k8s-config', 'website',
].map((name) => `/home/dev/projects/${name}`);

const WORDS = (
  'the cart still posts orders to v1 rebased on main running the suite again can you check whether ' +
  'migrations are idempotent now flaky test timed out once in ci docs for the retry policy are up see ' +
  'please review the diff before merging i fixed the null check in the handler and added a regression ' +
  'test the build is green on linux but macos fails on the path join we should pin the version of the ' +
  'parser because the new release changed how it treats trailing commas deploy is blocked until the ' +
  'schema change lands ok will do done thanks found it the error was in the config loader'
).split(' ');

export function generateRecord(recordDir: string, shape: RecordShape): GeneratedRecord {
  const random = createSeededRandom(shape.seed ?? 42);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const uuid = () => {
    const hex = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join('');
    return `${hex(8)}-${hex(4)}-4${hex(3)}-8${hex(3)}-${hex(12)}`;
  };
  // A pool of text to cut texts from, so a text costs a slice and not a loop of words.
  const pool = Array.from({ length: 40_000 }, () => pick(WORDS)).join(' ');
  const lineBreaks = ['\n', '\r\n', '\n\n', '\t'];
  const textOf = (bytes: number): string => {
    if (bytes <= pool.length) {
      const from = Math.floor(random() * (pool.length - bytes));
      let text = pool.slice(from, from + bytes);
      if (random() < 0.1) text = text.replace(' ', pick(lineBreaks));
      if (random() < 0.02) text += ' — ünïcödé ✓ 日本語 \u202e';
      return text;
    }
    return pool.repeat(Math.ceil(bytes / pool.length)).slice(0, bytes);
  };

  const totalEntries = shape.sessions * shape.entriesPerSession + (shape.bigSessions ?? 0) * (shape.bigSessionEntries ?? 0);
  // "A few over 1 MB": about one in 40,000 entries, at least two.
  const hugeEvery = Math.max(1, Math.floor(totalEntries / Math.max(2, Math.round(totalEntries / 40_000))));
  const textBytes = (index: number): number => {
    if (index % hugeEvery === hugeEvery - 1) return 1_100_000 + Math.floor(random() * 1_000_000);
    const r = random();
    if (r < 0.01) return 10_240 + Math.floor(random() * 90_000);
    if (r < 0.06) return 1_000 + Math.floor(random() * 9_000);
    // Mostly short: a line or a few.
    return 8 + Math.floor(random() * random() * 600);
  };

  const result: GeneratedRecord = {
    files: 0, sessions: 0, bytes: 0, damaged: 0, invalid: 0, gaps: 0, strays: 0, over10k: 0, over1m: 0,
    sessionIds: [], bigSessionIds: [], tails: {},
  };
  const old = new Date(Date.now() - 3_600_000);
  let entryIndex = 0;
  const now = Date.now();

  const writeSession = (sessionId: string, entries: number) => {
    const folder = join(recordDir, sessionId);
    mkdirSync(folder, { recursive: true });
    const cwd = pick(PROJECTS);
    const metadataMode = random() < 0.05;
    const hasStart = random() >= 0.02;
    const resumeAt = random() < 0.05 ? Math.floor(entries * (0.3 + random() * 0.5)) : -1;
    const chainAt = random() < 0.05 ? 1 : -1;
    let at = now - 30 * 86_400_000 + Math.floor(random() * 29 * 86_400_000);
    let seq = 0;
    let files = 0;
    for (let i = 0; i < entries; i++) {
      at += 200 + Math.floor(random() * 20_000);
      seq += 1;
      if (i > 2 && random() < 0.001) {
        seq += 1 + Math.floor(random() * 3); // a write that failed: a gap
        result.gaps++;
      }
      const iso = new Date(at).toISOString();
      let entry: Record<string, unknown>;
      if ((i === 0 && hasStart) || i === resumeAt) {
        if (i === resumeAt) seq = 1;
        entry = { kind: 'start', sessionId, at: iso, cwd, host: 'claude-code', version: '2.1.314', inbound: pick(['accept', 'accept', 'hold', 'refuse']) };
      } else if (i === chainAt) {
        entry = { kind: 'chain', sessionId, at: iso, parent: uuid(), part: 1 + Math.floor(random() * 4), brief: textOf(80 + Math.floor(random() * 300)), cwd };
      } else if (random() < 0.0005) {
        entry = { kind: 'note', sessionId, at: iso, cwd, note: 'a kind from a newer writer' };
      } else {
        const bytes = textBytes(entryIndex);
        if (bytes > 10_240) result.over10k++;
        if (bytes > 1_048_576) result.over1m++;
        const text = textOf(bytes);
        const textFields = metadataMode
          ? { textLength: Buffer.byteLength(text), textHash: `sha256:${createHash('sha256').update(text).digest('hex')}` }
          : { text };
        const peerAs = random() < 0.6 ? `uds:/tmp/cc-socks/${1000 + Math.floor(random() * 9000)}.sock` : random() < 0.9 ? pick(PROJECTS).slice(19) : '';
        const peer = random() < 0.1 ? { as: peerAs, sessionId: uuid() } : { as: peerAs };
        entry =
          random() < 0.5
            ? { kind: 'message', sessionId, at: iso, side: 'sent', peer, ...textFields, isQueued: random() >= 0.03, ...(random() < 0.03 ? { reason: 'peer refused' } : {}), cwd }
            : {
                kind: 'message', sessionId, at: iso, side: 'received', peer,
                envelope: { origin: { kind: 'peer', from: peerAs, name: pick(PROJECTS).slice(19) } },
                ...textFields,
                outcome: random() < 0.9 ? 'consumed' : pick(['queued', 'rejected', 'unknown']),
                cwd,
              };
        if (random() < 0.0005) {
          delete entry['side']; // JSON, but not an entry a reader can vouch for
          result.invalid++;
        }
      }
      entryIndex++;
      const name = entryFileName(iso, seq);
      let bytes = Buffer.from(JSON.stringify(entry));
      const damaged = random() < 0.001;
      if (damaged) {
        bytes = bytes.subarray(0, Math.floor(bytes.length / 2)); // a write cut short
        result.damaged++;
      }
      writeFileSync(join(folder, name), bytes);
      // A cut-short file is old, as in a real record: damaged at once, not pending.
      if (damaged) utimesSync(join(folder, name), old, old);
      result.bytes += bytes.length;
      files++;
    }
    if (random() < 0.01) {
      writeFileSync(join(folder, 'notes.txt'), 'not an entry\n');
      result.strays++;
      files++;
    }
    result.files += files;
    result.sessions++;
    result.tails[sessionId] = { files, nextSeq: seq + 1, lastAt: at, cwd };
  };

  mkdirSync(recordDir, { recursive: true });
  for (let s = 0; s < shape.sessions; s++) {
    const sessionId = uuid();
    result.sessionIds.push(sessionId);
    writeSession(sessionId, shape.entriesPerSession);
  }
  for (let s = 0; s < (shape.bigSessions ?? 0); s++) {
    const sessionId = uuid();
    result.sessionIds.push(sessionId);
    result.bigSessionIds.push(sessionId);
    writeSession(sessionId, shape.bigSessionEntries ?? 0);
  }
  writeFileSync(join(recordDir, '.DS_Store'), 'stray at the top\n');
  return result;
}

/**
 * Removes what an earlier bench run left in a generated record when it was stopped before it
 * cleaned up: its own folders (`bench-…`), and entries it wrote into generated sessions, which
 * all take sequence numbers past the generated ones. Returns how many entries it removed.
 */
export function removeLeftovers(dir: string, record: GeneratedRecord): number {
  if (!existsSync(dir)) return 0;
  for (const name of readdirSync(dir)) if (name.startsWith('bench-')) rmSync(join(dir, name), { recursive: true, force: true });
  let removed = 0;
  for (const [sessionId, tail] of Object.entries(record.tails)) {
    const folder = join(dir, sessionId);
    const names = readdirSync(folder);
    if (names.length <= tail.files) continue;
    for (const name of names) {
      const parsed = parseEntryName(name);
      if (parsed !== null && parsed.seq >= tail.nextSeq) {
        rmSync(join(folder, name));
        removed++;
      }
    }
  }
  return removed;
}

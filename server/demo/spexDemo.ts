import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { appendEvent, appendToTimeline, spexSessionFolder, writeSessionJson } from './spexAppend.ts';

// The demo's spex home, beside its record: a few sessions of one repository, written as spex's
// writer writes them (spexAppend.ts: one O_APPEND write per line, 12-digit segments rolling at a
// small bound here, so a newcomer sees several segments). A backlog, then live traffic: people
// and sessions sending messages (the sessions' with spex's reply hint), and status declarations.

/** Small, so that the demo's logs roll over into several segments. */
const DEMO_SEGMENT_BOUND = 1024;

type SpexDemoSession = { id: string; project: string; title: string; branch: string; worktree: string };
type DemoSpexPlace = { id: string; cwd: string };

type SpexDemoOptions = {
  /**
   * Sessions to use first: the record's, so that a session is seen in every store, under the same
   * project (its working directory, which spex keeps as the session's worktree path).
   */
  sessions?: readonly DemoSpexPlace[];
  intervalMs?: number;
  onError?: (error: Error) => void;
};

const PROJECT_PATH = '/home/dev/projects/web-app';
const PROJECT = PROJECT_PATH.replace(/[/.]/g, '-');

const PERSON_TEXTS = ['how is the merge going?', 'please rebase on main before you ask for review', 'what is left on the cart totals?', 'stop for today, park it'];
const AGENT_TEXTS = ['can you take the lint fix?', 'the currency tests pass on my side now', 'which port does the mock server listen on?', 'I pushed the migration; your branch needs it'];

/** Writes the backlog of a spex home; returns its sessions. */
export function writeSpexBacklog(home: string, places: readonly DemoSpexPlace[] = []): SpexDemoSession[] {
  const sessions: SpexDemoSession[] = ['checkout', 'currency', 'docs'].map((title, index) => {
    const place = places[index];
    // spex's project folder is the repository's path encoded; the demo's sessions each work in their repository's root.
    const worktree = place?.cwd ?? (index === 0 ? PROJECT_PATH : `${PROJECT_PATH}/.worktrees/${title}`);
    return { id: place?.id ?? randomUUID(), project: place === undefined ? PROJECT : place.cwd.replace(/[/.]/g, '-'), title, branch: `node/${title}`, worktree };
  });
  const [a, b, c] = sessions as [SpexDemoSession, SpexDemoSession, SpexDemoSession];
  for (const session of sessions) writeSession(home, session, 'active', null, null);
  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
  // a: a person asks, a peer asks with spex's hint, a full lifecycle of declarations.
  append(home, a, { ts: at(50), kind: 'status', status: 'active', proposal: null, note: null });
  append(home, a, { ts: at(48), kind: 'sent', mid: randomUUID(), text: 'please add a retry to the checkout call', from: null, replyVia: 'note' });
  append(home, a, { ts: at(45), kind: 'sent', mid: randomUUID(), text: withHint('can you take the lint fix?', b), from: b.id });
  // The settlement of that message: spex's private delivery state, never shown.
  append(home, a, { ts: at(45), kind: 'dispatch-settled', mid: randomUUID(), receipt: { digest: 'sha256:demo', bytes: 'ZGVtbw==' } });
  append(home, a, { ts: at(40), kind: 'status', status: 'asking', proposal: null, note: 'Should the retry back off exponentially, or is a fixed 500 ms enough?' });
  append(home, a, { ts: at(38), kind: 'sent', mid: randomUUID(), text: 'exponential, capped at 5 s', from: null });
  append(home, a, { ts: at(30), kind: 'status', status: 'awaiting', proposal: 'merge', note: 'Retry added with exponential backoff (cap 5 s).\nTests: 41 passed.' });
  append(home, a, { ts: at(20), kind: 'status', status: 'awaiting', proposal: null, note: 'Merged.' });
  append(home, a, { ts: at(10), kind: 'status', status: 'parked', proposal: null, note: null });
  writeSession(home, a, 'parked', null, null);
  // b: receives from a, and a line spex would not write (damaged), then one of a kind it does not know.
  append(home, b, { ts: at(44), kind: 'sent', mid: randomUUID(), text: withHint('sure, after the currency tests', a), from: a.id });
  appendToTimeline(spexSessionFolder(home, b.project, b.id), Buffer.from('{"ts":"2026-11-30T10:00:00.000Z","kind":"sent","text":"cut\n'), { bound: DEMO_SEGMENT_BOUND });
  append(home, b, { ts: at(35), kind: 'sent', mid: randomUUID(), text: 'from the issue tracker: #418 is yours', from: 'issues' });
  // c: a half-written line at the end of its log (a writer that died mid-line).
  append(home, c, { ts: at(30), kind: 'status', status: 'active', proposal: null, note: null });
  append(home, c, { ts: at(25), kind: 'sent', mid: randomUUID(), text: 'document the retry policy', from: null });
  appendToTimeline(spexSessionFolder(home, c.project, c.id), Buffer.from('{"ts":"2026-11-30T10:05:00.000Z","kind":"sent","mid":"half'), { bound: DEMO_SEGMENT_BOUND });
  return sessions;
}

/** The backlog, then live traffic until `signal` aborts. */
export async function runSpexDemo(home: string, signal: AbortSignal, options: SpexDemoOptions = {}): Promise<void> {
  const sessions = writeSpexBacklog(home, options.sessions);
  const live = sessions.slice(0, 2);
  const interval = options.intervalMs ?? 1500;
  let turn = 0;
  while (!signal.aborted) {
    try {
      await sleep(interval * (1 + Math.random()), undefined, { signal });
    } catch {
      return;
    }
    try {
      const to = live[turn % live.length]!;
      const other = live[(turn + 1) % live.length]!;
      const roll = turn % 5;
      if (roll === 0) append(home, to, { ts: now(), kind: 'sent', mid: randomUUID(), text: pick(PERSON_TEXTS, turn), from: null, ...(turn % 2 === 0 ? { replyVia: 'note' } : {}) });
      else if (roll === 4) {
        const [status, proposal, note] = pick(
          [
            ['active', null, null],
            ['awaiting', 'merge', 'ready for review'],
            ['asking', null, 'which branch should this go to?'],
          ] as const,
          turn,
        );
        append(home, to, { ts: now(), kind: 'status', status, proposal, note });
        writeSession(home, to, status, proposal, note);
      } else append(home, to, { ts: now(), kind: 'sent', mid: randomUUID(), text: withHint(pick(AGENT_TEXTS, turn), other), from: other.id });
      turn++;
    } catch (error) {
      options.onError?.(error as Error);
    }
  }
}

function writeSession(home: string, session: SpexDemoSession, status: string, proposal: string | null, note: string | null): void {
  writeSessionJson(spexSessionFolder(home, session.project, session.id), {
    session_id: session.id,
    worktree_path: session.worktree,
    branch: session.branch,
    title: session.title,
    name: '',
    parent: '',
    status,
    proposal: proposal ?? '',
    note: note ?? '',
    createdAt: Date.now(),
    harness: 'claude',
    stopped: false,
    archived: false,
  });
}

function append(home: string, session: SpexDemoSession, event: Record<string, unknown>): void {
  appendEvent(spexSessionFolder(home, session.project, session.id), event, { bound: DEMO_SEGMENT_BOUND });
}

/** The hint `spex session send` appends to what a session sends. */
function withHint(text: string, from: SpexDemoSession): string {
  return `${text}\n\n— from session "${from.title}" (${from.id}). To reply: spex session send ${from.id} "<your reply>"`;
}

function pick<T>(items: readonly T[], turn: number): T {
  return items[turn % items.length]!;
}

function now(): string {
  return new Date().toISOString();
}

import { open, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { entryFileName } from './entryFile.ts';
import {
  createDemoSession,
  receivedEntry,
  REFUSED_REASON,
  socketOf,
  writeChain,
  writeReceived,
  writeSent,
  writeStart,
} from './demoSessions.ts';
import type { DemoSession } from './demoSessions.ts';

// The record a newcomer finds when the demo starts: a short history of a few sessions in three
// projects that shows, once each, every case the record format asks a reader to handle.

export const PROJECTS = {
  web: '/home/dev/projects/web-app',
  api: '/home/dev/projects/api-service',
  docs: '/home/dev/projects/docs',
} as const;

const IDENTICAL_TEXT = 'Rebased on main; all green on my side.';
const AWKWARD_TEXT = 'Line one\r\nLine two\twith a tab 🚀, a zero\u200Bwidth space and \u202Etxt.exe\u202C reversed.';
const HTML_TEXT = '<script>alert("pwned")</script><img src=x onerror="alert(1)"> <b>not bold</b> &amp; {{7*7}}';
const STRAY_NAME = 'notes.txt';

export type Backlog = {
  /** Sessions that wrote a start entry and take part in live traffic. */
  live: DemoSession[];
  /** The folder with entries but no start entry: its coverage is unknown (rule.startEntry). */
  withoutStart: DemoSession;
  /** The file of a write cut short, which never parses (rule.oneWriter). */
  cutShortFile: string;
};

/** Writes the backlog, every entry timed before `now`; the cut-short file is dated a minute before it. */
export async function writeBacklog(recordDir: string, now: Date): Promise<Backlog> {
  const web = createDemoSession(PROJECTS.web, 'web-app', 4242);
  const api = createDemoSession(PROJECTS.api, 'api-service', 1717);
  const docs = createDemoSession(PROJECTS.docs, 'docs', 5150, 'refuse');
  const worker = createDemoSession(PROJECTS.api, 'api-worker', 3030, 'hold');
  const secret = createDemoSession(PROJECTS.web, 'web-app-billing', 6060, 'accept', 'metadata');
  const chained = createDemoSession(PROJECTS.docs, 'docs-orders', 7070);
  const orphan = createDemoSession(PROJECTS.api, 'api-legacy', 2323);
  let clock = now.getTime() - 40 * 60_000;
  const tick = (seconds: number) => new Date((clock += seconds * 1000));
  const dir = recordDir;

  for (const session of [web, api, docs, worker, secret]) await writeStart(dir, session, tick(25));

  // One message each way, the peer named once by socket address and once by name.
  await exchange(web, api, 'Does the cart still POST /v1/orders?', { as: socketOf(api) });
  await exchange(api, web, 'Still /v1. v2 lands after the migration, I will tell you before it does.', { as: 'web-app' });
  // A peer the plugin resolved to a full session id, sent to a session that holds its inbound.
  await exchange(web, worker, 'Can you hold the reindex until the cart fix is merged?', { as: 'api-worker', sessionId: worker.id });
  // Refused: the sender's entry is all there is; the receiver's folder gets nothing (rule.deliveryResult).
  await writeSent(dir, api, tick(40), { as: 'docs' }, 'Can you update the /v1/orders page for the new currency field?', {
    isQueued: false,
    reason: REFUSED_REASON,
  });
  // A metadata-only sender, and a receive hook that refused the message.
  await exchange(secret, api, 'The staging token in .env.staging rotated; the new one is in the vault.', { as: 'api-service' }, 'rejected');
  await exchange(worker, web, 'Reindex is paused. It resumes on its own in two hours.', { as: socketOf(web) }, 'unknown');
  // Two peers, identical text: nothing in the record says which sent entry is which received one.
  await exchange(api, web, IDENTICAL_TEXT, { as: 'web-app' });
  await exchange(worker, web, IDENTICAL_TEXT, { as: socketOf(web) });
  await exchange(api, web, AWKWARD_TEXT, { as: 'web-app' });
  web.seq += 1; // a write that failed: the next entry leaves a gap in the sequence
  await exchange(worker, web, HTML_TEXT, { as: 'web-app' });
  await exchange(web, api, composeLongText(), { as: socketOf(api) });
  await exchange(web, secret, 'Billing export looks right now, thanks. Can you re-run it for November?', { as: 'web-app-billing' });

  // A chain child: part 1 of a chain whose parent is the web-app session.
  await writeStart(dir, chained, tick(30));
  await writeChain(dir, chained, tick(1), web, 1, 'Update the API docs for /v1/orders to cover the currency field.');
  await exchange(chained, web, 'Part 1 done: /v1/orders docs cover currency now. PR #412.', { as: socketOf(web) });

  // A folder whose session never wrote a start entry: its mod loaded before anything was recorded.
  orphan.seq = 6;
  await writeSent(dir, orphan, tick(50), { as: 'api-service' }, 'Is the legacy importer still scheduled nightly?', { isQueued: true });
  await writeReceived(dir, orphan, tick(2), api, 'Yes, 02:00 UTC. It goes away with v2.', 'consumed');

  // The api-service session resumed: a second start entry, and its sequence restarts at 1.
  await writeStart(dir, api, tick(120));
  await exchange(api, web, 'Back after a restart. Where were we on the orders migration?', { as: 'web-app' });

  await writeFile(path.join(dir, docs.id, STRAY_NAME), 'scratch: ask api-service about the v2 timeline\n', { flag: 'wx' });
  const cutShortFile = await writeCutShort(dir, worker, web, new Date(now.getTime() - 60_000));
  // The killed worker came back: a new mod load, so coverage starts again at a new start entry.
  await writeStart(dir, worker, new Date(now.getTime() - 30_000));
  return { live: [web, api, docs, worker, secret, chained], withoutStart: orphan, cutShortFile };

  async function exchange(
    from: DemoSession,
    to: DemoSession,
    text: string,
    peer: { as: string; sessionId?: string },
    outcome?: 'queued' | 'consumed' | 'rejected' | 'unknown',
  ): Promise<void> {
    await writeSent(dir, from, tick(45), peer, text, { isQueued: true });
    await writeReceived(dir, to, tick(0.4), from, text, outcome ?? (to.inbound === 'hold' ? 'queued' : 'consumed'));
  }
}

/**
 * A received entry whose writer was killed mid-write. Named and back-dated to `at`, a minute ago,
 * so that a reader can tell it from a write still in progress. Setting the mtime is fine: only the
 * writer of a file may touch it, and this is the writer's own file.
 */
async function writeCutShort(dir: string, session: DemoSession, from: DemoSession, at: Date): Promise<string> {
  session.seq += 1;
  const entry = receivedEntry(session, at, from, 'Cart fix merged, you can resume the reindex whenever you like.', 'queued');
  const json = JSON.stringify(entry);
  const file = path.join(dir, session.id, entryFileName(at, session.seq));
  const handle = await open(file, 'wx');
  try {
    await handle.write(json.slice(0, Math.floor(json.length * 0.6)));
  } finally {
    await handle.close();
  }
  await utimes(file, at, at);
  return file;
}

/** About 20 KB of pasted log, the kind of text a session really sends to another. */
function composeLongText(): string {
  const lines = ['Here is the whole failing run, sorry for the wall of text:', ''];
  let length = 0;
  for (let i = 0; length < 20_000; i += 1) {
    const minute = String(Math.floor(i / 60) % 60).padStart(2, '0');
    const second = String(i % 60).padStart(2, '0');
    const line = `[09:${minute}:${second}] worker-${i % 4} GET /v1/orders/${1000 + i} ${i % 17 === 0 ? 500 : 200} ${(i * 37) % 900}ms cache=${i % 3 === 0 ? 'miss' : 'hit'}`;
    lines.push(line);
    length += line.length + 1;
  }
  lines.push('', 'The 500s all come from worker-0. Any idea?');
  return lines.join('\n');
}

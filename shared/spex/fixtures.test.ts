// The example spex home, byte for byte as spex's own timeline writer wrote it (one project, three
// sessions, segments rolled over at a 1 KiB bound). The tests read these bytes, never the files;
// exampleHome.test.ts proves them the same. Named `.test.ts` so that it stays out of the product
// build, like every test file, though it holds no test.

import { stripPrivateData } from './privateData.ts';
import { readLineView } from './view.ts';

export const ONE = '11111111-aaaa-4aaa-8aaa-111111111111';
export const TWO = '22222222-bbbb-4bbb-8bbb-222222222222';
export const THREE = '33333333-cccc-4ccc-8ccc-333333333333';
export const PROJECT = '-home-dev-projects-my-app';
export const WORKTREE = '/home/dev/projects/my.app';

/** A line as spex's writer appends it: the event's JSON and a newline. */
export const lineOf = (event: Record<string, unknown>): string => `${JSON.stringify(event)}\n`;

export const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A range's bytes as the reader reads them again (server/spex/readLine.ts): private data taken out first, then the view. */
export function viewRange(bytes: Uint8Array): ReturnType<typeof readLineView> | { view: 'withheld'; why: string } {
  const seen = stripPrivateData(bytes);
  return seen.seen === 'private' || seen.seen === 'withheld' ? { view: 'withheld', why: seen.why } : readLineView(seen.bytes);
}

/** `session.json` as spex writes it: two-space JSON in its own key order, and a newline. */
export function sessionJsonOf(id: string, branch: string, status: string, proposal: string, note: string): string {
  const record = {
    session_id: id,
    governed: true,
    worktree_path: WORKTREE,
    branch,
    node: 'session-timeline',
    title: 'example',
    name: '',
    parent: '',
    status,
    proposal,
    merges: 0,
    note,
    sortkey: '',
    createdAt: 1,
    harness: 'claude',
    harness_session_id: '',
    stopped: false,
    archived: false,
    cold_proof: '',
    adapter_recovery: '',
    launcher: 'claude',
    launch_cmd: 'claude',
    launch_owner: '',
    create_request_id: '',
    create_payload_hash: '',
    launch_readiness_pending: '',
  };
  return `${JSON.stringify(record, null, 2)}\n`;
}

/** The private receipt's digest and transport bytes: canaries that must appear in no output. */
export const RECEIPT_DIGEST = 'c'.repeat(64);
export const RECEIPT_PAYLOAD = 'd'.repeat(64);
export const RECEIPT_TRANSPORT = 'Merge your branch into main…(composed transport bytes)';

export const HINTED_TEXT = `can you take the lint fix?\n\n— from session ${TWO}. To reply: spex session send ${TWO} "<your reply>"`;

export const EXAMPLE = {
  [ONE]: {
    'session.json': sessionJsonOf(ONE, 'node/example-1111', 'active', '', ''),
    'timeline/000000000001.ndjson': [
      '{"ts":"2026-11-30T17:18:57.096Z","kind":"status","status":"active","proposal":null,"note":null}\n',
      '{"ts":"2026-11-30T17:18:57.104Z","kind":"sent","mid":"9944b48b-49d9-445f-a334-fd80e7f31b3d","text":"please rebase on main","from":null}\n',
      '{"ts":"2026-11-30T17:18:57.113Z","kind":"sent","mid":"0cb6f879-fd9a-4abd-9ee2-507330d6f5f9","text":"how is the merge going?","from":null,"replyVia":"note"}\n',
      lineOf({ ts: '2026-11-30T17:18:57.120Z', kind: 'sent', mid: 'e26eed1c-cf24-4a0a-9d7f-fac39bba38c1', text: HINTED_TEXT, from: TWO }),
    ].join(''),
    'timeline/000000000002.ndjson': [
      lineOf({
        ts: '2026-11-30T17:18:57.126Z',
        kind: 'sent',
        mid: '3749dd68-26d5-41f5-aa25-dd0c3f8e5f81',
        text: 'Merge your branch into main…',
        from: null,
        dispatchReceipt: { operation: 'merge', requestDigest: RECEIPT_DIGEST, payloadHash: RECEIPT_PAYLOAD, delivery: { text: RECEIPT_TRANSPORT, from: null } },
      }),
      `{"ts":"2026-11-30T17:18:57.137Z","kind":"dispatch-settled","operation":"merge","requestDigest":"${RECEIPT_DIGEST}","mid":"3749dd68-26d5-41f5-aa25-dd0c3f8e5f81"}\n`,
      '{"ts":"2026-11-30T17:18:57.142Z","kind":"status","status":"awaiting","proposal":"merge","note":"merged cleanly; tests green"}\n',
      '{"ts":"2026-11-30T17:18:57.148Z","kind":"status","status":"asking","proposal":null,"note":"Which port should the dev server use?"}\n',
      '{"ts":"2026-11-30T17:18:57.154Z","kind":"status","status":"awaiting","proposal":null,"note":"answered: 8080"}\n',
    ].join(''),
    // A line longer than the 1 KiB bound: the segment takes it whole, then rolls over.
    'timeline/000000000003.ndjson': lineOf({ ts: '2026-11-30T17:18:57.160Z', kind: 'sent', mid: '280f64f7-9bc2-477d-8a70-bc8f764e9872', text: 'x'.repeat(1500), from: TWO }),
    'timeline/000000000004.ndjson': '{"ts":"2026-11-30T17:18:57.165Z","kind":"status","status":"parked","proposal":null,"note":"waiting on the API team"}\n',
  },
  [TWO]: {
    'session.json': sessionJsonOf(TWO, 'node/example-2222', 'active', '', ''),
  },
  [THREE]: {
    'session.json': sessionJsonOf(THREE, 'node/example-3333', 'awaiting', 'merge', 'ready to land'),
    'timeline.ndjson': '{"ts":"2026-07-16T00:00:00.000Z","kind":"status","status":"active","proposal":null,"note":null}\n',
    'timeline/000000000001.ndjson': '{"ts":"2026-11-30T17:18:57.173Z","kind":"status","status":"awaiting","proposal":"merge","note":"ready to land"}\n',
  },
} as const satisfies Record<string, Record<string, string>>;

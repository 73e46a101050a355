import assert from 'node:assert/strict';
import { mkdirSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileResponseSchema, sessionResponseSchema, type FileItem } from '../../shared/wire/record.ts';
import { nameAt, receivedEntry, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import type { Dashboard } from '../dashboard.ts';
import { MAX_ENTRY_BYTES } from '../record/readRecordFile.ts';
import { eventually, fingerprintTree, getJson, makeTempRecord, startTestDashboard } from './harness.ts';
import { recordSessionsResponseSchema } from '../../shared/test/recordWire.ts';

// A corpus of hostile and broken input, kept as a test: every file is classified (parsed,
// invalid, damaged, stray, unreadable) and shown, and the server stays up and small.

const record = makeTempRecord();
let dashboard: Dashboard;
let fingerprint: string[];
const OLD = new Date(Date.now() - 3_600_000);

function put(session: string, name: string, bytes: string | Uint8Array): string {
  mkdirSync(join(record.dir, session), { recursive: true });
  const path = join(record.dir, session, name);
  writeFileSync(path, bytes);
  // Old enough that a file which does not parse is damaged at once, not pending.
  utimesSync(path, OLD, OLD);
  return path;
}

const SAMPLES = {
  start: startEntry(0),
  sent: sentEntry(1, 'Does the cart still POST /v1/orders? 🧪\r\n'),
  received: receivedEntry(2, 'Still /v1.', { outcome: 'queued' }),
  metadata: sentEntry(3, '', { text: undefined, textLength: 12, textHash: `sha256:${'0'.repeat(64)}` }),
  chain: { kind: 'chain', sessionId: 'x', at: '2026-11-20T09:00:04.000Z', parent: 'p', part: 1, brief: 'do it', cwd: '/x' },
};

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

before(async () => {
  for (const [kind, sample] of Object.entries(SAMPLES)) {
    const whole = Buffer.from(JSON.stringify({ ...sample, sessionId: `cut-${kind}` }));
    for (let cut = 0; cut <= whole.length; cut++) put(`cut-${kind}`, `2026-11-20T090000.000Z-${cut}.json`, whole.subarray(0, cut));
  }
  const random = seeded(42);
  for (let i = 0; i < 200; i++) {
    const bytes = new Uint8Array(Math.floor(random() * 2_000));
    for (let j = 0; j < bytes.length; j++) bytes[j] = Math.floor(random() * 256);
    put('random-bytes', nameAt(1, i + 1), bytes);
  }
  put('encodings', nameAt(0, 1), JSON.stringify({ ...startEntry(0), sessionId: 'encodings' }));
  put('encodings', nameAt(1, 2), Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d]));
  put('encodings', nameAt(2, 3), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ ...sentEntry(2, 'after a BOM'), sessionId: 'encodings' }))]));
  put('encodings', nameAt(3, 4), Buffer.from(JSON.stringify({ ...sentEntry(3, 'x'), sessionId: 'encodings' }).replace('"x"', '"\\ud800 lone"')));

  const huge = put('huge', nameAt(1, 2), '');
  truncateSync(huge, 100 * 1024 * 1024);
  utimesSync(huge, OLD, OLD);
  put('huge', nameAt(0, 1), JSON.stringify({ ...startEntry(0), sessionId: 'huge' }));
  put('huge', nameAt(2, 3), JSON.stringify({ ...sentEntry(2, 'z'.repeat(20 * 1024 * 1024)), sessionId: 'huge', envelope: 'e'.repeat(1024 * 1024) }));

  put('shapes', nameAt(0, 1), JSON.stringify({ ...startEntry(0), sessionId: 'shapes' }));
  put('shapes', nameAt(1, 2), `{"kind":"message","sessionId":"shapes","envelope":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
  const wide: Record<string, unknown> = { ...sentEntry(2, 'ten thousand fields'), sessionId: 'shapes' };
  for (let i = 0; i < 10_000; i++) wide[`field${i}`] = i;
  put('shapes', nameAt(2, 3), JSON.stringify(wide));
  put('shapes', nameAt(3, 4), JSON.stringify({ ...sentEntry(3, 'x'), sessionId: 'shapes', text: 12, cwd: 7, side: 1 }));
  put('shapes', nameAt(4, 5), JSON.stringify({ ...receivedEntry(4, 'x'), sessionId: 'shapes', peer: 'not an object' }));

  for (const folder of ['with space', 'new\nline', 'ünïcødé-🧪', 'a%2Fb', '.hidden', '..dots', 'tab\there']) {
    put(folder, nameAt(0, 1), JSON.stringify({ ...startEntry(0), sessionId: folder }));
    put(folder, 'stray name\nwith newline %2F ü.json', 'x');
  }
  fingerprint = fingerprintTree(record.dir);
  dashboard = await startTestDashboard(record.dir);
  await eventually(() => (dashboard.sources[0]!.status().indexing.state === 'ready' ? true : undefined), 'first scan', 30_000);
});

after(async () => {
  await dashboard.close();
  record.remove();
});

async function files(sessionId: string): Promise<FileItem[]> {
  const page = await getJson(dashboard, `/api/sessions/${encodeURIComponent(sessionId)}?limit=5000`, sessionResponseSchema);
  return page.items.filter((item): item is FileItem => item.type === 'file');
}

describe('hostile and broken input', () => {
  for (const kind of Object.keys(SAMPLES)) {
    it(`every truncation of a ${kind} entry, at every byte, is damaged; only the whole file parses`, async () => {
      const items = await files(`cut-${kind}`);
      const whole = items.at(-1)!;
      assert.equal(whole.evidence, 'parsed');
      assert.deepEqual(new Set(items.slice(0, -1).map((item) => item.evidence)), new Set(['damaged']));
      assert.equal(items.length, Number(whole.seq) + 1);
    });
  }

  it('random bytes are damaged or invalid, never an entry', async () => {
    const items = await files('random-bytes');
    assert.equal(items.length, 200);
    for (const item of items) assert.ok(item.evidence === 'damaged' || item.evidence === 'invalid', `${item.file}: ${item.evidence}`);
  });

  it('invalid UTF-8 is damaged; a BOM is tolerated; a lone surrogate escape is kept as written', async () => {
    const items = await files('encodings');
    assert.deepEqual(items.map((item) => item.evidence), ['parsed', 'damaged', 'parsed', 'parsed']);
    assert.equal(items[2]?.entry?.['text'], 'after a BOM');
    assert.equal(items[3]?.entry?.['text'], '\ud800 lone');
  });

  it('a 100 MB entry is not read whole: it is shown as unreadable, with its size', async () => {
    const items = await files('huge');
    assert.equal(items[1]?.evidence, 'unreadable');
    assert.equal(items[1]?.why, `too large to read (${100 * 1024 * 1024} bytes; entries are read up to ${MAX_ENTRY_BYTES} bytes)`);
  });

  it('a 20 MB text and a 1 MB envelope are left out of a page, said so, and served whole by the file endpoint', async () => {
    const response = await fetch(new URL('/api/sessions/huge', dashboard.url));
    const body = await response.text();
    assert.ok(body.length < 200 * 1024, `a page of ${body.length} bytes`);
    const item = sessionResponseSchema.parse(JSON.parse(body)).items[2];
    assert.ok(item?.type === 'file');
    assert.deepEqual(item.textClipped, { bytes: 20 * 1024 * 1024 });
    assert.deepEqual(item.fieldsClipped, [{ field: 'envelope', bytes: 1024 * 1024 + 2 }]);
    const whole = await getJson(dashboard, `/api/sessions/huge/files/${nameAt(2, 3)}`, fileResponseSchema);
    assert.equal((whole.item.entry?.['text'] as string).length, 20 * 1024 * 1024);
  });

  it('JSON nested 100,000 deep is invalid and not shown, and its session still reads', async () => {
    const items = await files('shapes');
    assert.equal(items[1]?.evidence, 'invalid');
    assert.match(items[1]?.why ?? '', /nested deeper than 256 levels/);
    assert.equal(items[1]?.raw, undefined);
  });

  it('an entry with 10,000 fields is an entry, its unknown fields kept', async () => {
    const items = await files('shapes');
    assert.equal(items[2]?.evidence, 'parsed');
    assert.equal(items[2]?.entry?.['field9999'], 9_999);
  });

  it('numbers where strings belong, and a peer that is not an object, are invalid entries with reasons', async () => {
    const items = await files('shapes');
    assert.equal(items[3]?.evidence, 'invalid');
    assert.match(items[3]?.why ?? '', /cwd: .*side: .*text: /s);
    assert.equal(items[4]?.evidence, 'invalid');
    assert.match(items[4]?.why ?? '', /peer: /);
  });

  it('folder and file names with spaces, newlines, unicode, %2F and leading dots are listed and readable', async () => {
    const list = await getJson(dashboard, '/api/sessions', recordSessionsResponseSchema);
    const ids = new Set(list.projects.flatMap((project) => project.sessions.map((session) => session.sessionId)));
    for (const folder of ['with space', 'new\nline', 'ünïcødé-🧪', 'a%2Fb', '.hidden', '..dots', 'tab\there']) {
      assert.ok(ids.has(folder), JSON.stringify(folder));
      const page = await getJson(dashboard, `/api/sessions/${encodeURIComponent(folder)}`, sessionResponseSchema);
      assert.deepEqual(page.items.map((item) => item.type), ['file', 'stray']);
      assert.equal(page.items[1]?.type === 'stray' && page.items[1].file, 'stray name\nwith newline %2F ü.json');
      assert.deepEqual(page.session.degraded, []);
    }
  });

  it('the server stays up through all of it, and the record is left exactly as it was', async () => {
    const list = await getJson(dashboard, '/api/sessions', recordSessionsResponseSchema);
    for (const session of list.projects.flatMap((project) => project.sessions)) {
      const response = await fetch(new URL(`/api/sessions/${encodeURIComponent(session.sessionId)}?limit=5000`, dashboard.url));
      assert.equal(response.status, 200, session.sessionId);
    }
    assert.deepEqual(fingerprintTree(record.dir), fingerprint);
  });
});

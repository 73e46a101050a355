import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sessionResponseSchema, type SessionItemWire } from '../../shared/wire/record.ts';
import { searchResponseSchema } from '../../shared/wire/search.ts';
import { CORRELATION_NOT_SHOWN } from '../../shared/record/outcomeWords.ts';
import { receivedEntry, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import { startWriter, type Writer } from '../../tools/writer/writerClient.ts';
import type { Dashboard } from '../dashboard.ts';
import { entryFileName } from '../demo/entryFile.ts';
import { describeExportActivity } from '../export/pipeline.ts';
import { eventually, getJson, makeTempRecord, startTestDashboard } from './harness.ts';

// Exports: a session or a search taken away whole, as NDJSON (the files as on disk), JSON (the
// wire's shape) and Markdown (a transcript that keeps the page's honesty), streamed.

const record = makeTempRecord('rec-export-');
let writer: Writer;
let dashboard: Dashboard;

const CWD = '/home/dev/projects/export';
const VERBATIM = 'line one\r\n\tline two\u200b \u202eevil\u202c 🧪 ```` four backticks ` and one\n';
const LARGE = '日本語 ✓ '.repeat(150_000); // over 1 MiB: read on a reader thread
const OLD = new Date(Date.now() - 3_600_000).toISOString();

/** Files of each session, by sequence number, as the writer reported them. */
const files = new Map<string, string[]>();

/** Entry `seq` of a session is dated `seq` seconds after a fixed time, whoever writes it. */
const atOf = (seq: number) => new Date(Date.UTC(2026, 10, 20, 9, 0, 0) + seq * 1000).toISOString();
const nameOf = (seq: number) => entryFileName(atOf(seq), seq);

async function write(sessionId: string, seq: number, entry: Record<string, unknown>, extra: { stallAfterBytes?: number } = {}): Promise<string> {
  const ack = await writer.send({ op: 'write', sessionId, seq, at: atOf(seq), entry: { ...entry, sessionId, cwd: CWD, at: atOf(seq) }, ...extra });
  const file = ack.file!.split('/').at(-1)!;
  files.set(sessionId, [...(files.get(sessionId) ?? []), file]);
  return file;
}

async function writeRaw(sessionId: string, name: string, bytes: Buffer, mtime?: string): Promise<void> {
  await writer.send({ op: 'raw', path: `${sessionId}/${name}`, bytes: bytes.toString('base64'), ...(mtime !== undefined ? { mtime } : {}) });
  files.set(sessionId, [...(files.get(sessionId) ?? []), name]);
}

let pendingFile = '';
let damagedFile = '';
const WITHHELD = { textLength: 42, textHash: `sha256:${createHash('sha256').update('a withheld text').digest('hex')}` };

before(async () => {
  writer = await startWriter(record.dir);
  // Every kind of file an export must carry byte for byte.
  await write('bytes', 1, startEntry(0));
  await write('bytes', 2, sentEntry(1, VERBATIM));
  await write('bytes', 3, receivedEntry(2, LARGE));
  await writeRaw('bytes', nameOf(4), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ ...sentEntry(3, 'after a byte-order mark'), sessionId: 'bytes', cwd: CWD }))]));
  await writeRaw('bytes', nameOf(5), Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0xff, 0x0a]), OLD);
  await writeRaw('bytes', 'notes.txt', Buffer.from('not an entry'));

  // A degraded session: a gap, a damaged file, a pending one, a withheld text.
  await write('degraded', 1, startEntry(0));
  await write('degraded', 2, sentEntry(1, 'Does the cart still POST /v1/orders?'));
  await write('degraded', 3, receivedEntry(2, VERBATIM));
  await write('degraded', 4, { ...sentEntry(3, ''), text: undefined, ...WITHHELD });
  // 5 is missing.
  damagedFile = nameOf(6);
  await writeRaw('degraded', damagedFile, Buffer.from('{"kind":"message","te'), OLD);
  await write('degraded', 7, sentEntry(7, 'refused words', { isQueued: false, reason: 'recipient refuses inbound messages' }));
  // Its pending file is written by the test that exports it: a file is pending for a while from
  // when it is first seen, and the writes below can take longer than that on a loaded machine.

  // Long enough for three pages, with a text a page clips and an invalid entry.
  await write('paged', 1, startEntry(0));
  for (let seq = 2; seq <= 450; seq++) {
    if (seq === 300) continue;
    const text = seq === 100 ? 'é'.repeat(70_000) : `message ${seq}`;
    await write('paged', seq, seq === 200 ? { kind: 'message', side: 'sent' } : sentEntry(seq % 60, text));
  }

  // Larger than every buffer between the server and a client that stops reading.
  const chunk = 'ünïcödé text, '.repeat(20_000);
  await write('large', 1, startEntry(0));
  for (let seq = 2; seq <= 150; seq++) await write('large', seq, sentEntry(seq % 60, `${seq} ${chunk}`));

  dashboard = await startTestDashboard(record.dir);
  await eventually(() => (dashboard.sources[0]!.status().indexing.state === 'ready' ? true : undefined), 'first scan', 60_000);
});

after(async () => {
  await dashboard?.close();
  await writer?.kill();
  record.remove();
});

async function download(path: string): Promise<{ status: number; type: string | null; disposition: string | null; body: Buffer }> {
  const response = await fetch(new URL(path, dashboard.url));
  return { status: response.status, type: response.headers.get('content-type'), disposition: response.headers.get('content-disposition'), body: Buffer.from(await response.arrayBuffer()) };
}

function linesOf(body: Buffer): Record<string, unknown>[] {
  const text = body.toString('utf8');
  assert.ok(text.endsWith('\n'), 'every line ends with a line break');
  return text.slice(0, -1).split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('exporting a session', () => {
  it('as NDJSON gives every file byte for byte, with its evidence and its place', async () => {
    const got = await download('/api/sessions/bytes/export?format=ndjson');
    assert.equal(got.status, 200);
    assert.equal(got.type, 'application/x-ndjson; charset=utf-8');
    assert.equal(got.disposition, 'attachment; filename="record-bytes.ndjson"');
    const [head, ...items] = linesOf(got.body);
    assert.equal(head!['type'], 'session');
    assert.equal(head!['schema'], 'rec.session-export/1');
    assert.equal((head!['session'] as { sessionId: string }).sessionId, 'bytes');
    const fileItems = items.filter((item) => item['type'] === 'file');
    assert.deepEqual(fileItems.map((item) => item['file']), files.get('bytes')!.filter((name) => name.endsWith('.json')));
    for (const item of fileItems) {
      const onDisk = readFileSync(join(record.dir, 'bytes', item['file'] as string));
      const exported = typeof item['fileText'] === 'string' ? Buffer.from(item['fileText'], 'utf8') : Buffer.from(item['fileBase64'] as string, 'base64');
      assert.ok(exported.equals(onDisk), `${String(item['file'])} exported byte for byte`);
    }
    assert.deepEqual(
      fileItems.map((item) => [item['seq'], item['evidence'], item['run']]),
      [
        [1, 'parsed', 0],
        [2, 'parsed', 0],
        [3, 'parsed', 0],
        [4, 'parsed', 0],
        [5, 'damaged', 0],
      ],
    );
    assert.equal(fileItems[4]!['fileText'], null, 'bytes that are not UTF-8 come as base64');
    assert.deepEqual(items.at(-1), { type: 'stray', source: dashboard.sources[0]!.ref, sessionId: 'bytes', file: 'notes.txt', evidence: 'stray', size: 12, fileText: null });
  });

  it('as Markdown keeps the gap, the damaged and the pending file in place, and claims no correlation', async () => {
    pendingFile = await write('degraded', 8, sentEntry(8, 'still being written'), { stallAfterBytes: 40 });
    await eventually(async () => {
      const page = await getJson(dashboard, '/api/sessions/degraded', sessionResponseSchema);
      return page.items.some((item) => item.type === 'file' && item.file === pendingFile && item.evidence === 'pending') ? true : undefined;
    }, 'the file being written is seen as pending', 30_000);
    const got = await download('/api/sessions/degraded/export?format=md');
    assert.equal(got.status, 200);
    assert.equal(got.type, 'text/markdown; charset=utf-8');
    assert.equal(got.disposition, 'attachment; filename="record-degraded.md"');
    const md = got.body.toString('utf8');
    const at = (needle: string) => {
      const index = md.indexOf(needle);
      assert.notEqual(index, -1, `the transcript says ${JSON.stringify(needle)}`);
      return index;
    };
    // In the session's order: sent, received, withheld, the gap, the damaged file, the refused send, the pending file.
    const order = [
      at('Does the cart still POST /v1/orders?'),
      at(CORRELATION_NOT_SHOWN),
      at('**Text withheld** (recordText set to metadata): 42 bytes'),
      at('### Entry 5 missing'),
      at(`### Unknown evidence: file \`${damagedFile}\``),
      at('**not queued:** `recipient refuses inbound messages`'),
      at(`### Being written: file \`${pendingFile}\``),
    ];
    assert.deepEqual(order, [...order].sort((a, b) => a - b));
    at(WITHHELD.textHash);
    at('queued by the host');
    at('consumed');
    at('## Degraded recording');
    at('1 entry is missing from the sequence: a write may have failed or a file was removed.');
    at('1 file never parsed');
    // The received entry's text is verbatim, in a fence longer than its own run of four backticks.
    at('`````text\n' + VERBATIM + '\n`````\n');
    assert.equal(md.split(CORRELATION_NOT_SHOWN).length - 1, 1, 'said once for the one received entry');
  });

  it('as Markdown numbers a resumed session’s runs as its page does, from 1', async () => {
    // Two runs: the plugin loaded again, its sequence numbers begun again after its second start entry.
    for (const [run, seq, entry] of [[0, 1, startEntry(0)], [0, 2, sentEntry(1, 'in the first run')], [1, 1, startEntry(10)], [1, 2, sentEntry(11, 'in the second run')]] as const) {
      const at = atOf(run * 100 + seq);
      await writer.send({ op: 'write', sessionId: 'resumed', seq, at, entry: { ...entry, sessionId: 'resumed', cwd: CWD, at } });
    }
    await eventually(async () => ((await getJson(dashboard, '/api/sessions/resumed', sessionResponseSchema)).session.runCount === 2 ? true : undefined), 'both runs are read');
    const md = (await download('/api/sessions/resumed/export?format=md')).body.toString('utf8');
    assert.match(md, /- Coverage: from its start entry \(2 runs: resumed\)/);
    const places = [...md.matchAll(/sequence number (\d+), run (\d+)/g)].map((match) => `${match[1]} of run ${match[2]}`);
    assert.deepEqual(places, ['1 of run 1', '2 of run 1', '1 of run 2', '2 of run 2']);
    assert.deepEqual([...md.matchAll(/^### (Start[^·]*) ·/gm)].map((match) => match[1]!.trim()), ['Start: coverage begins', 'Start again: run 2']);
  });

  it('as Markdown says of an entry with no start entry before it that coverage is unknown, not that coverage begins later', async () => {
    // No start entry at all: no coverage ever begins in this folder.
    for (const seq of [4, 5]) {
      const at = atOf(seq);
      await writer.send({ op: 'write', sessionId: 'unstarted', seq, at, entry: { ...sentEntry(seq, `sent ${seq}`), sessionId: 'unstarted', cwd: CWD, at } });
    }
    await eventually(async () => ((await getJson(dashboard, '/api/sessions/unstarted', sessionResponseSchema)).items.length === 2 ? true : undefined), 'both entries are read');
    const md = (await download('/api/sessions/unstarted/export?format=md')).body.toString('utf8');
    const places = [...md.matchAll(/sequence number (\d+)(, [^\n]*)/g)].map((match) => `${match[1]}${match[2]}`);
    assert.deepEqual(places, ['4, no start entry before it (coverage unknown)', '5, no start entry before it (coverage unknown)']);
  });

  it('as JSON is the wire shape, equal to its pages put together', async () => {
    const got = await download('/api/sessions/paged/export?format=json');
    assert.equal(got.status, 200);
    assert.equal(got.disposition, 'attachment; filename="record-paged.json"');
    const exported = sessionResponseSchema.parse(JSON.parse(got.body.toString('utf8')));
    const paged: SessionItemWire[] = [];
    let last;
    for (let offset = 0; ; offset += 200) {
      last = await getJson(dashboard, `/api/sessions/paged?offset=${offset}&limit=200`, sessionResponseSchema);
      paged.push(...last.items);
      if (offset + 200 >= last.page.total) break;
    }
    assert.equal(exported.items.length, 450);
    assert.deepEqual(exported.items, paged);
    assert.deepEqual(exported.page, { offset: 0, limit: 450, total: 450 });
    assert.deepEqual(exported.session, last.session);
    assert.deepEqual(exported.runs, last.runs);
    assert.ok(exported.items.some((item) => item.type === 'gap'));
    assert.ok(exported.items.some((item) => item.type === 'file' && item.textClipped?.bytes === 140_000));
  });

  it('of a session that is not there is a 404 that says so', async () => {
    const got = await download('/api/sessions/no-such-session/export?format=ndjson');
    assert.equal(got.status, 404);
    assert.deepEqual(JSON.parse(got.body.toString('utf8')), { error: 'not-found', message: 'no such conversation in the stores read' });
    assert.equal(got.disposition, null);
  });

  it('in a format it does not know is a 400 that names the formats', async () => {
    for (const path of ['/api/sessions/bytes/export?format=csv', '/api/sessions/bytes/export', '/api/search/export?format=xml']) {
      const got = await download(path);
      assert.equal(got.status, 400, path);
      assert.equal(JSON.parse(got.body.toString('utf8')).message, 'format must be one of ndjson, json, md');
    }
  });

  it('stops when its client goes away midway', async () => {
    const before = describeExportActivity();
    const received = await new Promise<number>((resolve, reject) => {
      const req = request(new URL('/api/sessions/large/export?format=ndjson', dashboard.url), (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          // Reads the first megabyte, then goes away.
          if (bytes > 1_000_000) {
            res.pause();
            req.destroy();
            resolve(bytes);
          }
        });
        res.on('end', () => reject(new Error('the export ended before the client went away')));
      });
      req.on('error', () => {});
      req.end();
    });
    assert.ok(received < 40_000_000);
    const after = await eventually(() => {
      const now = describeExportActivity();
      return now.stopped > before.stopped && now.running === before.running ? now : undefined;
    }, 'the export to stop');
    assert.equal(after.finished, before.finished, 'the export did not run to its end');
    const next = await download('/api/sessions/bytes/export?format=ndjson');
    assert.equal(next.status, 200);
  });
});

describe('exporting a search', () => {
  it('gives its hits with their sources, in each format', async () => {
    const query = 'q=refused+words&side=sent';
    const answer = await getJson(dashboard, `/api/search?${query}`, searchResponseSchema);
    assert.equal(answer.hits.length, 1, JSON.stringify(answer));

    const json = await download(`/api/search/export?format=json&${query}`);
    assert.equal(json.status, 200);
    assert.match(json.disposition!, /^attachment; filename="search-[0-9TZ-]+\.json"$/);
    assert.deepEqual(searchResponseSchema.parse(JSON.parse(json.body.toString('utf8'))), answer);

    const [head, ...hits] = linesOf((await download(`/api/search/export?format=ndjson&${query}`)).body);
    assert.deepEqual(head!['query'], { q: 'refused words', side: 'sent' });
    assert.deepEqual(hits, answer.hits.map((hit) => ({ type: 'hit', ...hit })));

    const md = (await download(`/api/search/export?format=md&${query}`)).body.toString('utf8');
    // Headings one level at a time: the title, the hits' own heading, each hit.
    assert.deepEqual([...new Set(md.split('\n').filter((line) => /^#+ /.test(line)).map((line) => line.split(' ')[0]!.length))], [1, 2, 3]);
    assert.ok(md.includes(`session \`degraded\`, file \`${files.get('degraded')![5]}\``), md);
    assert.ok(md.includes('**not queued:** `recipient refuses inbound messages`'));
    assert.ok(md.includes('```text\nrefused words\n```'));
  });

  it('with a bad query is answered as the search is', async () => {
    const got = await download('/api/search/export?format=md&q=(a)\\1&regex=1');
    assert.equal(got.status, 400);
    assert.equal(got.disposition, null);
  });
});

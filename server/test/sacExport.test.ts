import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { searchResponseSchema } from '../../shared/wire/search.ts';
import { sacRoomResponseSchema, sacSeatResponseSchema } from '../../shared/wire/sac.ts';
import { startSacWriter, type SacWriter } from '../../tools/writer/sacWriter.ts';
import { startDashboard, type Dashboard } from '../dashboard.ts';
import { eventually, makeTempRecord } from './harness.ts';
import { writeExampleStore } from './sacApp.ts';

// A seat exported whole: its Sent | Received as NDJSON (each stretch's bytes as in its file), as
// JSON (the seat page's shape with every item) and as a Markdown transcript in sac's words; and a
// search's sac hits exported. Written by a writer process as sac writes, read by the real server.

const WEB = 'web-app#3f9c1a20';
const API = 'api-service#c4e10000';
const CANARY = 'CANARY-export-relay-77c0';
const VERBATIM = 'line one with ```` four backticks\r\n\tline two \u200b\u202eevil\u202c 🧪\nfindme-sac-export';
const TORN_HEADER = '## 2026-12-01T12:00:00.000+00:00 — FACT';

let store: { dir: string; remove(): void };
let writer: SacWriter;
let dashboard: Dashboard;
let sourceId = '';

before(async () => {
  store = makeTempRecord('sac-export-');
  writer = await startSacWriter(store.dir);
  await writeExampleStore(writer);
  await writer.send({ op: 'raw', path: 'relays.json', bytes: Buffer.from(JSON.stringify({ secret: CANARY })).toString('base64') });
  await writer.send({ op: 'send', room: 'export', seat: WEB, ts: '2026-12-01T11:59:00.000+00:00', type: 'KÉRDÉS', text: VERBATIM, to: [API] });
  // A header whose body never came, dated past the pending window: a torn write.
  const old = new Date(Date.now() - 60_000).toISOString();
  await writer.send({ op: 'raw', path: `channels/export/${WEB}.md`, bytes: Buffer.from(`\n${TORN_HEADER}\n`).toString('base64'), append: true, mtime: old });
  await writer.send({ op: 'raw', path: `channels/export/${API}.md`, bytes: Buffer.from(`stray notes\n## 2026-12-01T12:01:00.000+00:00 — ANSWER → web-app (re: 2026-12-01T11:59:00.000+00:00)\nThe answer\n`).toString('base64') });
  dashboard = await startDashboard({ stores: [{ kind: 'sac', root: store.dir }], token: null, host: '127.0.0.1', port: 0, portFallback: false, webRoot: null });
  sourceId = dashboard.sources[0]!.ref.id;
  await eventually(() => (dashboard.sources[0]!.status().indexing.state === 'ready' && dashboard.sources[0]!.conversation(WEB) !== null ? true : undefined), 'the store read');
});
after(async () => {
  await dashboard.close();
  await writer.close();
  store.remove();
});

async function exportOf(seat: string, format: string): Promise<{ status: number; text: string; disposition: string | null; type: string | null }> {
  const response = await fetch(new URL(`/api/sessions/${encodeURIComponent(seat)}/export?format=${format}&source=${sourceId}`, dashboard.url));
  return { status: response.status, text: await response.text(), disposition: response.headers.get('content-disposition'), type: response.headers.get('content-type') };
}

type Line = Record<string, unknown> & { fileText?: string | null };

function linesOf(text: string): Line[] {
  assert.ok(text.endsWith('\n'));
  return text.slice(0, -1).split('\n').map((line) => JSON.parse(line) as Line);
}

describe('a set-agent-comm seat exported', () => {
  it('as NDJSON gives each stretch of Sent | Received with its evidence, its place and its bytes exactly as in the file', async () => {
    const answer = await exportOf(WEB, 'ndjson');
    assert.equal(answer.status, 200, answer.text);
    assert.match(answer.disposition!, /^attachment; filename="sac-web-app_3f9c1a20\.ndjson"$/);
    assert.ok(!answer.text.includes(CANARY));
    const [head, ...items] = linesOf(answer.text);
    assert.equal(head!['type'], 'seat');
    assert.equal(head!['schema'], 'rec.sac-seat-export/1');
    assert.equal(head!['seat'], WEB);
    const sent = items.filter((item) => item['column'] === 'sent');
    const received = items.filter((item) => item['column'] === 'received');
    assert.equal(head!['sent'], sent.length);
    assert.equal(head!['received'], received.length);
    assert.ok(sent.length > 0 && received.length > 0);
    // The seat's own files, put together from its Sent stretches in file order, are the files byte for byte.
    const ownFiles = new Set(sent.map((item) => item['file'] as string));
    assert.ok(ownFiles.has(`channels/export/${WEB}.md`));
    for (const file of ownFiles) {
      const stretches = sent.filter((item) => item['file'] === file).sort((a, b) => (a['start'] as number) - (b['start'] as number));
      const joined = Buffer.concat(stretches.map((item) => Buffer.from(item.fileText!, 'utf8')));
      assert.ok(joined.equals(readFileSync(join(store.dir, file))), `${file} byte for byte`);
    }
    for (const item of received) {
      const bytes = readFileSync(join(store.dir, item['file'] as string)).subarray(item['start'] as number, item['end'] as number);
      assert.ok(Buffer.from(item.fileText!, 'utf8').equals(bytes), `${item['item'] as string} byte for byte`);
    }
    const torn = sent.find((item) => item['file'] === `channels/export/${WEB}.md` && item['evidence'] === 'damaged')!;
    assert.match(torn['why'] as string, /torn/);
    assert.equal(torn['room'], 'export');
    assert.equal(torn.fileText, `${TORN_HEADER}\n`);
    const stray = received.find((item) => item['type'] === 'stray-text')!;
    assert.equal(stray.fileText, 'stray notes\n');
    assert.equal(stray['evidence'], 'stray');
    const answerEntry = received.find((item) => item['file'] === `channels/export/${API}.md` && item['type'] === 'entry')!;
    assert.equal(answerEntry['addressing'], 'to-agent');
    // The example's web-app session is gone (its writer exited long since): past its cursor is its backlog, not unread.
    assert.equal(answerEntry['sacCursor'], 'backlog');
  });

  it('as Markdown reads as a transcript in sac’s words: the torn entry in its place, sac’s cursor labelled as sac’s, bodies verbatim in fences no backtick run closes', async () => {
    const answer = await exportOf(WEB, 'md');
    assert.equal(answer.status, 200, answer.text);
    assert.match(answer.type!, /^text\/markdown/);
    const md = answer.text;
    assert.ok(!md.includes(CANARY));
    assert.match(md, /^# Seat `web-app#3f9c1a20`/);
    assert.ok(md.includes('sac’s cursor'), 'the cursor labelled as sac’s');
    // Its session is gone: what is past its cursor is said as its backlog, never as unread.
    assert.ok(md.includes('- past sac’s cursor: backlog, its session is gone (derived), so not counted as unread'), md);
    assert.ok(!md.includes('sac’s cursor: unread'), md);
    assert.ok(!md.includes('unread by sac’s cursor'), md);
    assert.match(md, /its session is gone: its backlog of \d+ past sac’s cursor is not counted as unread/);
    assert.ok(md.includes('not what the session read'));
    const sentAt = md.indexOf('## Sent');
    const receivedAt = md.indexOf('## Received');
    assert.ok(sentAt > 0 && receivedAt > sentAt);
    // The torn write is in its place in Sent, after the entry its file holds before it.
    const question = md.indexOf('findme-sac-export');
    const torn = md.indexOf('Torn write', question);
    assert.ok(question > sentAt && torn > question && torn < receivedAt, 'the torn entry after the question, in Sent');
    assert.ok(md.includes('`KÉRDÉS` (QUESTION)'), 'the type as written, with the type it stands for');
    assert.ok(md.includes(`To: \`${API}\``));
    assert.ok(md.includes(`\`\`\`\`\`text\n${VERBATIM.trim()}\n\`\`\`\`\`\n`), 'the body verbatim, in a fence of five');
    assert.ok(md.includes('Re: `2026-12-01T11:59:00.000+00:00`'));
    assert.ok(md.includes('Stray text before the file’s first header'));
  });

  it('as JSON is the seat page’s shape with every item, equal to the page asked for all of them', async () => {
    const answer = await exportOf(WEB, 'json');
    assert.equal(answer.status, 200, answer.text);
    const exported = sacSeatResponseSchema.parse(JSON.parse(answer.text));
    assert.equal(exported.sent.length, exported.sentTotal);
    assert.equal(exported.received.length, exported.receivedTotal);
    assert.equal(exported.others, true);
    const page = sacSeatResponseSchema.parse(await (await fetch(new URL(`/api/sessions/${encodeURIComponent(WEB)}?source=${sourceId}&others=1&limit=20000`, dashboard.url))).json());
    assert.deepEqual(exported.sent, page.sent);
    assert.deepEqual(exported.received, page.received);
    assert.deepEqual(exported.seat, page.seat);
  });

  it('of a seat the store does not hold is a 404', async () => {
    const answer = await exportOf('nobody#00000000', 'md');
    assert.equal(answer.status, 404);
  });

  it('a search’s sac hits export in each format, each naming its store, room and writer', async () => {
    const query = `q=findme-sac-export`;
    const json = await fetch(new URL(`/api/search/export?format=json&${query}`, dashboard.url));
    assert.equal(json.status, 200);
    const response = searchResponseSchema.parse(await json.json());
    assert.equal(response.hits.length, 1);
    assert.equal(response.hits[0]!.source.kind, 'sac');
    const ndjson = linesOf(await (await fetch(new URL(`/api/search/export?format=ndjson&${query}`, dashboard.url))).text());
    assert.equal(ndjson[1]!['type'], 'hit');
    assert.equal(ndjson[1]!['room'], 'export');
    assert.equal(ndjson[1]!['seat'], WEB);
    const md = await (await fetch(new URL(`/api/search/export?format=md&${query}`, dashboard.url))).text();
    assert.ok(md.includes(`Store sac \`${sourceId}\`, room \`export\`, written by seat \`${WEB}\``));
    assert.ok(md.includes('findme-sac-export'));
  });
});

describe('a set-agent-comm room exported', () => {
  const roomExport = async (room: string, format: string) => {
    const response = await fetch(new URL(`/api/sources/${sourceId}/views/rooms/${encodeURIComponent(room)}/export?format=${format}`, dashboard.url));
    return { status: response.status, text: await response.text(), disposition: response.headers.get('content-disposition') };
  };

  it('as NDJSON gives every stretch of its flow in time order, each with its writer, evidence and bytes exactly as in its file', async () => {
    const answer = await roomExport('export', 'ndjson');
    assert.equal(answer.status, 200, answer.text);
    assert.match(answer.disposition!, /^attachment; filename="sac-room-export\.ndjson"$/);
    assert.ok(!answer.text.includes(CANARY));
    const [head, ...items] = linesOf(answer.text);
    assert.equal(head!['type'], 'room');
    assert.equal(head!['schema'], 'rec.sac-room-export/1');
    assert.equal(head!['room'], 'export');
    assert.equal(head!['items'], items.length);
    assert.deepEqual(new Set(items.map((item) => item['seat'])), new Set([WEB, API]));
    assert.ok(items.every((item) => item['column'] === null && item['room'] === 'export'));
    for (const item of items) {
      const bytes = readFileSync(join(store.dir, item['file'] as string)).subarray(item['start'] as number, item['end'] as number);
      assert.ok(Buffer.from(item.fileText!, 'utf8').equals(bytes), `${item['item'] as string} byte for byte`);
    }
    assert.ok(items.some((item) => item['evidence'] === 'damaged' && /torn/.test(item['why'] as string)), 'the torn write in its place');
    assert.ok(items.some((item) => item['type'] === 'stray-text'), 'the stray text in its place');
  });

  it('as JSON is the room page’s shape with every item, equal to the page asked for all of them', async () => {
    const answer = await roomExport('export', 'json');
    assert.equal(answer.status, 200, answer.text);
    const exported = sacRoomResponseSchema.parse(JSON.parse(answer.text));
    assert.equal(exported.items.length, exported.total);
    const page = sacRoomResponseSchema.parse(await (await fetch(new URL(`/api/sources/${sourceId}/views/rooms/export?limit=${exported.total}`, dashboard.url))).json());
    assert.deepEqual(exported.items, page.items);
    assert.deepEqual(exported.room, page.room);
  });

  it('as Markdown is a transcript headed by the room (a room of two said, a room of any number not), bodies verbatim, in time order', async () => {
    const answer = await roomExport('export', 'md');
    assert.equal(answer.status, 200, answer.text);
    const md = answer.text;
    assert.match(md, /^# Room `export`/);
    // A room of any number of members is a room: its head says nothing more of its kind.
    assert.ok(!/^- A room$/m.test(md), 'no bare line naming the kind');
    assert.ok(md.includes('## Flow'));
    assert.ok(md.includes(`\`\`\`\`\`text\n${VERBATIM.trim()}\n\`\`\`\`\`\n`), 'the body verbatim, in a fence of five');
    assert.ok(md.indexOf('findme-sac-export') < md.indexOf('The answer'), 'the question before its answer');
  });

  it('of a room no folder of which is read is a 404 saying so, and a format that is not one a 400', async () => {
    const answer = await roomExport('nowhere', 'md');
    assert.equal(answer.status, 404);
    assert.equal((JSON.parse(answer.text) as { message: string }).message, 'no room "nowhere" read in this set-agent-comm store');
    assert.equal((await roomExport('export', 'pdf')).status, 400);
  });
});

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startSacWriter, type SacWriter } from '../../tools/writer/sacWriter.ts';
import { startSpexWriter, type SpexWriter } from '../../tools/writer/spexWriter.ts';
import type { Dashboard } from '../dashboard.ts';
import { makeTempRecord } from './harness.ts';
import { readForDroppedExports, startSpexAndSac } from './largeTextRig.ts';
import { writeExampleStore } from './sacApp.ts';
import { A, PROJECT, sentEvent, sessionJson } from './spexHarness.ts';

// A line or a body of tens of megabytes is exported a piece at a time: read, escaped and sent as
// the client takes it, and read no further once the client has gone. Ten clients that each drop
// an export after its first megabyte make the server read the text about once (the look that
// tells whether it is UTF-8 and holds nothing private, shared by them all), not ten times. The
// bytes read are the kernel's count for this process (`rchar`), whatever the machine's load.

const TEXT_BYTES = 32 * 1024 * 1024;
const CLIENTS = 10;
const DROP_AFTER = 1024 * 1024;
const WEB = 'web-app#3f9c1a20';
const BIG_TIME = '2026-11-30T17:20:00.000+00:00';
const RECEIPT_CANARY = 'receipt-canary-7f3a';

const spexHome = makeTempRecord('rec-large-spex-');
const sacStore = makeTempRecord('rec-large-sac-');
let spexWriter: SpexWriter;
let sacWriter: SacWriter;
let dashboard: Dashboard;
const largeText = 'a long line 日本語 '.repeat(Math.ceil(TEXT_BYTES / Buffer.byteLength('a long line 日本語 ')));
const notUtf8 = Buffer.concat([Buffer.from('{"ts":"2026-01-01T00:00:00Z","kind":"sent","mid":"m-raw","from":null,"text":"'), Buffer.alloc(6 * 1024 * 1024 + 1, 0xfe), Buffer.from('"}\n')]);

before(async () => {
  spexWriter = await startSpexWriter(spexHome.dir);
  await spexWriter.send({ op: 'session', project: PROJECT, sessionId: A, value: sessionJson(A) });
  await spexWriter.send({ op: 'event', project: PROJECT, sessionId: A, event: sentEvent('a short one first', null) });
  await spexWriter.send({ op: 'event', project: PROJECT, sessionId: A, event: sentEvent(largeText, null) });
  await spexWriter.send({ op: 'bytes', project: PROJECT, sessionId: A, base64: notUtf8.toString('base64') });
  await spexWriter.send({ op: 'event', project: PROJECT, sessionId: A, event: sentEvent(`receipted ${largeText.slice(0, 5_000_000)}`, null, { dispatchReceipt: { digest: RECEIPT_CANARY } }) });
  sacWriter = await startSacWriter(sacStore.dir);
  await writeExampleStore(sacWriter);
  await sacWriter.send({ op: 'big', room: 'team', seat: WEB, ts: BIG_TIME, type: 'FACT', bodyBytes: TEXT_BYTES, marker: 'BIG' });
  dashboard = await startSpexAndSac(spexHome.dir, sacStore.dir);
});

after(async () => {
  await dashboard?.close();
  await spexWriter?.kill();
  await sacWriter?.close();
  spexHome.remove();
  sacStore.remove();
});

function exportPath(source: string, id: string, format: string): string {
  return `/api/sources/${encodeURIComponent(source)}/conversations/${encodeURIComponent(id)}/export?format=${format}`;
}

async function exportWhole(path: string): Promise<string> {
  const response = await fetch(new URL(path, dashboard.origin));
  assert.equal(response.status, 200);
  return response.text();
}

/** What ten clients that each drop the export after a megabyte make the server read. */
async function readForDropped(path: string): Promise<number> {
  const { read, got } = await readForDroppedExports(dashboard.origin, path, CLIENTS, DROP_AFTER);
  assert.ok(got.every((bytes) => bytes >= DROP_AFTER), 'each client got its first megabyte');
  return read;
}

const spexId = () => dashboard.sources.find((source) => source.ref.kind === 'spex')!.ref.id;
const sacId = () => dashboard.sources.find((source) => source.ref.kind === 'sac')!.ref.id;

describe('a large text is exported a piece at a time', () => {
  it('ten NDJSON exports of a spex session with a 32 MB line, each dropped after a megabyte, read the line about once, not ten times', async () => {
    const read = await readForDropped(exportPath(spexId(), A, 'ndjson'));
    assert.ok(read < 3 * TEXT_BYTES, `read ${read} bytes for ten exports of a ${TEXT_BYTES}-byte line`);
  });

  it('ten NDJSON exports of a sac seat with a 32 MB body, each dropped after a megabyte, read the body about once, not ten times', async () => {
    const read = await readForDropped(exportPath(sacId(), WEB, 'ndjson'));
    assert.ok(read < 3 * TEXT_BYTES, `read ${read} bytes for ten exports of a ${TEXT_BYTES}-byte body`);
  });

  it('a spex line of 32 MB exported whole is its bytes exactly, a large line of bytes that are not UTF-8 is its bytes in base64, and a large line with a receipt is withheld, never sent', async () => {
    const lines = (await exportWhole(exportPath(spexId(), A, 'ndjson'))).trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const large = lines.find((line) => typeof line['lineText'] === 'string' && (line['lineText'] as string).length > 1000)!;
    assert.equal(large['bytes'], Buffer.byteLength(large['lineText'] as string));
    assert.deepEqual(JSON.parse(large['lineText'] as string).text, largeText);
    assert.ok(!lines.some((line) => JSON.stringify(line).includes(RECEIPT_CANARY)), "spex's private receipt went out");
    const receipted = lines.find((line) => line['withheld'] !== undefined && line['bytes'] === null)!;
    assert.match(receipted['withheld'] as string, /private delivery data/);
    const raw = lines.find((line) => typeof line['lineBase64'] === 'string')!;
    assert.equal(raw['lineText'], null);
    assert.ok(Buffer.from(raw['lineBase64'] as string, 'base64').equals(notUtf8.subarray(0, -1)), 'the bytes that are not UTF-8, exactly');
  });

  it('a sac body of 32 MB exported whole is the file’s bytes exactly', async () => {
    const lines = (await exportWhole(exportPath(sacId(), WEB, 'ndjson'))).trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const big = lines.find((line) => line['time'] === BIG_TIME)!;
    const file = readFileSync(`${sacStore.dir}/channels/team/${WEB}.md`);
    assert.ok(Buffer.from(big['fileText'] as string).equals(file.subarray(big['start'] as number, big['end'] as number)), 'the stretch’s bytes, exactly');
    assert.ok((big['end'] as number) - (big['start'] as number) > TEXT_BYTES);
  });
});

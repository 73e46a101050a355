import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileResponseSchema, sessionResponseSchema, type FileItem } from '../../shared/wire/record.ts';
import { nameAt, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import type { Dashboard } from '../dashboard.ts';
import { eventually, getJson, makeTempRecord, startTestDashboard } from './harness.ts';
import { recordSessionsResponseSchema } from '../../shared/test/recordWire.ts';

// Fields a reader does not know are kept as written: the page and the file endpoint send them
// as the file has them, the raw view gets the file's own text, and a key written twice is
// flagged rather than read one way.

const record = makeTempRecord();
let dashboard: Dashboard;
const SESSION = 'odd-fields';

function entryText(value: Record<string, unknown>): string {
  return JSON.stringify({ ...value, sessionId: SESSION });
}

/** Extra fields, written as no JSON.stringify would write them. */
const ODD = '"__proto__":{"polluted":true},"huge":1e400,"big":12345678901234567890,"zero":-0,"float":1.50';
const ODD_MESSAGE = `${entryText(sentEntry(1, 'odd fields')).slice(0, -1)},${ODD}}`;
const ODD_KIND = `{"kind":"handoff","sessionId":"${SESSION}","at":"2026-11-20T09:00:02.000Z","cwd":"/x",${ODD}}`;
const TWO_KINDS = `{"kind":"message",${entryText(startEntry(3, { version: '9.9.9' })).slice(1)}`;
const CHAIN = `{"kind":"chain","sessionId":"${SESSION}","at":"2026-11-20T09:00:04.000Z","parent":"p1","part":12345678901234567890,"brief":"b","cwd":"/home/dev/projects/web-app"}`;
/** A byte-order mark, white space and CRLF: the raw view shows them as they are. */
const SPACED = `\ufeff{ \r\n  ${entryText(sentEntry(5, 'spaced')).slice(1, -1)} }\n`;

function put(name: string, text: string): void {
  mkdirSync(join(record.dir, SESSION), { recursive: true });
  writeFileSync(join(record.dir, SESSION, name), text);
}

before(async () => {
  put(nameAt(0, 1), entryText(startEntry(0)));
  put(nameAt(1, 2), ODD_MESSAGE);
  put(nameAt(2, 3), ODD_KIND);
  put(nameAt(3, 4), TWO_KINDS);
  put(nameAt(4, 5), CHAIN);
  put(nameAt(5, 6), SPACED);
  dashboard = await startTestDashboard(record.dir);
  await eventually(() => (dashboard.sources[0]!.status().indexing.state === 'ready' ? true : undefined), 'the first scan');
});

after(async () => {
  await dashboard.close();
  record.remove();
});

async function text(path: string): Promise<string> {
  const response = await fetch(new URL(path, dashboard.url));
  assert.equal(response.status, 200, path);
  return response.text();
}

async function page(): Promise<FileItem[]> {
  const body = await getJson(dashboard, `/api/sessions/${SESSION}`, sessionResponseSchema);
  return body.items.filter((item): item is FileItem => item.type === 'file');
}

describe('fields as written', () => {
  it('a page and the file endpoint send a __proto__ field and numbers JSON cannot hold as the file has them', async () => {
    for (const path of [`/api/sessions/${SESSION}`, `/api/sessions/${SESSION}/files/${nameAt(1, 2)}`, `/api/sessions/${SESSION}/files/${nameAt(2, 3)}`]) {
      const body = await text(path);
      assert.ok(body.includes(ODD), `${path} holds ${ODD}`);
    }
    const file = fileResponseSchema.parse(JSON.parse(await text(`/api/sessions/${SESSION}/files/${nameAt(1, 2)}`)));
    assert.ok(Object.hasOwn(file.item.entry!, '__proto__'), 'the wire schema keeps a __proto__ field');
    assert.deepEqual(file.item.entry!['__proto__'], { polluted: true });
  });

  it('the file endpoint gives the file\'s own text, exactly', async () => {
    for (const name of [nameAt(1, 2), nameAt(2, 3), nameAt(3, 4), nameAt(5, 6)]) {
      const file = await getJson(dashboard, `/api/sessions/${SESSION}/files/${name}`, fileResponseSchema);
      assert.equal(file.item.fileText, readFileSync(join(record.dir, SESSION, name), 'utf8'), name);
    }
  });

  it('a page gives the text of what it shows raw in place (invalid entries, unknown kinds), and not of other entries', async () => {
    const items = await page();
    assert.deepEqual(
      items.map((item) => [item.file, item.fileText !== undefined]),
      [[nameAt(0, 1), false], [nameAt(1, 2), false], [nameAt(2, 3), true], [nameAt(3, 4), true], [nameAt(4, 5), false], [nameAt(5, 6), false]],
    );
    assert.equal(items[2]?.fileText, ODD_KIND);
    assert.equal(items[3]?.fileText, TWO_KINDS);
  });

  it('a message whose last "kind" is start begins no run: the duplicated key is flagged with its reason', async () => {
    const body = await getJson(dashboard, `/api/sessions/${SESSION}`, sessionResponseSchema);
    assert.equal(body.runs.length, 1);
    const twice = body.items[3];
    assert.ok(twice?.type === 'file');
    assert.equal(twice.evidence, 'invalid');
    assert.equal(twice.why, 'duplicate key "kind": the entry says two things, and the reader picks neither');
    assert.equal(twice.raw, undefined, 'neither value is shown as the entry');
    assert.deepEqual(body.session.degraded.map((reason) => [reason.code, reason.files]), [['invalid-entry', [nameAt(3, 4)]]]);
  });

  it('a chain part past 2^53 is listed as written', async () => {
    const list = await getJson(dashboard, '/api/sessions', recordSessionsResponseSchema);
    const session = list.projects.flatMap((project) => project.sessions).find((each) => each.sessionId === SESSION);
    assert.equal(session?.chain?.part, '12345678901234567890');
  });
});
